/**
 * The reckoning of `npm run bench:chaos` (bench/chaos.ts) that is logic
 * rather than a run: the seeded random numbers, where the short jails fall,
 * and whether a jail started and finished when it should have, given when a
 * server was running.
 */

import { seededRandom } from './frames.ts';
import type { SeededSlot } from './live-guests.ts';

export type Slot = SeededSlot;

/** One server process: started, answering /api/health (null: killed before it did), gone. */
export interface ServerLife {
  spawnedAt: number;
  readyAt: number | null;
  killedAt: number | null;
}

/** A seeded reservation and its jail, as read from the database (times in epoch ms). */
export interface JailRow {
  id: number;
  start_time: number;
  end_time: number;
  started_at: number | null;
  finished_at: number | null;
  finish: string | null;
}

/**
 * A server must have answered this long inside a jail's window for the jail
 * to be due: the scheduler's first pass comes a second after the server is
 * ready (src/server/jail/scheduler.ts), and one more second covers a slow pass.
 */
export const DUE_AFTER_MS = 2_000;

export interface JudgedJail {
  /** A server answered for DUE_AFTER_MS or more between its start and its end: it should have started. */
  due: boolean;
  started: boolean;
  /** A server answered at or after its end: it should have finished. */
  endedInRun: boolean;
  finished: boolean;
  /** A server answered at its end time, so the end is the reference, not a restart. */
  endedWhileUp: boolean;
  /** How long after its start (or the restart after it) the jail started; null if it did not. */
  startLatenessMs: number | null;
  /** How long after its end (or the restart after it) the jail finished; null if it did not. */
  finishLatenessMs: number | null;
}

/** Numbers in [0, 1) from a seed (bench/frames.ts's generator): the same seed gives the same kill moments and jails. */
export function randomGenerator(seed: number): () => number {
  const next = seededRandom(seed);
  return () => next() / 2 ** 32;
}

/**
 * `perGuest` short jails for each of `guests` guests: the run cut into
 * `perGuest` equal parts, a jail ending at a random moment of each (the
 * first in the second half of its part, well after the first start), 1 to 3
 * whole minutes long as bookings are (at most a part's length, at least a
 * minute: in a short run the jails start before it), never overlapping.
 */
export function scheduleJails(random: () => number, guests: number, perGuest: number, runStart: number, runEnd: number): Slot[][] {
  const part = (runEnd - runStart) / perGuest;
  const longestMinutes = Math.max(1, Math.min(3, Math.floor(part / 60_000)));
  return Array.from({ length: guests }, () =>
    Array.from({ length: perGuest }, (_, index) => {
      const minutes = 1 + Math.floor(random() * longestMinutes);
      const partStart = runStart + index * part;
      const earliestEnd = partStart + (index === 0 ? part / 2 : minutes * 60_000);
      const endTime = Math.round(earliestEnd + random() * Math.max(0, partStart + part - earliestEnd));
      return { startTime: endTime - minutes * 60_000, minutes };
    }),
  );
}

/** `time` itself if a server answered then, else when the next one did (null: none did). */
function reference(time: number, lives: readonly ServerLife[]): number | null {
  if (lives.some((life) => life.readyAt !== null && life.readyAt <= time && (life.killedAt ?? Number.POSITIVE_INFINITY) > time)) return time;
  const next = lives.map((life) => life.readyAt).filter((readyAt): readyAt is number => readyAt !== null && readyAt > time);
  return next.length === 0 ? null : Math.min(...next);
}

/** Whether a jail started and finished as it should have, given the servers' lives. */
export function judgeJail(row: JailRow, lives: readonly ServerLife[]): JudgedJail {
  const due = lives.some(
    (life) =>
      life.readyAt !== null && Math.min(row.end_time, life.killedAt ?? Number.POSITIVE_INFINITY) - Math.max(row.start_time, life.readyAt) >= DUE_AFTER_MS,
  );
  const startReference = reference(row.start_time, lives);
  const endReference = reference(row.end_time, lives);
  return {
    due,
    started: row.started_at !== null,
    endedInRun: endReference !== null,
    finished: row.finished_at !== null,
    endedWhileUp: endReference === row.end_time,
    startLatenessMs: row.started_at === null || startReference === null ? null : row.started_at - startReference,
    finishLatenessMs: row.finished_at === null || endReference === null ? null : row.finished_at - endReference,
  };
}

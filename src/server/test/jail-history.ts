import type { Database } from '../db/database.ts';
import { jails, reservations } from '../db/schema/index.ts';
import { bookingSource, occurrenceRow } from '../services/reservations.ts';
import type { FinishKind } from '../../shared/jail-vocabulary.ts';

/** A jail of the past as its rows keep it once finished. */
export interface PastJail {
  startTime: number;
  durationMinutes: number;
  finish: FinishKind;
  focusedMs: number;
  work?: string;
  isTrial?: boolean;
}

/**
 * Writes finished jails straight into the database, each with its
 * occurrence (ended), as years of use would leave them: for the progress
 * tests and `bench/progress.ts`. An ignored jail was never entered.
 */
export async function insertPastJails(db: Database, guestId: number, timeZone: string, past: readonly PastJail[]): Promise<number[]> {
  if (past.length === 0) return [];
  const rows = await db
    .insert(reservations)
    .values(
      past.map((jail) => {
        const source = bookingSource(
          guestId,
          {
            work: jail.work ?? 'Past work',
            duration: jail.durationMinutes / 60,
            startTime: jail.startTime,
            repeatType: 'none',
            dailyRepeatSettings: [0, 1, 2, 3, 4, 5, 6],
            schedules: [],
          },
          timeZone,
        );
        return occurrenceRow({ ...source, isTrial: jail.isTrial ?? false }, jail.startTime, 'ended', jail.startTime);
      }),
    )
    .returning({ id: reservations.id, startTime: reservations.startTime, endTime: reservations.endTime });
  await db.insert(jails).values(
    rows.map((row, index) => {
      const jail = past[index];
      if (jail === undefined) throw new Error('a reservation without its jail');
      return {
        reservationId: row.id,
        guestId,
        startTime: row.startTime,
        endTime: row.endTime,
        state: 'finished' as const,
        startedAt: row.startTime,
        enteredAt: jail.finish === 'ignored' ? null : row.startTime,
        statusSince: row.startTime,
        finishedAt: row.endTime,
        finish: jail.finish,
        isTrial: jail.isTrial ?? false,
        focusedMs: jail.focusedMs,
        // They have no patrol images: nothing for the purge to do.
        patrolsPurgedAt: row.endTime,
      };
    }),
  );
  return rows.map((row) => row.id);
}

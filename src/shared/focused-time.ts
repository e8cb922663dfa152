import type { JailStatus } from './jail-vocabulary.ts';
/**
 * How long a jail held its guest, and how much of that was focused
 * (docs/rules.md, Focused time). The jail's row keeps what these need: when
 * the guest entered, the breaks and leaves that have ended (`breakMs`,
 * `awayMs`) and the status under way since `statusSince`.
 *
 * - Held time: from entering (or the start, if the guest came early) to the
 *   finish, capped at the planned end. An ignored jail, never entered, held
 *   nobody. The light plan's 15 hours count this: the plan sells the jailed
 *   time the guest booked and held, breaks and leaves included, as the
 *   booking's monthly check counts booked hours.
 * - Focused time: the held time in the seat, less the breaks and the leaves.
 *   The trigger's achievement (and the report and progress to come) read it.
 */

/** What a jail's row keeps for its held and focused time. */
export interface JailTimes {
  startTime: number;
  endTime: number;
  /** When the guest's device first reported in; null: never (an ignored jail). */
  enteredAt: number | null;
  jailStatus: JailStatus;
  statusSince: number;
  /** Breaks that have ended, in ms. */
  breakMs: number;
  /** Leaves of the seat that have ended, in ms. */
  awayMs: number;
}

/** How long the jail held its guest, finishing at `finishedAt`. */
export function heldMs(jail: Pick<JailTimes, 'startTime' | 'endTime' | 'enteredAt'>, finishedAt: number): number {
  if (jail.enteredAt === null) return 0;
  return Math.max(0, Math.min(finishedAt, jail.endTime) - Math.max(jail.enteredAt, jail.startTime));
}

/** The time in `status` so far, were it to end at `until`: 0 unless the jail is in it. */
function underWayMs(jail: Pick<JailTimes, 'jailStatus' | 'statusSince'>, status: JailStatus, until: number): number {
  return jail.jailStatus === status ? Math.max(0, until - jail.statusSince) : 0;
}

/** The breaks until `until`: those that ended and one under way. */
function breakMsUntil(jail: Pick<JailTimes, 'breakMs' | 'jailStatus' | 'statusSince'>, until: number): number {
  return jail.breakMs + underWayMs(jail, 'breaking', until);
}

/** The time away from the seat until `until`: the leaves that ended and one under way. */
function awayMsUntil(jail: Pick<JailTimes, 'awayMs' | 'jailStatus' | 'statusSince'>, until: number): number {
  return jail.awayMs + underWayMs(jail, 'leaving', until);
}

/**
 * What a status change from the jail's current status at `now` adds to the
 * ended breaks and leaves: the row keeps these when the change is stored.
 */
export function endedPauses(jail: Pick<JailTimes, 'breakMs' | 'awayMs' | 'jailStatus' | 'statusSince'>, now: number): { breakMs: number; awayMs: number } {
  return { breakMs: breakMsUntil(jail, now), awayMs: awayMsUntil(jail, now) };
}

/** The focused time of a jail finishing at `finishedAt`: held, in the seat, less breaks and leaves. */
export function focusedMs(jail: JailTimes, finishedAt: number): number {
  const held = heldMs(jail, finishedAt);
  if (held === 0) return 0;
  const until = Math.min(finishedAt, jail.endTime);
  return Math.max(0, held - breakMsUntil(jail, until) - awayMsUntil(jail, until));
}

/** A finished jail's times as its report shows them, in ms. */
export interface JailFigures {
  heldMs: number;
  focusedMs: number;
  breakMs: number;
  awayMs: number;
}

/**
 * The held and focused time of a jail finishing at `finishedAt`, with the
 * breaks and leaves they leave out (one under way counts up to the finish,
 * capped at the planned end), so that focused = held - breaks - leaves.
 */
export function jailFigures(jail: JailTimes, finishedAt: number): JailFigures {
  const held = heldMs(jail, finishedAt);
  if (held === 0) return { heldMs: 0, focusedMs: 0, breakMs: 0, awayMs: 0 };
  const until = Math.min(finishedAt, jail.endTime);
  return { heldMs: held, focusedMs: focusedMs(jail, finishedAt), breakMs: breakMsUntil(jail, until), awayMs: awayMsUntil(jail, until) };
}

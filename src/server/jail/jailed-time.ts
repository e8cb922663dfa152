import type { JailRow } from '../db/schema/index.ts';

/**
 * How long a jail held its guest: from entering (or the start, if the guest
 * came early) to its finish, capped at its planned end (the scheduler
 * finishes a moment after it). An ignored jail, never entered, held nobody.
 * The light plan's hours and a trigger's achievement are both measured so.
 */
export function jailedMs(jail: Pick<JailRow, 'startTime' | 'endTime' | 'enteredAt'>, finishedAt: number): number {
  if (jail.enteredAt === null) return 0;
  return Math.max(0, Math.min(finishedAt, jail.endTime) - Math.max(jail.enteredAt, jail.startTime));
}

/** The time on breaks until `until`: those that ended (`breakMs`) and one under way. */
export function breakMsUntil(jail: Pick<JailRow, 'breakMs' | 'jailStatus' | 'statusSince'>, until: number): number {
  return jail.breakMs + (jail.jailStatus === 'breaking' ? Math.max(0, until - jail.statusSince) : 0);
}

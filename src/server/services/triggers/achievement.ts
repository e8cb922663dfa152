import type { JailRow } from '../../db/schema/index.ts';
import { breakMsUntil, jailedMs } from '../../jail/jailed-time.ts';

const MINUTE_MS = 60_000;

/**
 * The minutes achieved in a jail that finished at `finishedAt` (SPEC §3
 * Trigger parameters: end time minus breaks): the time it held the guest,
 * less the time on a break. Leaving the seat counts as time in the jail (it
 * is short and watched by an overrun alert); an ignored jail achieved nothing.
 */
export function achievementMinutes(jail: JailRow, finishedAt: number): number {
  const held = jailedMs(jail, finishedAt);
  if (held === 0) return 0;
  const breaks = breakMsUntil(jail, Math.min(finishedAt, jail.endTime));
  // To the nearest minute: the clock of a finish is a few milliseconds off the minute either way.
  return Math.max(0, Math.round((held - breaks) / MINUTE_MS));
}

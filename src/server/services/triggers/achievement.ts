import { focusedMs, type JailTimes } from '../../../shared/focused-time.ts';
import { MINUTE_MS } from '../../../shared/durations.ts';

/**
 * The minutes achieved in a jail that finished at `finishedAt` (the trigger's
 * `achievement`): its focused time, in the seat, less breaks and leaves
 * (docs/rules.md). An ignored jail achieved nothing.
 */
export function achievementMinutes(jail: JailTimes, finishedAt: number): number {
  // To the nearest minute: the clock of a finish is a few milliseconds off the minute either way.
  return Math.round(focusedMs(jail, finishedAt) / MINUTE_MS);
}

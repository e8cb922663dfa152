/**
 * The durations a guest chooses a jail's length from, and how each reads:
 * the booking form's, the collaboration's and the offer to try a jail on the
 * empty list, which should not bring the whole booking form with it.
 */
import { BOOKING_DURATIONS_HOURS } from '../../../shared/constants.ts';

/** The durations on offer, 1 to 8 hours in quarter hours; the first is the default. */
export const DURATION_OPTIONS: readonly number[] = BOOKING_DURATIONS_HOURS;

/** `1:15` style label of a duration in hours. */
export function durationLabel(hours: number): string {
  const minutes = Math.round(hours * 60);
  return `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}`;
}

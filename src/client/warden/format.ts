import { formatClock, systemTimeZone } from '../../shared/time-zone.ts';

/** A duration as h:mm:ss, or m:ss under an hour; never negative. */
export function formatDuration(ms: number): string {
  const totalSeconds = Math.max(0, Math.floor(ms / 1_000));
  const hours = Math.floor(totalSeconds / 3_600);
  const minutes = Math.floor((totalSeconds % 3_600) / 60);
  const seconds = String(totalSeconds % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
}

/** A time of day on the warden's own clock (the device's zone), as every time is written (shared/time-zone.ts). */
export function consoleClock(time: number): string {
  return formatClock(time, systemTimeZone());
}

/**
 * How the progress screen shows its figures (docs/progress.md): durations
 * in hours and minutes, the chart's scale, the attendance share. Pure.
 */
import type { Progress } from '../../../shared/api/progress.ts';
import { HOUR_MS, MINUTE_MS } from '../../../shared/durations.ts';
import { toLocal } from '../../../shared/time-zone.ts';

/** Whole hours and the minutes left over, rounded down to the minute. */
export function hoursAndMinutes(ms: number): { hours: number; minutes: number } {
  const minutes = Math.floor(ms / MINUTE_MS);
  return { hours: Math.floor(minutes / 60), minutes: minutes % 60 };
}

/**
 * The top of the chart's scale, in whole hours: the longest week rounded up
 * to a step that reads well (1, 2, 5, 10, 20 …), at least 1 hour, so
 * that a quiet run of weeks does not look like a busy one.
 */
export function chartTopHours(weeks: Progress['weeks']): number {
  const longest = Math.max(0, ...weeks.map((week) => week.focusedMs)) / HOUR_MS;
  for (let magnitude = 1; ; magnitude *= 10) {
    for (const step of [1, 2, 5]) {
      if (longest <= step * magnitude) return step * magnitude;
    }
  }
}

/** The share of a bar's height, 0 to 1. */
export function barShare(focusedMs: number, topHours: number): number {
  return Math.min(1, focusedMs / (topHours * HOUR_MS));
}

/** The attendance as a whole percentage, or null before the first jail. */
export function attendancePercent(attendance: Progress['attendance']): number | null {
  return attendance.counted === 0 ? null : Math.round((attendance.entered / attendance.counted) * 100);
}

/** The focused time of all the weeks shown. */
export function totalFocusedMs(weeks: Progress['weeks']): number {
  return weeks.reduce((sum, week) => sum + week.focusedMs, 0);
}

/** `Nov 12` / `11月12日`: a week's first day in the guest's zone. */
export function shortDate(epochMs: number, timeZone: string, language: string): string {
  const local = toLocal(epochMs, timeZone);
  return new Intl.DateTimeFormat(language, { timeZone: 'UTC', month: 'short', day: 'numeric' }).format(Date.UTC(local.year, local.month - 1, local.day));
}

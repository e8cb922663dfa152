import { useEffect, useState } from 'react';
import { formatClock, timeZoneOfBrowserOffset, toLocal } from '../../../shared/time-zone.ts';
import { useAppSelector } from '../../app/hooks.ts';
import { useGuest } from '../../app/session.ts';
import { browserTimezone } from '../../i18n.ts';

/** The current time, re-read every `intervalMs` (the ready check ticks every second). */
export function useNow(intervalMs = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

/** The guest's time zone (the browser offset kept on the guest; the browser's own until it is read). */
export function useTimeZone(): string {
  const offset = useGuest()?.timezone;
  return timeZoneOfBrowserOffset(typeof offset === 'number' ? offset : browserTimezone());
}

export function useLanguage(): 'ja' | 'en' {
  return useAppSelector((state) => state.application.language);
}

/** `Sat, Nov 21` / `11月21日(土)` in the guest's zone. */
export function dateWithWeekday(epochMs: number, timeZone: string, language: string): string {
  const local = toLocal(epochMs, timeZone);
  return new Intl.DateTimeFormat(language, { timeZone: 'UTC', month: 'short', day: 'numeric', weekday: 'short' }).format(
    Date.UTC(local.year, local.month - 1, local.day),
  );
}

/** A weekday's name (0 = Sunday). */
export function weekdayName(weekday: number, language: string, style: 'short' | 'long' = 'short'): string {
  // 2023-01-01 was a Sunday.
  return new Intl.DateTimeFormat(language, { timeZone: 'UTC', weekday: style }).format(Date.UTC(2023, 0, 1 + weekday));
}

/** `HH:MM` of an instant in the guest's zone. */
export function clockOf(epochMs: number, timeZone: string): string {
  return formatClock(epochMs, timeZone);
}

/** `09:00 – 10:15`. */
export function timeRange(startTime: number, endTime: number, timeZone: string): string {
  return `${clockOf(startTime, timeZone)} – ${clockOf(endTime, timeZone)}`;
}

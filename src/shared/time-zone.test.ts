import { describe, expect, it } from 'vitest';
import {
  addDays,
  fixedOffsetTimeZone,
  formatDateTime,
  formatMonth,
  fromLocal,
  hasConstantOffset,
  localMonthOf,
  localTimeExists,
  monthBounds,
  offsetMinutesAt,
  timeZoneOfBrowserOffset,
  toLocal,
  weekdayOf,
} from './time-zone.ts';

const HOUR_MS = 3_600_000;

/** The offset as Intl reports it, read independently of the module's cache. */
function intlOffsetMinutes(timeZone: string, epochMs: number): number {
  const text = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })
    .formatToParts(epochMs)
    .find((part) => part.type === 'timeZoneName')?.value;
  const match = /GMT(?:([+-])(\d{2}):(\d{2}))?/.exec(text ?? '');
  if (match === null) throw new Error(`no offset in ${text}`);
  if (match[1] === undefined) return 0;
  const minutes = Number(match[2]) * 60 + Number(match[3]);
  return match[1] === '-' ? -minutes : minutes;
}

describe('time zone names', () => {
  it('writes an offset in minutes east of UTC as ±HH:MM', () => {
    expect(fixedOffsetTimeZone(540)).toBe('+09:00');
    expect(fixedOffsetTimeZone(-330)).toBe('-05:30');
    expect(fixedOffsetTimeZone(0)).toBe('+00:00');
  });

  it('reads a browser offset, which counts minutes west of UTC', () => {
    expect(timeZoneOfBrowserOffset(-540)).toBe('+09:00');
    expect(timeZoneOfBrowserOffset(300)).toBe('-05:00');
    expect(timeZoneOfBrowserOffset(0)).toBe('+00:00');
  });
});

describe('offsets', () => {
  it('agrees with Intl at thousands of instants in zones with and without daylight saving time', () => {
    const zones = [
      'America/New_York',
      'Europe/London',
      'Australia/Sydney',
      'Australia/Lord_Howe',
      'Asia/Kathmandu',
      'Asia/Tokyo',
      'America/Santiago',
      'Pacific/Chatham',
    ];
    const from = Date.UTC(2020, 0, 1);
    const to = Date.UTC(2035, 0, 1);
    let seed = 12345;
    for (let sample = 0; sample < 4000; sample += 1) {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      const instant = from + Math.floor((seed / 2147483648) * (to - from));
      const zone = zones[sample % zones.length] ?? 'UTC';
      expect(offsetMinutesAt(zone, instant), `${zone} at ${new Date(instant).toISOString()}`).toBe(intlOffsetMinutes(zone, instant));
    }
  });

  it('changes at the exact minute of a clock change', () => {
    // New York springs forward at 2:00 EST on 8 March 2026, 07:00 UTC.
    const change = Date.UTC(2026, 2, 8, 7);
    expect(offsetMinutesAt('America/New_York', change - 1)).toBe(-300);
    expect(offsetMinutesAt('America/New_York', change)).toBe(-240);
    // ... and falls back at 2:00 EDT on 1 November 2026, 06:00 UTC.
    const back = Date.UTC(2026, 10, 1, 6);
    expect(offsetMinutesAt('America/New_York', back - 1)).toBe(-240);
    expect(offsetMinutesAt('America/New_York', back)).toBe(-300);
  });

  it('reads a fixed offset as it is', () => {
    expect(offsetMinutesAt('+05:45', 0)).toBe(345);
    expect(offsetMinutesAt('UTC', Date.UTC(2026, 6, 1))).toBe(0);
  });

  it('knows which zones keep one offset over a year', () => {
    const from = Date.UTC(2026, 10, 21);
    const yearLater = from + 366 * 24 * HOUR_MS;
    expect(hasConstantOffset('Asia/Tokyo', from, yearLater)).toBe(true);
    expect(hasConstantOffset('-03:00', from, yearLater)).toBe(true);
    expect(hasConstantOffset('America/New_York', from, yearLater)).toBe(false);
  });
});

describe('local dates and times', () => {
  it('reads an instant on the local clock', () => {
    expect(toLocal(0, 'Asia/Tokyo')).toEqual({ year: 1970, month: 1, day: 1, minutes: 9 * 60, weekday: 4 });
    expect(toLocal(Date.UTC(2026, 0, 1, 3), 'America/New_York')).toEqual({
      year: 2025,
      month: 12,
      day: 31,
      minutes: 22 * 60,
      weekday: 3,
    });
    expect(toLocal(Date.UTC(2026, 0, 1, 3), '-05:00')).toEqual(toLocal(Date.UTC(2026, 0, 1, 3), 'America/New_York'));
  });

  it('finds the instant of a wall-clock time', () => {
    expect(fromLocal({ year: 2026, month: 11, day: 22 }, 9 * 60, 'Asia/Tokyo')).toBe(Date.UTC(2026, 10, 22, 0));
    expect(fromLocal({ year: 2026, month: 7, day: 1 }, 9 * 60, 'America/New_York')).toBe(Date.UTC(2026, 6, 1, 13));
    expect(fromLocal({ year: 2026, month: 7, day: 1 }, 9 * 60, '+05:30')).toBe(Date.UTC(2026, 6, 1, 3, 30));
  });

  it('moves a time in a spring-forward gap later by the gap, and takes the first of a repeated time', () => {
    const gapDay = { year: 2026, month: 3, day: 8 };
    expect(fromLocal(gapDay, 2 * 60 + 30, 'America/New_York')).toBe(Date.UTC(2026, 2, 8, 7, 30));
    expect(localTimeExists(gapDay, 2 * 60 + 30, 'America/New_York')).toBe(false);
    expect(localTimeExists(gapDay, 3 * 60, 'America/New_York')).toBe(true);
    const foldDay = { year: 2026, month: 11, day: 1 };
    expect(fromLocal(foldDay, 60 + 30, 'America/New_York')).toBe(Date.UTC(2026, 10, 1, 5, 30));
    expect(localTimeExists(foldDay, 60 + 30, 'America/New_York')).toBe(true);
  });

  it('adds days across months and years and names weekdays', () => {
    expect(addDays({ year: 2026, month: 12, day: 30 }, 3)).toEqual({ year: 2027, month: 1, day: 2 });
    expect(addDays({ year: 2028, month: 3, day: 1 }, -1)).toEqual({ year: 2028, month: 2, day: 29 });
    expect(weekdayOf({ year: 2026, month: 11, day: 22 })).toBe(0);
  });

  it('bounds a calendar month by local midnights', () => {
    expect(monthBounds({ year: 2026, month: 2 }, 'Asia/Tokyo')).toEqual({
      start: Date.UTC(2026, 0, 31, 15),
      end: Date.UTC(2026, 1, 28, 15),
    });
    expect(monthBounds({ year: 2026, month: 12 }, 'UTC')).toEqual({
      start: Date.UTC(2026, 11, 1),
      end: Date.UTC(2027, 0, 1),
    });
    expect(localMonthOf(Date.UTC(2026, 10, 30, 16), 'Asia/Tokyo')).toEqual({ year: 2026, month: 12 });
  });
});

describe('formatDateTime', () => {
  const instant = Date.UTC(2026, 10, 28, 0, 0);

  it('writes a date and time in the reader’s zone and language', () => {
    expect(formatDateTime(instant, 'Asia/Tokyo', 'en')).toMatch(/^Nov 28, 2026, 9:00\sAM GMT\+9$/);
    expect(formatDateTime(instant, 'Asia/Tokyo', 'ja')).toBe('2026/11/28 9:00 JST');
    expect(formatDateTime(instant, 'America/New_York', 'en')).toMatch(/^Nov 27, 2026, 7:00\sPM EST$/);
  });

  it('names a fixed offset', () => {
    expect(formatDateTime(instant, '+09:00', 'ja')).toBe('2026/11/28 9:00 UTC+09:00');
    expect(formatDateTime(instant, '-05:30', 'en')).toMatch(/^Nov 27, 2026, 6:30\sPM UTC-05:30$/);
  });
});

describe('formatMonth', () => {
  it('names a month in either language', () => {
    expect(formatMonth({ year: 2026, month: 11 }, 'en')).toBe('November 2026');
    expect(formatMonth({ year: 2026, month: 11 }, 'ja')).toBe('2026年11月');
  });
});

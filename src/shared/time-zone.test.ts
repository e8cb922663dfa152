import { describe, expect, it } from 'vitest';
import {
  addDays,
  clockLabel,
  fixedOffsetTimeZone,
  formatClock,
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
  zoneName,
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

describe('clockLabel and formatClock', () => {
  it('write a time of day as 24-hour HH:MM in every language', () => {
    expect(clockLabel(9 * 60 + 5)).toBe('09:05');
    expect(clockLabel(0)).toBe('00:00');
    expect(clockLabel(23 * 60 + 59)).toBe('23:59');
    expect(formatClock(Date.UTC(2026, 10, 28, 2, 0), 'Asia/Tokyo')).toBe('11:00');
    expect(formatClock(Date.UTC(2026, 10, 28, 2, 0), '+09:00')).toBe('11:00');
    expect(formatClock(Date.UTC(2026, 10, 28, 2, 0), '-05:30')).toBe('20:30');
  });
});

describe('zoneName', () => {
  const instant = Date.UTC(2026, 10, 28, 0, 0);

  it("says an IANA zone's long generic name in the reader's language", () => {
    expect(zoneName('Asia/Tokyo', instant, 'en')).toBe('Japan Standard Time');
    expect(zoneName('Asia/Tokyo', instant, 'ja')).toBe('日本標準時');
    expect(zoneName('Europe/London', instant, 'en')).toBe('United Kingdom Time');
    expect(zoneName('America/New_York', instant, 'en')).toBe('Eastern Time');
  });

  it('writes a zone Intl cannot name as its offset, short', () => {
    expect(zoneName('+09:00', instant, 'en')).toBe('UTC+9');
    expect(zoneName('+09:00', instant, 'ja')).toBe('UTC+9');
    expect(zoneName('-05:30', instant, 'en')).toBe('UTC-5:30');
    expect(zoneName('+05:45', instant, 'en')).toBe('UTC+5:45');
    expect(zoneName('UTC', instant, 'en')).toBe('UTC');
    expect(zoneName('Etc/GMT-9', instant, 'ja')).toBe('UTC+9');
  });
});

describe('formatDateTime', () => {
  const instant = Date.UTC(2026, 10, 28, 0, 0);

  it('writes a date and a 24-hour time, and names the zone for a reader without one (an e-mail)', () => {
    expect(formatDateTime(instant, 'Asia/Tokyo', 'en')).toBe('Nov 28, 2026, 09:00 Japan Standard Time');
    expect(formatDateTime(instant, 'Asia/Tokyo', 'ja')).toBe('2026/11/28 09:00 日本標準時');
    expect(formatDateTime(instant, 'America/New_York', 'en')).toBe('Nov 27, 2026, 19:00 Eastern Time');
    expect(formatDateTime(instant + 13 * 3_600_000 + 30 * 60_000, '+09:00', 'ja')).toBe('2026/11/28 22:30 UTC+9');
    expect(formatDateTime(instant, '-05:30', 'en')).toBe('Nov 27, 2026, 18:30 UTC-5:30');
  });

  it('leaves the zone unsaid where the reader’s clock shows the same time, and says it where it does not', () => {
    expect(formatDateTime(instant, '+09:00', 'en', 'Asia/Tokyo')).toBe('Nov 28, 2026, 09:00');
    expect(formatDateTime(instant, '+09:00', 'ja', '+09:00')).toBe('2026/11/28 09:00');
    expect(formatDateTime(instant, '+09:00', 'en', 'Europe/London')).toBe('Nov 28, 2026, 09:00 UTC+9');
    // New York in winter is UTC-5: the same offset then, another in summer.
    expect(formatDateTime(instant, '-05:00', 'en', 'America/New_York')).toBe('Nov 27, 2026, 19:00');
    expect(formatDateTime(Date.UTC(2026, 6, 1), '-05:00', 'en', 'America/New_York')).toBe('Jun 30, 2026, 19:00 UTC-5');
  });
});

describe('formatMonth', () => {
  it('names a month in either language', () => {
    expect(formatMonth({ year: 2026, month: 11 }, 'en')).toBe('November 2026');
    expect(formatMonth({ year: 2026, month: 11 }, 'ja')).toBe('2026年11月');
  });
});

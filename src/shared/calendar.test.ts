import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { calendarText, foldLine, jailCalendarOptions, singleJailEvent, zoneId } from './calendar.ts';

const SITE = { appUrl: 'https://warden.example', language: 'en' } as const;
/** Monday 7 January 2030, 10:00 in Tokyo. */
const START = Date.UTC(2030, 0, 7, 1, 0);

function utf8Bytes(text: string): number {
  return new TextEncoder().encode(text).length;
}

describe('foldLine', () => {
  it('keeps every line within 75 octets without splitting a character, and unfolds to the original', () => {
    const line = `SUMMARY:${'論文の第二章🙂'.repeat(12)}`;
    const folded = foldLine(line);
    const lines = folded.split('\r\n');
    expect(lines.length).toBeGreaterThan(1);
    for (const part of lines) expect(utf8Bytes(part)).toBeLessThanOrEqual(75);
    for (const part of lines.slice(1)) expect(part.startsWith(' ')).toBe(true);
    expect(folded.replace(/\r\n /g, '')).toBe(line);
    expect(folded).not.toContain('\uFFFD');
  });

  it('leaves a short line alone', () => {
    expect(foldLine('VERSION:2.0')).toBe('VERSION:2.0');
    expect(foldLine('X'.repeat(75))).toBe('X'.repeat(75));
    expect(foldLine('X'.repeat(76))).toBe(`${'X'.repeat(75)}\r\n X`);
  });
});

describe('zoneId', () => {
  it.each([
    [0, 'Etc/UTC'],
    [540, 'Etc/GMT-9'],
    [-300, 'Etc/GMT+5'],
    [840, 'Etc/GMT-14'],
    [-720, 'Etc/GMT+12'],
    [330, 'UTC+0530'],
    [-570, 'UTC-0930'],
    [345, 'UTC+0545'],
  ])('names %i minutes east %s', (minutesEast, id) => {
    expect(zoneId(minutesEast)).toBe(id);
  });
});

describe('calendarText', () => {
  it('gives one jail that ical.js reads back as written: work with commas, semicolons, backslashes and a line break', () => {
    const work = 'Essay, part 1; notes\\drafts\nthen review';
    const event = singleJailEvent({ id: 12, startTime: START, endTime: START + 90 * 60_000, work, timeZone: '+09:00' }, SITE);
    const text = calendarText([event], jailCalendarOptions(SITE, '+09:00', START - 86_400_000));
    expect(text.split('\r\n').every((line) => utf8Bytes(line) <= 75)).toBe(true);

    const calendar = new ICAL.Component(ICAL.parse(text));
    for (const zone of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(zone);
    expect(calendar.getFirstPropertyValue('x-wr-calname')).toBe('Warden jails');
    const parsed = new ICAL.Event(calendar.getFirstSubcomponent('vevent') ?? undefined);
    expect(parsed.summary).toBe(work);
    expect(parsed.uid).toBe('reservation-12@warden.example');
    expect(parsed.startDate.toJSDate().getTime()).toBe(START);
    expect(parsed.endDate.toJSDate().getTime()).toBe(START + 90 * 60_000);
    expect(parsed.startDate.zone?.tzid).toBe('Etc/GMT-9');
    expect(parsed.isRecurring()).toBe(false);
    expect(parsed.component.getFirstPropertyValue('url')).toBe('https://warden.example/reservation/12');
  });

  it('writes a series with its weekdays, its exceptions and an override in the zone of the event', () => {
    const day = 86_400_000;
    const event = {
      ...singleJailEvent({ id: 3, startTime: START, endTime: START + 3_600_000, work: 'Series', timeZone: '-05:00' }, SITE),
      repeat: { kind: 'weekdays' as const, weekdays: [4, 0, 2] },
      exceptions: [START + 2 * day],
      overrides: [{ start: START + 4 * day, summary: 'Thursday', url: 'https://warden.example/reservation/4' }],
    };
    const text = calendarText([event], jailCalendarOptions(SITE, '-05:00', START));
    expect(text).toContain('RRULE:FREQ=WEEKLY;BYDAY=SU,TU,TH\r\n');
    // 01:00 UTC on Monday is 20:00 on Sunday five hours west.
    expect(text).toContain('DTSTART;TZID=Etc/GMT+5:20300106T200000\r\n');
    expect(text).toContain('EXDATE;TZID=Etc/GMT+5:20300108T200000\r\n');
    expect(text).toContain('RECURRENCE-ID;TZID=Etc/GMT+5:20300110T200000\r\n');
    expect(text).toContain('DURATION:PT1H\r\n');
    expect(text).toContain('TRIGGER:-PT15M\r\n');
  });
});

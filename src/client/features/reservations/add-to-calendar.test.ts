import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { jailEventFile } from './add-to-calendar.ts';

describe('jailEventFile', () => {
  it('is one event of the jail, named by its local date, that ical.js reads back', () => {
    // 1 February at 01:00 in Tokyo, still 31 January in UTC: the file is named by the guest's date.
    const start = Date.UTC(2030, 0, 31, 16, 0);
    const file = jailEventFile(
      { id: 7, startTime: start, endTime: start + 2 * 3_600_000, work: '' },
      '+09:00',
      'ja',
      'https://warden.example',
      start - 3_600_000,
    );
    expect(file.name).toBe('warden-2030-02-01.ics');
    const calendar = new ICAL.Component(ICAL.parse(file.text));
    for (const zone of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(zone);
    const events = calendar.getAllSubcomponents('vevent');
    expect(events).toHaveLength(1);
    const event = new ICAL.Event(events[0]);
    expect(event.summary).toBe('ジェイル');
    expect(event.startDate.toJSDate().getTime()).toBe(start);
    expect(event.endDate.toJSDate().getTime()).toBe(start + 2 * 3_600_000);
    expect(event.component.getFirstPropertyValue('url')).toBe('https://warden.example/reservation/7');
  });
});

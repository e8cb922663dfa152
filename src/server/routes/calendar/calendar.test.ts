import { and, eq } from 'drizzle-orm';
import ICAL from 'ical.js';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Reservation } from '../../../shared/api/reservation.ts';
import type { Language } from '../../../shared/constants.ts';
import { guests, reservations } from '../../db/schema/index.ts';
import { apiBlock, credentials, fail, readyGuest, signIn, succeed, useTestServer, type TestGuest } from '../../test/harness.ts';
import { CALENDAR_READS_PER_ADDRESS } from './index.ts';

const APP_URL = 'https://warden.example';
const server = useTestServer({ publicUrl: APP_URL });

/** An instant `days` after Monday 7 January 2030 at `hour`:`minute` in Tokyo (the test guests' zone). */
function tokyo(days: number, hour: number, minute = 0): number {
  return Date.UTC(2030, 0, 7 + days, hour - 9, minute);
}

async function setNow(instant: number): Promise<void> {
  const response = await server.app.inject({ method: 'POST', url: '/dev/clock', payload: { offsetMs: Math.round(instant - Date.now()) } });
  expect(response.statusCode).toBe(200);
}

beforeEach(async () => {
  await setNow(tokyo(0, 9));
});

function body(guest: TestGuest, reservation?: object, language: Language = 'en') {
  return { api: apiBlock(language), guest: credentials(guest), ...(reservation === undefined ? {} : { reservation }) };
}

interface Booking {
  work: string;
  duration: number;
  startTime: number;
  repeatType: 'none' | 'weekly' | 'daily';
  dailyRepeatSettings?: number[];
}

async function book(guest: TestGuest, booking: Booking): Promise<Reservation> {
  const answer = await succeed(server.app, '/reservation/create', body(guest, { dailyRepeatSettings: [0, 1, 2, 3, 4, 5, 6], schedules: [], ...booking }));
  return answer.reservation as Reservation;
}

async function skip(guest: TestGuest, id: number): Promise<Reservation> {
  return (await succeed(server.app, '/reservation/skip', body(guest, { id }))).nextReservation as Reservation;
}

async function feedUrl(guest: TestGuest): Promise<string> {
  const answer = await succeed(server.app, '/guest/regenerateCalendarFeed', body(guest));
  const feed = answer.calendarFeed as { url: string; hint: string };
  expect(feed.url.startsWith(`${APP_URL}/calendar/`)).toBe(true);
  return feed.url;
}

async function readFeed(url: string): Promise<{ statusCode: number; text: string; headers: Record<string, unknown> }> {
  const response = await server.app.inject({ method: 'GET', url: url.slice(APP_URL.length) });
  return { statusCode: response.statusCode, text: response.body, headers: response.headers };
}

/** One instance of an event as a calendar app shows it after expanding the feed. */
interface Instance {
  start: number;
  end: number;
  summary: string;
  url: string;
}

/** Parses the feed with ical.js, as a calendar app would, and expands every event into its instances before `until`. */
function expand(text: string, until: number): Instance[] {
  const calendar = new ICAL.Component(ICAL.parse(text));
  for (const zone of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(zone);
  const components = calendar.getAllSubcomponents('vevent');
  const instances: Instance[] = [];
  for (const master of components.filter((component) => !component.hasProperty('recurrence-id'))) {
    const event = new ICAL.Event(master);
    for (const exception of components) {
      if (exception.hasProperty('recurrence-id') && exception.getFirstPropertyValue('uid') === event.uid) event.relateException(exception);
    }
    const iterator = event.iterator();
    for (let next = iterator.next(); next !== undefined && next !== null && next.toJSDate().getTime() < until; next = iterator.next()) {
      const details = event.getOccurrenceDetails(next);
      instances.push({
        start: details.startDate.toJSDate().getTime(),
        end: details.endDate.toJSDate().getTime(),
        summary: details.item.summary,
        url: String(details.item.component.getFirstPropertyValue('url')),
      });
    }
  }
  return instances.sort((a, b) => a.start - b.start);
}

/** The starts of the guest's occurrences as the server keeps them (rolled forward through a read), skipped ones left out. */
async function serverStarts(guest: TestGuest, until: number): Promise<number[]> {
  await succeed(server.app, '/reservation/read_list', body(guest));
  const rows = await server.app.db.select().from(reservations).where(eq(reservations.guestId, guest.id));
  return rows
    .filter((row) => row.finishReason !== 'skipped' && row.startTime < until)
    .map((row) => row.startTime)
    .sort((a, b) => a - b);
}

describe('GET /calendar/<token>.ics', () => {
  it("expands, as ical.js reads it, to exactly the server's occurrences: repeats, a skip in each series, an edit, a cancelled jail", async () => {
    const guest = await readyGuest(server.app);
    const url = await feedUrl(guest);
    // Every Tuesday at 10:00; the first is skipped.
    const weekly = await book(guest, { work: 'Thesis, chapter 2; draft', duration: 1, startTime: tokyo(1, 10), repeatType: 'weekly' });
    await skip(guest, weekly.id);
    // Mondays, Wednesdays and Fridays at 07:30 in Tokyo (22:30 UTC the day before); the first, on Wednesday, is skipped.
    const daily = await book(guest, {
      work: '論文の第二章を書き上げる、そして参考文献を整理する',
      duration: 1.5,
      startTime: tokyo(2, 7, 30),
      repeatType: 'daily',
      dailyRepeatSettings: [1, 3, 5],
    });
    await skip(guest, daily.id);
    await book(guest, { work: '', duration: 2, startTime: tokyo(3, 20), repeatType: 'none' });
    const cancelled = await book(guest, { work: 'Cancelled', duration: 1, startTime: tokyo(4, 13), repeatType: 'none' });
    await succeed(server.app, '/reservation/destroy', body(guest, { id: cancelled.id }));

    const horizon = tokyo(28, 0);
    const before = await readFeed(url);
    expect(before.statusCode).toBe(200);
    expect(before.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(before.headers['cache-control']).toBe('private, max-age=300');
    const planned = expand(before.text, horizon);

    // Five days on, the daily series' next occurrence gets new work: the ones before keep theirs.
    await setNow(tokyo(6, 9));
    const list = (await succeed(server.app, '/reservation/read_list', body(guest))).reservations as Reservation[];
    const current = list.find((reservation) => reservation.startTime === tokyo(7, 7, 30));
    expect(current?.status).toBe('upcoming');
    await succeed(
      server.app,
      '/reservation/update',
      body(guest, {
        id: current?.id,
        work: 'Chapter 3',
        duration: 1.5,
        startTime: tokyo(7, 7, 30),
        repeatType: 'daily',
        dailyRepeatSettings: [1, 3, 5],
        schedules: [],
      }),
    );
    const midway = expand((await readFeed(url)).text, horizon);

    // Past the horizon, the server has made a row for every occurrence.
    await setNow(horizon + 86_400_000);
    const afterwards = expand((await readFeed(url)).text, horizon);
    const truth = await serverStarts(guest, horizon);

    const expected = [...[8, 15, 22].map((day) => tokyo(day, 10)), ...[4, 7, 9, 11, 14, 16, 18, 21, 23, 25].map((day) => tokyo(day, 7, 30)), tokyo(3, 20)].sort(
      (a, b) => a - b,
    );
    expect(truth).toEqual(expected);
    for (const feed of [planned, midway, afterwards]) {
      expect(feed.map((instance) => instance.start)).toEqual(truth);
    }
    // Skipped and cancelled occurrences are absent; lengths are the bookings'.
    for (const gone of [tokyo(1, 10), tokyo(2, 7, 30), tokyo(4, 13)]) expect(afterwards.some((instance) => instance.start === gone)).toBe(false);
    expect(afterwards.find((instance) => instance.start === tokyo(9, 7, 30))?.end).toBe(tokyo(9, 9));
    expect(afterwards.find((instance) => instance.start === tokyo(8, 10))?.end).toBe(tokyo(8, 11));

    // Titles: the work as written, "Jail" when none was, the edit from its occurrence on.
    const summaryAt = (feed: Instance[], start: number) => feed.find((instance) => instance.start === start)?.summary;
    expect(summaryAt(planned, tokyo(8, 10))).toBe('Thesis, chapter 2; draft');
    expect(summaryAt(planned, tokyo(3, 20))).toBe('Jail');
    expect(summaryAt(midway, tokyo(4, 7, 30))).toBe('論文の第二章を書き上げる、そして参考文献を整理する');
    expect(summaryAt(midway, tokyo(7, 7, 30))).toBe('Chapter 3');
    expect(summaryAt(afterwards, tokyo(4, 7, 30))).toBe('論文の第二章を書き上げる、そして参考文献を整理する');
    expect(summaryAt(afterwards, tokyo(25, 7, 30))).toBe('Chapter 3');

    // A past occurrence links to its own page (its report), the series to the current one.
    const rows = await server.app.db.select().from(reservations).where(eq(reservations.guestId, guest.id));
    const rowAt = (start: number) => rows.find((row) => row.startTime === start && row.finishReason !== 'skipped');
    for (const start of [tokyo(4, 7, 30), tokyo(8, 10), tokyo(3, 20)]) {
      expect(afterwards.find((instance) => instance.start === start)?.url).toBe(`${APP_URL}/reservation/${rowAt(start)?.id}`);
    }
  });

  it('names the guest zone, reminds when the jail opens, folds long lines, and speaks the guest language', async () => {
    const guest = await readyGuest(server.app);
    // India: five and a half hours east, no IANA Etc/ name.
    await server.app.db.update(guests).set({ timezone: -330, language: 'ja' }).where(eq(guests.id, guest.id));
    await server.app.invalidateReadCache(guest.id);
    const start = Date.UTC(2030, 0, 9, 4, 30); // Wednesday 10:00 in India.
    const booked = await book(guest, { work: '', duration: 1, startTime: start, repeatType: 'weekly' });
    const text = (await readFeed(await feedUrl(guest))).text;

    expect(text.endsWith('\r\n')).toBe(true);
    for (const line of text.split('\r\n')) expect(Buffer.byteLength(line, 'utf8')).toBeLessThanOrEqual(75);
    const calendar = new ICAL.Component(ICAL.parse(text));
    expect(calendar.getFirstPropertyValue('x-wr-calname')).toBe('Warden のジェイル');
    expect(calendar.getFirstPropertyValue('x-wr-timezone')).toBe('UTC+0530');
    const event = calendar.getFirstSubcomponent('vevent');
    expect(event?.getFirstProperty('dtstart')?.getParameter('tzid')).toBe('UTC+0530');
    expect(String(event?.getFirstPropertyValue('rrule'))).toBe('FREQ=WEEKLY');
    expect(event?.getFirstPropertyValue('summary')).toBe('ジェイル');
    const trigger = event?.getFirstSubcomponent('valarm')?.getFirstPropertyValue('trigger');
    expect(trigger instanceof ICAL.Duration ? trigger.toSeconds() : null).toBe(-15 * 60);
    expect(expand(text, start + 15 * 86_400_000).map((instance) => instance.start)).toEqual([0, 7, 14].map((days) => start + days * 86_400_000));
    expect(expand(text, start + 1)[0]?.url).toBe(`${APP_URL}/reservation/${booked.id}`);
  });

  it('leaves out try-anyway jails, jails over 90 days ago, and another guest’s jails', async () => {
    const guest = await readyGuest(server.app);
    const other = await readyGuest(server.app);
    const old = await book(guest, { work: 'Long ago', duration: 1, startTime: tokyo(1, 10), repeatType: 'none' });
    await book(other, { work: 'Not mine', duration: 1, startTime: tokyo(2, 10), repeatType: 'none' });
    await setNow(tokyo(100, 9));
    const signedIn = await signIn(server.app, guest);
    const recent = await book(signedIn, { work: 'Recent', duration: 1, startTime: tokyo(101, 10), repeatType: 'none' });
    await succeed(server.app, '/reservation/try', body(signedIn, { work: 'Trying', duration: 1 }));
    const trials = await server.app.db
      .select()
      .from(reservations)
      .where(and(eq(reservations.guestId, guest.id), eq(reservations.isTrial, true)));
    expect(trials).toHaveLength(1);

    const instances = expand((await readFeed(await feedUrl(signedIn))).text, tokyo(200, 0));
    expect(instances.map((instance) => instance.summary)).toEqual(['Recent']);
    expect(instances.map((instance) => instance.url)).toEqual([`${APP_URL}/reservation/${recent.id}`]);
    expect(old.id).not.toBe(recent.id);
  });

  it('works only at the newest address: a new one replaces it, removing ends it; the guest object shows its hint', async () => {
    const guest = await readyGuest(server.app);
    const readGuest = async () => (await succeed(server.app, '/guest/read', body(guest))).guest as { calendarFeedHint: string | null };
    expect((await readGuest()).calendarFeedHint).toBeNull();

    const first = await feedUrl(guest);
    const second = await feedUrl(guest);
    expect(second).not.toBe(first);
    const token = second.slice(`${APP_URL}/calendar/`.length, -'.ics'.length);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await readGuest()).calendarFeedHint).toBe(token.slice(-4));
    // Only a hash is kept.
    const [stored] = await server.app.db.select().from(guests).where(eq(guests.id, guest.id));
    expect(stored?.calendarFeedToken).not.toContain(token);

    expect((await readFeed(first)).statusCode).toBe(404);
    expect((await readFeed(second)).statusCode).toBe(200);
    await succeed(server.app, '/guest/removeCalendarFeed', body(guest));
    const removed = await readFeed(second);
    expect(removed).toMatchObject({ statusCode: 404, text: 'Not found' });
    expect((await readGuest()).calendarFeedHint).toBeNull();
  });

  it('answers 404 to no token, a wrong one and one of any length, and 429 to an address that keeps guessing', async () => {
    for (const path of ['/calendar/', '/calendar/x.ics', `/calendar/${'a'.repeat(43)}.ics`, `/calendar/${'a'.repeat(5000)}.ics`, '/calendar/abc']) {
      const response = await server.app.inject({ method: 'GET', url: path, remoteAddress: '10.9.0.1' });
      expect(response.statusCode, path).toBe(404);
    }
    let last = 0;
    for (let read = 0; read < CALENDAR_READS_PER_ADDRESS.limit; read += 1) {
      last = (await server.app.inject({ method: 'GET', url: '/calendar/guess.ics', remoteAddress: '10.9.0.2' })).statusCode;
    }
    expect(last).toBe(404);
    const refused = await server.app.inject({ method: 'GET', url: '/calendar/guess.ics', remoteAddress: '10.9.0.2' });
    expect(refused.statusCode).toBe(429);
  });

  it('refuses the feed calls without a valid session', async () => {
    const guest = await readyGuest(server.app);
    const message = await fail(server.app, '/guest/regenerateCalendarFeed', { api: apiBlock(), guest: { id: guest.id, token: 'wrong' } });
    expect(message).toBe(await fail(server.app, '/guest/removeCalendarFeed', { api: apiBlock(), guest: { id: guest.id, token: 'wrong' } }));
  });
});

import { eq } from 'drizzle-orm';
import ICAL from 'ical.js';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Pause } from '../../../shared/api/pause.ts';
import type { Reservation } from '../../../shared/api/reservation.ts';
import { MAX_PAUSES_AHEAD } from '../../../shared/constants.ts';
import type { Language } from '../../../shared/constants.ts';
import { guests, jails, lazyAlerts } from '../../db/schema/index.ts';
import { unzip } from '../../test/unzip.ts';
import { apiBlock, call, credentials, fail, moveClockTo, outbox, readyGuest, succeed, useTestServer, type TestGuest } from '../../test/harness.ts';

const APP_URL = 'https://warden.example';
const server = useTestServer({ publicUrl: APP_URL });
const HOUR = 3_600_000;

/** An instant `days` after Monday 7 January 2030 at `hour`:`minute` in Tokyo (the test guests' zone). */
function tokyo(days: number, hour: number, minute = 0): number {
  return Date.UTC(2030, 0, 7 + days, hour - 9, minute);
}

/** The Tokyo date `days` after Monday 7 January 2030, as the form sends it. */
function day(days: number): string {
  return new Date(Date.UTC(2030, 0, 7 + days)).toISOString().slice(0, 10);
}

beforeEach(async () => {
  await moveClockTo(server.app, tokyo(0, 9));
});

function body(guest: TestGuest, fields: object = {}, language: Language = 'en') {
  return { api: apiBlock(language), guest: credentials(guest), ...fields };
}

async function pause(guest: TestGuest, first: number, last: number): Promise<Pause> {
  return (await succeed(server.app, '/pause/create', body(guest, { pause: { firstDay: day(first), lastDay: day(last) } }))).pause as Pause;
}

async function pausesOf(guest: TestGuest): Promise<Pause[]> {
  return (await succeed(server.app, '/pause/read_list', body(guest))).pauses as Pause[];
}

async function weekly(guest: TestGuest, startTime = tokyo(1, 10)): Promise<Reservation> {
  const reservation = { work: 'Thesis', duration: 1, startTime, repeatType: 'weekly' };
  return (await succeed(server.app, '/reservation/create', body(guest, { reservation }))).reservation as Reservation;
}

async function list(guest: TestGuest): Promise<Reservation[]> {
  return (await succeed(server.app, '/reservation/read_list', body(guest))).reservations as Reservation[];
}

describe('POST /api/pause/create', () => {
  it('sets a pause over whole local days, and the list shows it', async () => {
    const guest = await readyGuest(server.app);
    const created = await pause(guest, 1, 3);
    expect(created).toEqual({ id: expect.any(Number), fromTime: tokyo(1, 0), toTime: tokyo(4, 0) });
    expect(await pausesOf(guest)).toEqual([created]);
  });

  it('keeps the six-hour rule, the order of the days, the longest pause and the farthest start, in either language', async () => {
    const guest = await readyGuest(server.app);
    const ask = (first: string, last: string, language: Language = 'en') =>
      fail(server.app, '/pause/create', body(guest, { pause: { firstDay: first, lastDay: last } }, language));
    // Today began nine hours ago; tomorrow's midnight is fifteen hours ahead.
    expect(await ask(day(0), day(2))).toBe('No change available within 6 hours.');
    await moveClockTo(server.app, tokyo(0, 18, 1));
    expect(await ask(day(1), day(2))).toBe('No change available within 6 hours.');
    expect(await ask(day(1), day(2), 'ja')).toBe('開始6時間前からは変更できません。');
    await moveClockTo(server.app, tokyo(0, 17, 59));
    expect(await ask(day(3), day(2))).toBe('The last day must be on or after the first day.');
    expect(await ask(day(1), day(91))).toBe('A pause can last at most 90 days.');
    expect(await ask(day(1), day(91), 'ja')).toBe('お休みできるのは最長90日です。');
    expect(await ask(day(400), day(401))).toBe('A pause must begin within 365 days.');
    expect(await ask('2030-02-30', day(3))).toBe('Choose a date.');
    expect(await pausesOf(guest)).toEqual([]);
    await pause(guest, 1, 90);
  });

  it('refuses a pause that overlaps another, and more than the limit ahead, even when the calls come at once', async () => {
    const guest = await readyGuest(server.app);
    await pause(guest, 10, 12);
    expect(await fail(server.app, '/pause/create', body(guest, { pause: { firstDay: day(12), lastDay: day(14) } }))).toBe('This pause overlaps another pause.');
    // The same days sent twice at once: one is set.
    const same = await Promise.all([0, 1].map(() => call(server.app, '/pause/create', body(guest, { pause: { firstDay: day(20), lastDay: day(21) } }))));
    expect(same.filter((answer) => answer.body.api.status === 'success')).toHaveLength(1);
    // Many different ones at once: the limit holds.
    const many = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        call(server.app, '/pause/create', body(guest, { pause: { firstDay: day(30 + 3 * index), lastDay: day(31 + 3 * index) } })),
      ),
    );
    expect(many.filter((answer) => answer.body.api.status === 'success')).toHaveLength(MAX_PAUSES_AHEAD - 2);
    expect(many.map((answer) => answer.body.api.errorMessage)).toContain(`You can have at most ${MAX_PAUSES_AHEAD} pauses ahead.`);
    expect(await pausesOf(guest)).toHaveLength(MAX_PAUSES_AHEAD);
  });
});

describe('a held occurrence', () => {
  it('starts no jail, is not ignored, is not reminded, and the repeats resume by themselves', async () => {
    const guest = await readyGuest(server.app);
    await succeed(server.app, '/guest/updateReminders', body(guest, { reminders: { leadMinutes: 60, byEmail: true } }));
    const booked = await weekly(guest);
    const held = await pause(guest, 1, 1);
    const [listed] = await list(guest);
    expect(listed).toMatchObject({ id: booked.id, status: 'upcoming', pausedUntil: held.toTime });

    await moveClockTo(server.app, tokyo(1, 9, 15));
    await moveClockTo(server.app, tokyo(1, 10, 30));
    await moveClockTo(server.app, tokyo(1, 11, 30));
    const reminders = (await outbox(server.app)).filter((mail) => mail.to === guest.email && mail.subject.includes('your jail at'));
    expect(reminders).toHaveLength(0);
    expect(await server.app.db.select().from(jails).where(eq(jails.guestId, guest.id))).toEqual([]);
    expect(await server.app.db.select().from(lazyAlerts).where(eq(lazyAlerts.guestId, guest.id))).toEqual([]);
    const after = await list(guest);
    expect(after.map(({ startTime, status, pausedUntil }) => ({ startTime, status, pausedUntil }))).toEqual([
      { startTime: tokyo(1, 10), status: 'paused', pausedUntil: null },
      { startTime: tokyo(8, 10), status: 'upcoming', pausedUntil: null },
    ]);
    // The week after, it runs and is reminded as ever.
    await moveClockTo(server.app, tokyo(8, 9, 15));
    await moveClockTo(server.app, tokyo(8, 10, 1));
    expect((await outbox(server.app)).filter((mail) => mail.to === guest.email && mail.subject.includes('your jail at'))).toHaveLength(1);
    expect(await server.app.db.select().from(jails).where(eq(jails.guestId, guest.id))).toHaveLength(1);
  });

  it('is never a one-off jail, and the pause ends where it says (its last day is held, the next day not)', async () => {
    const guest = await readyGuest(server.app);
    const oneOff = (
      await succeed(server.app, '/reservation/create', body(guest, { reservation: { duration: 1, startTime: tokyo(2, 10), repeatType: 'none' } }))
    ).reservation as Reservation;
    const daily = (await succeed(server.app, '/reservation/create', body(guest, { reservation: { duration: 1, startTime: tokyo(1, 0), repeatType: 'daily' } })))
      .reservation as Reservation;
    await pause(guest, 1, 2);
    // The day after the pause is not held: its jail starts without a read in between.
    const byStart = new Map((await list(guest)).map((reservation) => [reservation.startTime, reservation]));
    expect(byStart.get(oneOff.startTime)?.pausedUntil).toBeNull();
    expect(byStart.get(daily.startTime)?.pausedUntil).toBe(tokyo(3, 0));
    await moveClockTo(server.app, tokyo(2, 10, 30));
    await moveClockTo(server.app, tokyo(3, 0, 30));
    const rows = await list(guest);
    expect(rows.filter((row) => row.repeatType === 'daily').map(({ startTime, status }) => ({ startTime, status }))).toEqual([
      { startTime: tokyo(1, 0), status: 'paused' },
      { startTime: tokyo(2, 0), status: 'paused' },
      { startTime: tokyo(3, 0), status: 'ready' },
    ]);
    expect(await server.app.db.select({ id: jails.reservationId }).from(jails).where(eq(jails.guestId, guest.id))).toHaveLength(2);
  });
});

describe('POST /api/pause/end', () => {
  it('gives back the part more than six hours ahead, removes one not begun, and is refused when nothing is left to give', async () => {
    const guest = await readyGuest(server.app);
    const under = await pause(guest, 1, 5);
    const later = await pause(guest, 10, 12);
    await moveClockTo(server.app, tokyo(2, 12));
    const ended = (await succeed(server.app, '/pause/end', body(guest, { pause: { id: under.id } }))).pause as Pause;
    // Six hours from now (and the moments the test's clock ran on).
    expect(ended).toMatchObject({ id: under.id, fromTime: under.fromTime });
    expect(ended.toTime - tokyo(2, 18)).toBeGreaterThan(0);
    expect(ended.toTime - tokyo(2, 18)).toBeLessThan(60_000);
    expect(await fail(server.app, '/pause/end', body(guest, { pause: { id: under.id } }))).toBe('This pause ends within 6 hours; it can no longer be changed.');
    expect((await succeed(server.app, '/pause/end', body(guest, { pause: { id: later.id } }))).pause).toBeNull();
    expect(await pausesOf(guest)).toEqual([ended]);
  });

  it('reaches only the guest’s own pauses', async () => {
    const guest = await readyGuest(server.app);
    const other = await readyGuest(server.app);
    const mine = await pause(guest, 3, 4);
    expect(await fail(server.app, '/pause/end', body(other, { pause: { id: mine.id } }))).toBe('This pause was not found.');
    expect(await pausesOf(other)).toEqual([]);
    expect(await pausesOf(guest)).toEqual([mine]);
  });
});

describe('the calendar feed and the export', () => {
  it('the feed leaves out the held occurrences and shows the pause as one all-day event', async () => {
    const guest = await readyGuest(server.app);
    await weekly(guest);
    await pause(guest, 7, 15);
    const feed = (await succeed(server.app, '/guest/regenerateCalendarFeed', body(guest))).calendarFeed as { url: string };
    const text = (await server.app.inject({ method: 'GET', url: feed.url.slice(APP_URL.length) })).body;
    const calendar = new ICAL.Component(ICAL.parse(text));
    for (const zone of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(zone);
    const events = calendar.getAllSubcomponents('vevent').map((component) => new ICAL.Event(component));
    const series = events.find((event) => event.isRecurring());
    const starts: number[] = [];
    const iterator = series?.iterator();
    for (let next = iterator?.next(); next && next.toJSDate().getTime() < tokyo(29, 0); next = iterator?.next()) starts.push(next.toJSDate().getTime());
    expect(starts).toEqual([tokyo(1, 10), tokyo(22, 10)]);
    const paused = events.find((event) => event.summary === 'Warden: repeats paused');
    expect(paused?.startDate.toString()).toBe('2030-01-14');
    expect(paused?.endDate.toString()).toBe('2030-01-23');
    expect(paused?.startDate.isDate).toBe(true);
  });

  it('the export holds the guest’s pauses', async () => {
    const guest = await readyGuest(server.app);
    await pause(guest, 2, 3);
    const response = await server.app.inject({ method: 'POST', url: '/api/guest/export', payload: body(guest) });
    const data = JSON.parse((await unzip(response.rawPayload)).get('warden.json')?.toString() ?? '{}') as { pauses: unknown[] };
    expect(data.pauses).toEqual([{ from: new Date(tokyo(2, 0)).toISOString(), resumes: new Date(tokyo(4, 0)).toISOString(), createdAt: expect.any(String) }]);
  });
});

it('a pause begun six hours ahead cannot hold a jail about to start', async () => {
  const guest = await readyGuest(server.app);
  await weekly(guest, tokyo(1, 10));
  await moveClockTo(server.app, tokyo(1, 10) - 6 * HOUR);
  // The first day began long ago: refused, and the jail still starts.
  expect(await fail(server.app, '/pause/create', body(guest, { pause: { firstDay: day(1), lastDay: day(1) } }))).toBe('No change available within 6 hours.');
  await moveClockTo(server.app, tokyo(1, 10, 1));
  expect(await server.app.db.select().from(jails).where(eq(jails.guestId, guest.id))).toHaveLength(1);
});

it('a pause during a suspension changes nothing of it', async () => {
  const guest = await readyGuest(server.app);
  const suspendedUntil = tokyo(5, 9);
  await server.app.db.update(guests).set({ suspendedUntil }).where(eq(guests.id, guest.id));
  await server.app.invalidateReadCache(guest.id);
  const set = await pause(guest, 2, 8);
  await succeed(server.app, '/pause/end', body(guest, { pause: { id: set.id } }));
  const [row] = await server.app.db.select({ suspendedUntil: guests.suspendedUntil }).from(guests).where(eq(guests.id, guest.id));
  expect(row?.suspendedUntil).toBe(suspendedUntil);
  expect(await fail(server.app, '/reservation/create', body(guest, { reservation: { duration: 1, startTime: tokyo(1, 10), repeatType: 'weekly' } }))).toMatch(
    /suspended/,
  );
});

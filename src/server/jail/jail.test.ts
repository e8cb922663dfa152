import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Guest } from '../../shared/api/guest.ts';
import type { Reservation } from '../../shared/api/reservation.ts';
import { jailAlerts, jails } from '../db/schema/index.ts';
import type { GuestJail, LiveJail, RelayAck } from '../../shared/relay.ts';
import { startWardenSession } from '../services/wardens.ts';
import { liveJails } from './live-view.ts';
import { apiBlock, bookJail, credentials, fail, lastMessageTo, readyGuest, succeed, useListeningTestServer, type TestGuest } from '../test/harness.ts';
import { eventId, RelayClient } from '../test/relay-client.ts';
import { runAdmin } from '../admin.ts';

/**
 * Whole jails through real socket.io clients against a listening server,
 * time moved with `POST /dev/clock` (which runs the scheduler before it
 * answers): start, events, dialog, patrol, leave and return, break,
 * overruns, early finish, finish and the report; ignored jails turning into
 * a suspension; a forced end; the wardens' side; bad events.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const server = useListeningTestServer();
const clients: RelayClient[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  await moveClockTo(Date.now());
});

function fixture(name: string): string {
  return `data:image/jpeg;base64,${readFileSync(new URL(`./fixtures/${name}`, import.meta.url)).toString('base64')}`;
}

/** Moves the server's clock to `time`; the scheduler has run at that time when this resolves. */
async function moveClockTo(time: number): Promise<void> {
  const response = await server.app.inject({ method: 'POST', url: '/dev/clock', payload: { offsetMs: time - Date.now() } });
  expect(response.statusCode).toBe(200);
}

/** Books a one-off jail `hoursAhead` hours after `from` (the server's now), `duration` hours long. */
function book(guest: TestGuest, hoursAhead: number, duration = 1, from?: number, work?: string): Promise<Reservation> {
  return bookJail(server.app, guest, hoursAhead, duration, from, work);
}

async function read(guest: TestGuest, id: number): Promise<Reservation> {
  const answer = await succeed(server.app, '/reservation/read', { api: apiBlock(), guest: credentials(guest), reservation: { id } });
  return answer.reservation as Reservation;
}

async function connectGuest(guest: TestGuest): Promise<RelayClient> {
  const client = await RelayClient.connect(server.url, { guest: credentials(guest) });
  clients.push(client);
  return client;
}

/** A ready guest in a jail booked `hoursAhead` hours ahead, a minute after its start, with a device connected and in it. */
async function inJail(hoursAhead: number): Promise<{ guest: TestGuest; reservation: Reservation; device: RelayClient }> {
  const guest = await readyGuest(server.app);
  const reservation = await book(guest, hoursAhead);
  await moveClockTo(reservation.startTime + MINUTE);
  const device = await connectGuest(guest);
  await device.send('check_alive_from_guest', from(guest, { jailStatus: 'injail' }));
  return { guest, reservation, device };
}

/** A console signed in (its session last used at `usedAt`: a test that moves the clock past the idle time after connecting starts it there). */
async function connectWarden(language?: 'ja' | 'en', usedAt = server.clock.now()): Promise<{ client: RelayClient; wardenId: number }> {
  const suffix = Math.random().toString(36).slice(2, 10);
  const [created] = await runAdmin(
    ['create-warden', '--title', `Warden ${suffix}`, '--email', `warden-${suffix}@example.com`],
    server.app.db,
    server.clock,
    server.app.config,
  );
  const wardenId = Number(/^warden (\d+)/.exec(created ?? '')?.[1]);
  const token = await startWardenSession(server.app.db, wardenId, usedAt);
  const client = await RelayClient.connect(server.url, { warden: { token, language } });
  clients.push(client);
  return { client, wardenId };
}

/** The body every guest event carries (docs/jail.md, Relay). */
function from(guest: TestGuest, fields: Record<string, unknown> = {}) {
  return { api: apiBlock(), guest: { id: guest.id }, ...fields };
}

type DialogEvent = { dialog: { type: 1; text: string; by: 'virtual' | 'human' } };

describe('a whole jail', () => {
  it('starts, takes events once each, answers, patrols, leaves and breaks, finishes at its end, and leaves its report', async () => {
    const guest = await readyGuest(server.app);
    const reservation = await book(guest, 2);
    await moveClockTo(reservation.startTime - 5 * MINUTE);

    // In the preparation: connected, no jail yet.
    const device = await connectGuest(guest);
    const initialized = await device.send<RelayAck & { jail: GuestJail | null }>('initialize_from_guest', {
      api: { language: 'en', userAgent: 'test', version: 70 },
      guest: { id: guest.id },
    });
    expect(initialized).toEqual({ ok: true, jail: null });
    expect(device.all('feature_images_to_guest')).toEqual([{ featureImages: [] }]);
    expect(await device.send('motion_event_from_guest', from(guest, { eventId: eventId(), motion: { type: 1 } }))).toEqual({
      ok: false,
      error: 'No jail of yours is running now.',
    });

    // The start: the jail and the greeting reach the device.
    const started = device.next<{ jail: GuestJail }>('jail_start_to_guest');
    const greeting = device.next<DialogEvent>('warden_dialog_event_to_guest');
    await moveClockTo(reservation.startTime + 1_000);
    expect((await started).jail).toMatchObject({ reservationId: reservation.id, work: 'Write the chapter', jailStatus: 'injail', commands: [1, 2, 3, 4] });
    expect((await greeting).dialog.text).toContain('Write the chapter');
    expect(await device.send('check_alive_from_guest', from(guest, { jailStatus: 'injail' }))).toEqual({ ok: true });

    // An event is stored once, whatever the retries.
    const motion = from(guest, { eventId: eventId(), motion: { type: 1 } });
    expect(await device.send('motion_event_from_guest', motion)).toEqual({ ok: true });
    expect(await device.send('motion_event_from_guest', motion)).toEqual({ ok: true, duplicate: true });

    // The Warden answers what the guest says.
    const answer = device.next<DialogEvent>('warden_dialog_event_to_guest');
    expect(await device.send('guest_dialog_event_from_guest', from(guest, { eventId: eventId(), dialog: { text: 'How much time is left?' } }))).toEqual({
      ok: true,
    });
    expect((await answer).dialog.text).toMatch(/\b59 minutes\b/);

    // Patrols: a small JPEG is kept; anything else is refused.
    expect(await device.send('patrol_from_guest', from(guest, { eventId: eventId(), patrol: { data: fixture('canvas-100x75.jpg') } }))).toEqual({ ok: true });
    expect(await device.send('patrol_from_guest', from(guest, { eventId: eventId(), patrol: { data: fixture('canvas-640x480.jpg') } }))).toEqual({
      ok: false,
      error: 'A patrol image must be at most 100 pixels on its long side and 24 KB.',
    });
    const png = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
    expect(await device.send('patrol_from_guest', from(guest, { eventId: eventId(), patrol: { data: png } }))).toMatchObject({ ok: false });

    // Leaving the seat: the status changes, the Warden answers; after 5 minutes a reminder (an alert).
    const leftAt = reservation.startTime + 10 * MINUTE;
    await moveClockTo(leftAt);
    const leaving = device.next<{ guest: { jailStatus: string } }>('jail_update_to_guest');
    expect(await device.send('jail_status_from_guest', from(guest, { eventId: eventId(), jailStatus: 'leaving' }))).toEqual({ ok: true });
    expect((await leaving).guest.jailStatus).toBe('leaving');
    // The guest's status that /guest/read answers is the live jail's.
    const away = (await succeed(server.app, '/guest/read', { api: apiBlock(), guest: credentials(guest) })).guest as Guest;
    expect(away.jailStatus).toBe('leaving');
    expect(away.jailStatusUpdated).toBeGreaterThanOrEqual(leftAt);
    expect(away.jailStatusUpdated).toBeLessThan(leftAt + MINUTE);
    const reminder = device.next<DialogEvent>('warden_dialog_event_to_guest');
    await moveClockTo(leftAt + 6 * MINUTE);
    expect((await reminder).dialog.text).not.toBe('');
    const back = device.next<{ guest: { jailStatus: string } }>('jail_update_to_guest');
    expect(await device.send('jail_status_from_guest', from(guest, { eventId: eventId(), jailStatus: 'injail' }))).toEqual({ ok: true });
    expect((await back).guest.jailStatus).toBe('injail');
    // The leave's length, from the status change away to the one back, is kept on the jail's row for its focused time.
    const returned = (await succeed(server.app, '/guest/read', { api: apiBlock(), guest: credentials(guest) })).guest as Guest;
    const [held] = await server.app.db.select({ awayMs: jails.awayMs }).from(jails).where(eq(jails.reservationId, reservation.id));
    expect(held?.awayMs).toBe((returned.jailStatusUpdated ?? 0) - (away.jailStatusUpdated ?? 0));
    expect(held?.awayMs).toBeGreaterThan(5 * MINUTE);
    expect(held?.awayMs).toBeLessThan(7 * MINUTE);

    // A break and its end, which reopens the camera.
    expect(await device.send('jail_status_from_guest', from(guest, { eventId: eventId(), jailStatus: 'breaking' }))).toEqual({ ok: true });
    const reconnect = device.next('video_reconnect_to_guest');
    expect(await device.send('jail_status_from_guest', from(guest, { eventId: eventId(), jailStatus: 'injail' }))).toEqual({ ok: true });
    await reconnect;

    // While the jail runs the report is pending; the list is read afresh; the figures wait for the finish.
    const running = await read(guest, reservation.id);
    expect([running.logsPending, running.jail]).toEqual([true, null]);

    // The end: the finish reaches the device, the reservation is finished, the report is in time order.
    const finished = device.next<{ reservationId: number; finish: string }>('jail_finish_to_guest');
    await moveClockTo(reservation.endTime + 1_000);
    expect(await finished).toEqual({ reservationId: reservation.id, finish: 'ended' });
    const afterwards = (await succeed(server.app, '/guest/read', { api: apiBlock(), guest: credentials(guest) })).guest as Guest;
    expect([afterwards.jailStatus, afterwards.jailStatusUpdated]).toEqual([null, null]);
    const report = await read(guest, reservation.id);
    expect(report.status).toBe('finished');
    expect(report.logsPending).toBe(true);
    const types = report.activityLogs.map((log) => log.type);
    expect(types.filter((type) => type === 'motion')).toHaveLength(1);
    expect(types.filter((type) => type === 'patrol')).toHaveLength(1);
    expect(report.activityLogs.filter((log) => log.type === 'dialog' && log.dialog.type === 0).map((log) => log.type === 'dialog' && log.dialog.text)).toEqual([
      'How much time is left?',
    ]);
    const times = report.activityLogs.map((log) => log.time);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    // Each status change is a log of its own, for the report's timeline of the seat.
    expect(report.activityLogs.flatMap((log) => (log.type === 'status' ? [log.status.jailStatus] : []))).toEqual(['leaving', 'injail', 'breaking', 'injail']);
    // The answers to the status changes and the finish are logged, and not sent: the device says them itself (docs/jail.md, What the Warden says).
    const saidOnDevice = [
      'All right. Please be back within 5 minutes.',
      'Welcome back. Let us carry on.',
      'Enjoy your 20 minute break. Rest well and come back on time.',
      'Break over. Back to work.',
      'Time is up. Well done on Write the chapter. This jail is over.',
    ];
    const logged = report.activityLogs.flatMap((log) => (log.type === 'dialog' && log.dialog.type === 1 ? [log.dialog.text] : []));
    expect(logged.filter((text) => saidOnDevice.includes(text))).toEqual(saidOnDevice);
    expect(device.all<DialogEvent>('warden_dialog_event_to_guest').filter((event) => saidOnDevice.includes(event.dialog.text))).toEqual([]);
    // The figures come from the jail's row: planned, held from entering to the end, and focused = held less the break and the leave.
    const [row] = await server.app.db.select().from(jails).where(eq(jails.reservationId, reservation.id));
    const enteredAt = row?.enteredAt ?? 0;
    expect(report.jail).toEqual({
      plannedMs: HOUR,
      heldMs: reservation.endTime - enteredAt,
      focusedMs: reservation.endTime - enteredAt - (row?.breakMs ?? 0) - (held?.awayMs ?? 0),
      breakMs: row?.breakMs,
      awayMs: held?.awayMs,
      // The leave of more than 5 minutes raised one alert; the plain motion event none.
      alerts: 1,
      patrols: 1,
      enteredAt,
      finishedAt: row?.finishedAt,
      finish: 'ended',
    });
    expect(enteredAt).toBeGreaterThanOrEqual(reservation.startTime);
    expect(enteredAt).toBeLessThan(reservation.startTime + MINUTE);
    await moveClockTo(reservation.endTime + 3 * MINUTE);
    expect((await read(guest, reservation.id)).logsPending).toBe(false);
  });

  it("logs the answer to a status change in the device's language, the one it was said in", async () => {
    const { guest, reservation, device } = await inJail(3);
    // An English account on a device set to Japanese.
    const leaving = { api: apiBlock('ja'), guest: { id: guest.id }, eventId: eventId(), jailStatus: 'leaving' };
    expect(await device.send('jail_status_from_guest', leaving)).toEqual({ ok: true });
    const logged = (await read(guest, reservation.id)).activityLogs.flatMap((log) => (log.type === 'dialog' ? [log.dialog.text] : []));
    expect(logged).toContain('わかりました。5分以内に戻ってきてください。');
    expect(logged).not.toContain('All right. Please be back within 5 minutes.');
    device.close();
  });

  it('finishes early with a reason: an instruction log, and no booking until the original end', async () => {
    const { guest, reservation, device } = await inJail(2);
    expect(
      await device.send('jail_finish_early_from_guest', from(guest, { eventId: eventId(), reservation: { id: reservation.id }, instruction: { text: '  ' } })),
    ).toEqual({
      ok: false,
      error: 'The event is invalid: instruction.text.',
    });
    const finished = device.next<{ finish: string }>('jail_finish_to_guest');
    const early = from(guest, { eventId: eventId(), reservation: { id: reservation.id }, instruction: { text: 'My child is ill' } });
    expect(await device.send('jail_finish_early_from_guest', early)).toEqual({ ok: true });
    expect((await finished).finish).toBe('early');
    expect(await device.send('jail_finish_early_from_guest', early)).toEqual({ ok: false, error: 'No jail of yours is running now.' });
    const report = await read(guest, reservation.id);
    expect(report.status).toBe('finished');
    expect(report.activityLogs).toContainEqual(expect.objectContaining({ type: 'instruction', instruction: { text: 'My child is ill' } }));
    const refused = await fail(server.app, '/reservation/create', {
      api: apiBlock(),
      guest: credentials(guest),
      reservation: { work: 'Again', duration: 1, startTime: reservation.endTime + DAY, repeatType: 'none' },
    });
    expect(refused).toMatch(/^You ended a jail session early/);
  });
  it('gives a late device the start, and a device coming back mid-jail the resume with its status', async () => {
    const guest = await readyGuest(server.app);
    const reservation = await book(guest, 2);
    await moveClockTo(reservation.startTime + 2 * MINUTE);
    const initialize = from(guest, { api: { language: 'en', userAgent: 'test', version: 70 } });
    const late = await connectGuest(guest);
    const started = late.next<{ jail: GuestJail }>('jail_start_to_guest');
    const greeting = late.next<DialogEvent>('warden_dialog_event_to_guest');
    expect(await late.send<RelayAck & { jail: GuestJail }>('initialize_from_guest', initialize)).toMatchObject({
      ok: true,
      jail: { reservationId: reservation.id },
    });
    expect((await started).jail.reservationId).toBe(reservation.id);
    expect((await greeting).dialog.text).toContain('Write the chapter');
    await late.send('jail_status_from_guest', from(guest, { eventId: eventId(), jailStatus: 'breaking' }));
    late.close();

    const again = await connectGuest(guest);
    const resumed = again.next<{ guest: { jailStatus: string }; jail: GuestJail }>('jail_resume_to_guest');
    await again.send('initialize_from_guest', initialize);
    expect(await resumed).toMatchObject({ guest: { jailStatus: 'breaking' }, jail: { reservationId: reservation.id, jailStatus: 'breaking' } });
    expect(again.all('jail_start_to_guest')).toEqual([]);
  });

  it('purges patrol images 7 days after the jail ends and keeps the rest of the report', async () => {
    const guest = await readyGuest(server.app);
    const reservation = await book(guest, 2);
    await moveClockTo(reservation.startTime + MINUTE);
    const device = await connectGuest(guest);
    expect(await device.send('patrol_from_guest', from(guest, { eventId: eventId(), patrol: { data: fixture('canvas-75x100.jpg') } }))).toEqual({ ok: true });
    await device.send('motion_event_from_guest', from(guest, { eventId: eventId(), motion: { type: 1 } }));
    await moveClockTo(reservation.endTime + MINUTE);
    const kinds = async () => (await read(guest, reservation.id)).activityLogs.map((log) => log.type);
    expect(await kinds()).toContain('patrol');
    await moveClockTo(reservation.endTime + 6 * DAY);
    expect(await kinds()).toContain('patrol');
    await moveClockTo(reservation.endTime + 7 * DAY + 5 * MINUTE);
    expect(await kinds()).not.toContain('patrol');
    expect(await kinds()).toContain('motion');
  });

  it('refuses the 31st patrol image of a jail', async () => {
    const guest = await readyGuest(server.app);
    const reservation = await book(guest, 2);
    await moveClockTo(reservation.startTime + MINUTE);
    const device = await connectGuest(guest);
    const image = fixture('canvas-40x30.jpg');
    for (let index = 0; index < 30; index += 1) {
      expect(await device.send('patrol_from_guest', from(guest, { eventId: eventId(), patrol: { data: image } }))).toEqual({ ok: true });
    }
    expect(await device.send('patrol_from_guest', from(guest, { eventId: eventId(), patrol: { data: image } }))).toEqual({
      ok: false,
      error: 'This jail already has its 30 patrol images.',
    });
    expect((await read(guest, reservation.id)).activityLogs.filter((log) => log.type === 'patrol')).toHaveLength(30);
  });
});

describe('events at once', () => {
  it('stores a burst from two guests once each, a resend in the same burst as a retry, each in its own jail', async () => {
    const [first, second] = [await readyGuest(server.app), await readyGuest(server.app)];
    const base = server.clock.now();
    const [firstJail, secondJail] = [await book(first, 2, 1, base), await book(second, 2, 1, base)];
    await moveClockTo((firstJail?.startTime ?? 0) + MINUTE);
    const [firstDevice, secondDevice] = [await connectGuest(first), await connectGuest(second)];
    const repeated = from(first, { eventId: eventId(), motion: { type: 1 } });
    const sends = [
      ...Array.from({ length: 20 }, () => firstDevice.send('motion_event_from_guest', from(first, { eventId: eventId(), motion: { type: 1 } }))),
      ...Array.from({ length: 20 }, () => secondDevice.send('motion_event_from_guest', from(second, { eventId: eventId(), motion: { type: 0 } }))),
      firstDevice.send('motion_event_from_guest', repeated),
      firstDevice.send('motion_event_from_guest', repeated),
    ];
    const acks = await Promise.all(sends);
    expect(acks.slice(0, 40)).toEqual(Array.from({ length: 40 }, () => ({ ok: true })));
    expect(acks.slice(40)).toEqual([{ ok: true }, { ok: true, duplicate: true }]);
    const motions = async (guest: TestGuest, id: number) => (await read(guest, id)).activityLogs.filter((log) => log.type === 'motion');
    expect(await motions(first, firstJail.id)).toHaveLength(21);
    expect((await motions(second, secondJail.id)).map((log) => log.type === 'motion' && log.motion.type)).toEqual(Array.from({ length: 20 }, () => 0));
  });
});

describe('alerts and sanctions', () => {
  it('ignored jails add lazy alerts with a mail each; the third within a week suspends booking', async () => {
    const guest = await readyGuest(server.app);
    const base = server.clock.now();
    // The last is booked without a work: its mail names it by its start alone.
    const jails = [await book(guest, 2, 1, base), await book(guest, 26, 1, base), await book(guest, 50, 1, base, '')];
    for (const [index, jail] of jails.entries()) {
      // The scheduler starts each jail; the guest never comes.
      await moveClockTo(jail.startTime + MINUTE);
      await moveClockTo(jail.endTime + MINUTE);
      const answer = await succeed(server.app, '/guest/read', { api: apiBlock(), guest: credentials(guest) });
      expect((answer.guest as { lazyAlerts: unknown[] }).lazyAlerts).toHaveLength(index + 1);
      const mail = await lastMessageTo(server.app, guest.email);
      expect(mail.subject).toBe('Warden: you missed your jail');
      expect(mail.text).toContain(`ignored jail number ${index + 1} within a week`);
      expect(mail.text).toMatch(index < 2 ? /^Your jail "Write the chapter" from .+ ended without you\./ : /^Your jail from .+ ended without you\./);
    }
    const answer = await succeed(server.app, '/guest/read', { api: apiBlock(), guest: credentials(guest) });
    const { lazyAlerts, suspendedUntil } = answer.guest as { lazyAlerts: { created: number }[]; suspendedUntil: number };
    expect(suspendedUntil).toBe((lazyAlerts[0]?.created ?? 0) + 7 * DAY);
    // The report of an ignored jail: the Warden's greeting to nobody, the mail, and nothing from the guest.
    const report = (await read(guest, jails[0]?.id ?? 0)).activityLogs;
    expect(report.map((log) => log.type)).toContain('mail');
    expect(report.filter((log) => log.type !== 'mail' && !(log.type === 'dialog' && log.dialog.type === 1))).toEqual([]);
    const refused = await fail(server.app, '/reservation/create', {
      api: apiBlock(),
      guest: credentials(guest),
      reservation: { work: 'Again', duration: 1, startTime: (jails[2]?.endTime ?? 0) + DAY, repeatType: 'none' },
    });
    expect(refused).toMatch(/^Your account is temporarily suspended because of three ignored jail within a week\. Back to available at /);
  });

  it('the fourth alert within 20 minutes forces the end; three forced ends in a week suspend the account', async () => {
    const guest = await readyGuest(server.app);
    const base = server.clock.now();
    // The last is booked without a work: its mail names it by its start alone.
    const jails = [await book(guest, 2, 1, base), await book(guest, 26, 1, base), await book(guest, 50, 1, base, '')];
    for (const jail of jails) {
      await moveClockTo(jail.startTime + MINUTE);
      const device = await connectGuest(guest);
      await device.send('check_alive_from_guest', from(guest, { jailStatus: 'injail' }));
      const warned = device.next<DialogEvent>('warden_dialog_event_to_guest', (event) => /one more/i.test(event.dialog.text));
      for (const event of ['no_motion_event_from_guest', 'nodding_motion_event_from_guest', 'darkness_event_from_guest']) {
        expect(await device.send(event, from(guest, { eventId: eventId(), motion: { type: 0 } }))).toEqual({ ok: true });
      }
      await warned;
      const forced = device.next<{ finish: string }>('jail_finish_to_guest');
      expect(await device.send('no_motion_event_from_guest', from(guest, { eventId: eventId(), motion: { type: 0 } }))).toEqual({ ok: true });
      expect((await forced).finish).toBe('forced');
      device.close();
    }
    const answer = await succeed(server.app, '/guest/read', { api: apiBlock(), guest: credentials(guest) });
    // Until 7 days after the first forced end (a minute into the first jail, give or take the test's run time).
    const firstForcedEnd = (jails[0]?.startTime ?? 0) + MINUTE;
    const { suspendedUntil } = answer.guest as { suspendedUntil: number };
    expect(suspendedUntil - (firstForcedEnd + 7 * DAY)).toBeGreaterThanOrEqual(0);
    expect(suspendedUntil - (firstForcedEnd + 7 * DAY)).toBeLessThan(MINUTE);
  });
});

describe('away and back', () => {
  it('away is an alert with its own line; back is greeted and raises none; aways count toward the forced end', async () => {
    const guest = await readyGuest(server.app);
    const reservation = await book(guest, 2);
    await moveClockTo(reservation.startTime + MINUTE);
    const device = await connectGuest(guest);
    const card = async () => (await liveJails(server.app.db, server.clock.now(), [reservation.id]))[0];
    await device.send('check_alive_from_guest', from(guest, { jailStatus: 'injail' }));
    const scolded = device.next<DialogEvent>('warden_dialog_event_to_guest');
    expect(await device.send('away_event_from_guest', from(guest, { eventId: eventId(), motion: { type: 0 } }))).toEqual({ ok: true });
    expect((await scolded).dialog.text).toBe('Your seat is empty. Come back and get back to work.');
    // The consoles' card shows the seat empty since the away, with its alert.
    expect((await card())?.alerts.map((alert) => alert.kind)).toEqual(['away']);
    expect((await card())?.awaySince).toBeGreaterThanOrEqual(reservation.startTime);
    const greeted = device.next<DialogEvent>('warden_dialog_event_to_guest');
    expect(await device.send('back_event_from_guest', from(guest, { eventId: eventId(), motion: { type: 1 } }))).toEqual({ ok: true });
    expect((await greeted).dialog.text).toBe("Welcome back. Let's pick up where you left off.");
    expect((await card())?.awaySince).toBeNull();
    const alertKinds = async () =>
      (await server.app.db.select().from(jailAlerts).where(eq(jailAlerts.reservationId, reservation.id))).map((alert) => alert.kind);
    expect(await alertKinds()).toEqual(['away']);

    // Three more aways within the 20 minutes: the fourth alert ends the jail, as any alert does.
    const forced = device.next<{ finish: string }>('jail_finish_to_guest');
    for (let away = 0; away < 3; away += 1) {
      expect(await device.send('away_event_from_guest', from(guest, { eventId: eventId(), motion: { type: 0 } }))).toEqual({ ok: true });
    }
    expect((await forced).finish).toBe('forced');
    expect(await alertKinds()).toEqual(['away', 'away', 'away', 'away']);
    const report = await read(guest, reservation.id);
    expect(report.activityLogs.flatMap((log) => (log.type === 'motion' ? [[log.motion.kind, log.motion.type]] : []))).toEqual([
      ['away', 0],
      ['back', 1],
      ['away', 0],
      ['away', 0],
      ['away', 0],
    ]);
  });

  it('a back after the jail is over is stored without a word from the Warden', async () => {
    const { guest, reservation, device } = await inJail(2);
    const finished = device.next('jail_finish_to_guest');
    await moveClockTo(reservation.endTime + MINUTE);
    // The closing line comes before the finish; nothing is said after it.
    await finished;
    const spoken = device.all<DialogEvent>('warden_dialog_event_to_guest').length;
    // Within the report's 2 minutes of settling, a late event still joins it.
    expect(await device.send('back_event_from_guest', from(guest, { eventId: eventId(), motion: { type: 1 } }))).toEqual({ ok: true });
    const report = await read(guest, reservation.id);
    expect(report.activityLogs.some((log) => log.type === 'motion' && log.motion.kind === 'back')).toBe(true);
    expect(device.all<DialogEvent>('warden_dialog_event_to_guest')).toHaveLength(spoken);
  });
});

describe('the human wardens', () => {
  it('see the live jail, talk, call up, set commands, approve a scene, signal WebRTC and finish it', async () => {
    const guest = await readyGuest(server.app);
    const reservation = await book(guest, 2);
    const { client: console_, wardenId } = await connectWarden('en', reservation.startTime + MINUTE);
    const listed = console_.next<{ jails: LiveJail[] }>('live_jails_to_warden', ({ jails }) => jails.some((jail) => jail.reservationId === reservation.id));
    await moveClockTo(reservation.startTime + MINUTE);
    expect((await listed).jails.find((jail) => jail.reservationId === reservation.id)).toMatchObject({
      guest: { id: guest.id, title: guest.title },
      work: 'Write the chapter',
      jailStatus: 'injail',
      connected: false,
      enteredAt: null,
    });
    const device = await connectGuest(guest);
    await device.send('check_alive_from_guest', from(guest, { jailStatus: 'injail' }));
    await device.send('patrol_from_guest', from(guest, { eventId: eventId(), patrol: { data: fixture('canvas-40x30.jpg') } }));

    const opened = await console_.send<RelayAck & { jail: LiveJail; logs: { id: number; type: string }[] }>('open_jail_from_warden', {
      reservationId: reservation.id,
    });
    expect(opened.ok).toBe(true);
    expect(opened.jail.connected).toBe(true);
    const patrolLog = opened.logs.find((log) => log.type === 'patrol');
    expect(patrolLog).toBeDefined();

    // A dialog from the warden reaches the guest, and the console sees it as a new log.
    const spoken = device.next<DialogEvent>('warden_dialog_event_to_guest', (event) => event.dialog.by === 'human');
    const logged = console_.next<{ log: { type: string } }>('jail_log_to_warden', (event) => event.log.type === 'dialog');
    expect(await console_.send('dialog_from_warden', { reservationId: reservation.id, eventId: eventId(), text: 'Back to the chapter, please.' })).toEqual({
      ok: true,
    });
    expect((await spoken).dialog.text).toBe('Back to the chapter, please.');
    // The log says a human warden spoke (the report and the export label it so), never which one.
    expect((await logged).log).toMatchObject({ type: 'dialog', dialog: { type: 1, text: 'Back to the chapter, please.', by: 'human' } });

    // A callup: the screen is called to attention and an SMS goes to the phone.
    const focus = device.next<{ text: string }>('focus_to_guest');
    expect(await console_.send('callup_from_warden', { reservationId: reservation.id, eventId: eventId() })).toEqual({ ok: true });
    expect((await focus).text).toBe('Please come back to your work now.');

    const commands = device.next<{ commands: number[] }>('update_commands_to_guest');
    expect(await console_.send('update_commands_from_warden', { reservationId: reservation.id, commands: [1, 3] })).toEqual({ ok: true });
    expect((await commands).commands).toEqual([1, 3]);

    const whitelist = device.next<{ featureImages: { id: number; data: string }[] }>('feature_images_to_guest');
    expect(await console_.send('feature_image_from_warden', { reservationId: reservation.id, patrolLogId: patrolLog?.id })).toEqual({ ok: true });
    expect((await whitelist).featureImages).toEqual([{ id: expect.any(Number), data: fixture('canvas-40x30.jpg') }]);

    const offer = device.next<{ from: string; type: string }>('webrtc_handshake');
    expect(await console_.send('webrtc_handshake', { to: `guest:${guest.id}`, type: 'offer', description: { type: 'offer', sdp: 'v=0' } })).toEqual({
      ok: true,
    });
    expect(await offer).toMatchObject({ from: `warden:${wardenId}`, type: 'offer' });
    const answer = console_.next<{ from: string; type: string }>('webrtc_handshake');
    expect(await device.send('webrtc_handshake', { to: `warden:${wardenId}`, type: 'answer', description: { type: 'answer', sdp: 'v=0' } })).toEqual({
      ok: true,
    });
    expect(await answer).toMatchObject({ from: `guest:${guest.id}`, type: 'answer' });

    // A guest has no warden events: nothing answers them.
    await expect(device.send('dialog_from_warden', { reservationId: reservation.id, eventId: eventId(), text: 'x' }, 500)).rejects.toThrow();

    const finished = device.next<{ finish: string }>('jail_finish_to_guest');
    expect(await console_.send('finish_jail_from_warden', { reservationId: reservation.id, eventId: eventId(), reason: 'Asleep at the desk' })).toEqual({
      ok: true,
    });
    expect((await finished).finish).toBe('warden');
    expect(await console_.send('open_jail_from_warden', { reservationId: reservation.id })).toEqual({ ok: false, error: 'This jail is not running.' });
  });
});

describe("the wardens' refusals", () => {
  it('come in the language of the handshake, and the live list carries the server time', async () => {
    const { client } = await connectWarden('ja');
    expect(await client.send('open_jail_from_warden', { reservationId: 999_999 })).toEqual({ ok: false, error: 'このジェイルは実行中ではありません。' });
    expect(await client.send('dialog_from_warden', { reservationId: 1 })).toEqual({ ok: false, error: 'イベントの内容が正しくありません: eventId, text。' });
    const listed = await client.first<{ serverTime: number }>('live_jails_to_warden');
    expect(Math.abs(listed.serverTime - server.clock.now())).toBeLessThan(5_000);
  });
});

describe('bad input', () => {
  it('refuses a bad handshake: another origin, a wrong token, no auth', async () => {
    const guest = await readyGuest(server.app);
    await expect(RelayClient.connect(server.url, { guest: credentials(guest) }, 'https://evil.example')).rejects.toThrow();
    await expect(RelayClient.connect(server.url, { guest: { id: guest.id, token: 'wrong' } })).rejects.toThrow('Please sign in again to connect.');
    await expect(RelayClient.connect(server.url, { warden: { token: guest.token } })).rejects.toThrow('Please sign in again to connect.');
    await expect(RelayClient.connect(server.url, {})).rejects.toThrow('Please sign in again to connect.');
  });

  it('answers every malformed event with an error ack and stores nothing', async () => {
    const guest = await readyGuest(server.app);
    const other = await readyGuest(server.app);
    const reservation = await book(guest, 2);
    await moveClockTo(reservation.startTime + MINUTE);
    const device = await connectGuest(guest);
    const bad: [string, unknown, string][] = [
      ['motion_event_from_guest', from(guest, { motion: { type: 1 } }), 'The event is invalid: eventId.'],
      ['motion_event_from_guest', from(guest, { eventId: 'x', motion: { type: 7 } }), 'The event is invalid: eventId, motion.type.'],
      ['motion_event_from_guest', from(other, { eventId: eventId(), motion: { type: 1 } }), 'This event names another guest.'],
      ['guest_dialog_event_from_guest', from(guest, { eventId: eventId(), dialog: { text: 'x'.repeat(501) } }), 'The event is invalid: dialog.text.'],
      ['jail_status_from_guest', from(guest, { eventId: eventId(), jailStatus: 'sleeping' }), 'The event is invalid: jailStatus.'],
      ['update_commands_from_guest', from(guest, { commands: [1, 1] }), 'The event is invalid: commands.'],
      ['patrol_from_guest', from(guest, { eventId: eventId(), patrol: { data: 'data:image/jpeg;base64,AAAA' } }), 'A patrol image must be a JPEG image.'],
      ['webrtc_handshake', { to: 'warden:abc', type: 'offer' }, 'The event is invalid: to.'],
      ['check_alive_from_guest', 'not an object', 'The event is invalid: payload.'],
    ];
    for (const [event, payload, error] of bad) {
      expect(await device.send(event, payload), event).toEqual({ ok: false, error });
    }
    const jaError = await device.send('motion_event_from_guest', { api: { language: 'ja' }, guest: { id: guest.id }, motion: { type: 1 } });
    expect(jaError).toEqual({ ok: false, error: 'イベントの内容が正しくありません: eventId。' });
    expect((await read(guest, reservation.id)).activityLogs.filter((log) => log.type !== 'dialog')).toEqual([]);
  });
});

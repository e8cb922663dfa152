import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import type { Reservation } from '../../../shared/api/reservation.ts';
import { PLANS } from '../../../shared/plans.ts';
import { guests, jails } from '../../db/schema/index.ts';
import { eventId } from '../../test/relay-client.ts';
import { apiBlock, bookJail, credentials, fail, outbox, readyGuest, signUp, succeed, useTestServer, verifyEmail, type TestGuest } from '../../test/harness.ts';

/**
 * `/reservation/try` (docs/try-anyway.md): a jail that starts now, which the
 * scheduler starts at its next tick, one at a time, and which brings no lazy
 * alert when it is ignored.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const server = useTestServer();

afterEach(async () => {
  await moveClockTo(Date.now());
});

/** Moves the server's clock to `time`; the scheduler has run at that time when this resolves. */
async function moveClockTo(time: number): Promise<void> {
  const response = await server.app.inject({ method: 'POST', url: '/dev/clock', payload: { offsetMs: time - Date.now() } });
  expect(response.statusCode).toBe(200);
}

/** A guest with a verified e-mail and no phone: a new guest. */
async function newGuest(): Promise<TestGuest> {
  const guest = await signUp(server.app);
  await verifyEmail(server.app, guest);
  return guest;
}

function tryBody(guest: TestGuest, reservation: Record<string, unknown>, language: 'en' | 'ja' = 'en') {
  return { api: apiBlock(language), guest: credentials(guest), reservation };
}

async function tryNow(guest: TestGuest, work = 'Tidy the desk', duration = 1): Promise<Reservation> {
  return (await succeed(server.app, '/reservation/try', tryBody(guest, { work, duration }))).reservation as Reservation;
}

async function lazyAlertsOf(guest: TestGuest): Promise<unknown[]> {
  const answer = await succeed(server.app, '/guest/read', { api: apiBlock(), guest: credentials(guest) });
  return (answer.guest as { lazyAlerts: unknown[] }).lazyAlerts;
}

describe('/reservation/try', () => {
  it('makes a one-off jail from now (to the second) for a new guest without a phone; the next tick starts it', async () => {
    const guest = await newGuest();
    const before = server.clock.now();
    const trial = await tryNow(guest, '  Tidy the desk  ', 1.25);
    expect(trial).toMatchObject({ work: 'Tidy the desk', duration: 1.25, repeatType: 'none', schedules: [], isFinished: false, status: 'ready' });
    expect(trial.startTime % 1000).toBe(0);
    expect(trial.startTime).toBeGreaterThan(before - 1000);
    expect(trial.startTime).toBeLessThanOrEqual(server.clock.now());
    expect(trial.endTime).toBe(trial.startTime + 75 * MINUTE);

    await server.app.jailScheduler.tick();
    const [jail] = await server.app.db.select().from(jails).where(eq(jails.reservationId, trial.id));
    expect(jail).toMatchObject({ state: 'live', guestId: guest.id });
    const list = await succeed(server.app, '/reservation/read_list', { api: apiBlock(), guest: credentials(guest) });
    expect(list.reservations).toEqual([expect.objectContaining({ id: trial.id, logsPending: true, status: 'ready' })]);
  });

  it('allows one at a time, in the language of the call; another may follow once it has finished', async () => {
    const guest = await newGuest();
    const first = await tryNow(guest);
    expect(await fail(server.app, '/reservation/try', tryBody(guest, { work: 'Again', duration: 1 }))).toBe(
      'A try-anyway jail is already under way. Try again once it has finished.',
    );
    expect(await fail(server.app, '/reservation/try', tryBody(guest, { work: 'Again', duration: 1 }, 'ja'))).toBe(
      'お試しジェイルがすでに進行中です。終わってから、もう一度お試しください。',
    );
    await moveClockTo(first.endTime + MINUTE);
    const second = await tryNow(guest);
    expect(second.id).not.toBe(first.id);
  });

  it('refuses an unverified guest, a duration not on offer, a bad body, and a time that overlaps a booked jail', async () => {
    const unverified = await signUp(server.app);
    expect(await fail(server.app, '/reservation/try', tryBody(unverified, { work: '', duration: 1 }))).toMatch(/^To book a jail session, please first verify/);
    const guest = await readyGuest(server.app);
    expect(await fail(server.app, '/reservation/try', tryBody(guest, { work: '', duration: 0.5 }))).toBe(
      'The duration must be 1 to 8 hours, in steps of 15 minutes.',
    );
    expect(await fail(server.app, '/reservation/try', tryBody(guest, { work: 7, duration: 1 }))).toBe('The work must be at most 200 characters.');
    const booked = await bookJail(server.app, guest, 1);
    expect(await fail(server.app, '/reservation/try', tryBody(guest, { work: '', duration: 2 }))).toMatch(/^This time overlaps your jail of /);
    expect((await succeed(server.app, '/reservation/read_list', { api: apiBlock(), guest: credentials(guest) })).reservations).toEqual([
      expect.objectContaining({ id: booked.id }),
    ]);
  });

  it('ignored, it makes no lazy alert and sends no mail', async () => {
    const guest = await newGuest();
    const trial = await tryNow(guest);
    await moveClockTo(trial.startTime + MINUTE);
    const mailsBefore = (await outbox(server.app)).filter((mail) => mail.to === guest.email).length;
    await moveClockTo(trial.endTime + MINUTE);
    const [jail] = await server.app.db.select().from(jails).where(eq(jails.reservationId, trial.id));
    expect(jail).toMatchObject({ state: 'finished', finish: 'ignored' });
    expect(await lazyAlertsOf(guest)).toEqual([]);
    expect((await outbox(server.app)).filter((mail) => mail.to === guest.email)).toHaveLength(mailsBefore);
    const read = await succeed(server.app, '/reservation/read', { api: apiBlock(), guest: credentials(guest), reservation: { id: trial.id } });
    expect(read.reservation).toMatchObject({ isFinished: true, status: 'finished' });
  });

  it('ended early, it sets no booking block; forced to end three times, it suspends nothing', async () => {
    const guest = await readyGuest(server.app);
    const early = await tryNow(guest);
    await server.app.jailScheduler.tick();
    expect(await server.app.jailEngine.guests.finishEarly(guest.id, eventId(), early.id, 'Just trying')).toEqual({ duplicate: false });
    for (let forced = 0; forced < 3; forced += 1) {
      // A later start than the jail before (whose report still takes late events): the events go to this one.
      server.clock.offsetMs += 5_000;
      const trial = await tryNow(guest);
      await server.app.jailScheduler.tick();
      for (let alert = 0; alert < 4; alert += 1) await server.app.jailEngine.guests.motion(guest.id, eventId(), 'no_motion', 0);
      const [jail] = await server.app.db.select().from(jails).where(eq(jails.reservationId, trial.id));
      expect(jail).toMatchObject({ state: 'finished', finish: 'forced' });
    }
    const [row] = await server.app.db.select().from(guests).where(eq(guests.id, guest.id));
    expect(row).toMatchObject({ earlyFinishBlockUntil: null, suspendedUntil: null });
    await bookJail(server.app, guest, 2);
  });

  it("on the light plan, does not count against the month's 15 hours", async () => {
    const guest = await readyGuest(server.app);
    await server.app.db.update(guests).set({ subscriptionPlan: PLANS.light.code }).where(eq(guests.id, guest.id));
    await server.app.invalidateReadCache(guest.id);
    const base = server.clock.now();
    // 8 hours of trial now, then 15 hours of bookings later in the month (or the next).
    await tryNow(guest, 'Trial', 8);
    const start = (hours: number) => Math.ceil((base + hours * HOUR) / (15 * MINUTE)) * 15 * MINUTE;
    for (const hoursAhead of [9, 18]) {
      await succeed(server.app, '/reservation/create', {
        api: apiBlock(),
        guest: credentials(guest),
        reservation: { work: 'Real', duration: hoursAhead === 9 ? 8 : 7, startTime: start(hoursAhead), repeatType: 'none' },
      });
    }
  });
});

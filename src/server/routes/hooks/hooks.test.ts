import { eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { WEBHOOK_TOKEN_INVALID, type WebhookAnswer, type WebhookReservationRequest } from '../../../shared/api/hooks.ts';
import type { Reservation } from '../../../shared/api/reservation.ts';
import { PLANS } from '../../../shared/plans.ts';
import { guests, reservations } from '../../db/schema/index.ts';
import { hashToken, newToken } from '../../lib/secrets.ts';
import { MALFORMED_PAYLOADS } from '../../test/fuzz.ts';
import { apiBlock, credentials, readyGuest, signUp, succeed, useTestServer, verifyEmail, type TestGuest } from '../../test/harness.ts';
import { WEBHOOK_CALLS_PER_ADDRESS, WEBHOOK_CALLS_PER_TOKEN } from './index.ts';

const server = useTestServer();

/** `days` after Monday 7 January 2030 at `hour`:`minute` in Tokyo, the test guests' zone (offset -540). */
const tokyo = (days: number, hour: number, minute = 0): number => Date.UTC(2030, 0, 7 + days, hour - 9, minute);
const T0 = tokyo(0, 9);

/** Moves the server's clock (it runs on from there); the read cache is dropped, as `POST /dev/clock` does. */
async function moveClockTo(instant: number): Promise<void> {
  server.clock.offsetMs = instant - Date.now();
  await server.app.invalidateReadCache('*');
}

beforeEach(() => moveClockTo(T0));

let addressCounter = 0;
/** A client address of its own, so that the per-address limit stays out of the way of other tests. */
function nextAddress(): string {
  addressCounter += 1;
  return `10.9.${Math.floor(addressCounter / 250)}.${addressCounter % 250}`;
}

async function setGuest(guest: TestGuest, values: Partial<typeof guests.$inferInsert>): Promise<void> {
  await server.app.db.update(guests).set(values).where(eq(guests.id, guest.id));
}

/** Gives the guest a webhook token, as the Collaboration screen does (only its hash is kept), enabled unless told. */
async function giveToken(guest: TestGuest, enabled = true): Promise<string> {
  const token = newToken();
  await setGuest(guest, { webhookToken: hashToken(token), webhookTokenHint: token.slice(-4), webhookEnabled: enabled });
  return token;
}

interface HookResult {
  statusCode: number;
  body: WebhookAnswer;
}

async function hook(token: string, body: unknown, remoteAddress = nextAddress()): Promise<HookResult> {
  const response = await server.app.inject({
    method: 'POST',
    url: `/hooks/reservation/${encodeURIComponent(token)}`,
    payload: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
    remoteAddress,
  });
  return { statusCode: response.statusCode, body: response.json<WebhookAnswer>() };
}

const GOOD: WebhookReservationRequest = { date: '2030-01-08', time: '10:30', duration: 90, repeatType: 'weekly', work: 'Write the chapter' };

async function reservationsOf(guest: TestGuest): Promise<Reservation[]> {
  const answer = await succeed(server.app, '/reservation/read_list', { api: apiBlock(), guest: credentials(guest) });
  return answer.reservations as Reservation[];
}

async function expectRefused(token: string, body: unknown, error: string): Promise<void> {
  expect(await hook(token, body)).toEqual({ statusCode: 422, body: { status: 'failed', error } });
}

describe('POST /hooks/reservation/:webhookToken', () => {
  it('books the jail in the guest time zone and answers success with the reservation id', async () => {
    const guest = await readyGuest(server.app);
    const token = await giveToken(guest);
    // Read the list first: the answer after the hook must not come from the read cache.
    expect(await reservationsOf(guest)).toEqual([]);
    const result = await hook(token, GOOD);
    expect(result.statusCode).toBe(200);
    expect(result.body).toMatchObject({ status: 'success', error: null });
    const [booked] = await reservationsOf(guest);
    expect(booked).toMatchObject({
      id: result.body.reservationId,
      work: 'Write the chapter',
      startTime: tokyo(1, 10, 30),
      duration: 1.5,
      repeatType: 'weekly',
    });
  });

  it('books a one-off jail when repeatType is left out', async () => {
    const guest = await readyGuest(server.app);
    const token = await giveToken(guest);
    const { repeatType: _omitted, ...body } = GOOD;
    expect((await hook(token, body)).body.status).toBe('success');
    expect((await reservationsOf(guest))[0]?.repeatType).toBe('none');
  });

  it('starts at the next quarter hour when date and time are left out: a normal jail, open at once', async () => {
    const guest = await readyGuest(server.app);
    const token = await giveToken(guest);
    await moveClockTo(tokyo(0, 9, 7));
    const result = await hook(token, { duration: 60, work: 'Now' });
    expect(result.body.status).toBe('success');
    const [booked] = await server.app.db.select().from(reservations).where(eq(reservations.guestId, guest.id));
    expect(booked).toMatchObject({ startTime: tokyo(0, 9, 15), isTrial: false });
    expect((await reservationsOf(guest))[0]?.status).toBe('ready');
  });

  it("refuses an unknown, a malformed or a disabled token with exactly 'token is invalid.'", async () => {
    const guest = await readyGuest(server.app);
    const token = await giveToken(guest, false);
    const expected = { statusCode: 401, body: { status: 'failed', error: WEBHOOK_TOKEN_INVALID } };
    expect(await hook(token, GOOD)).toEqual(expected);
    expect(await hook(newToken(), GOOD)).toEqual(expected);
    expect(await hook('x'.repeat(500), GOOD)).toEqual(expected);
    expect(await hook('a/b', GOOD)).toEqual(expected);
    // The hash itself, as stored, is no token.
    expect(await hook(hashToken(token), GOOD)).toEqual(expected);
    expect(await reservationsOf(guest)).toEqual([]);
  });

  it("holds the booking to every rule of /reservation/create, in the guest's language", async () => {
    const guest = await readyGuest(server.app);
    const token = await giveToken(guest);
    await expectRefused(token, { ...GOOD, date: '2030-01-07', time: '08:45' }, 'This start time has already passed.');
    await expectRefused(token, { ...GOOD, time: '10:20' }, 'The start time must be on a 15-minute step (:00, :15, :30 or :45).');
    await expectRefused(token, { ...GOOD, date: '2030-01-21' }, 'The start date must be today or one of the next 13 days.');
    await expectRefused(token, { ...GOOD, duration: 50 }, 'The duration must be 1 to 8 hours, in steps of 15 minutes.');
    await expectRefused(token, { ...GOOD, duration: 500 }, 'The duration must be 1 to 8 hours, in steps of 15 minutes.');
    await expectRefused(token, { ...GOOD, duration: '90' }, 'The duration must be 1 to 8 hours, in steps of 15 minutes.');
    await expectRefused(token, { ...GOOD, repeatType: 'monthly' }, 'The repeat type must be none, weekly or daily.');
    await expectRefused(token, { ...GOOD, work: undefined }, 'Write the work of the jail (1 to 200 characters).');
    await expectRefused(token, { ...GOOD, work: '   ' }, 'Write the work of the jail (1 to 200 characters).');
    await expectRefused(token, { ...GOOD, work: 'x'.repeat(201) }, 'Write the work of the jail (1 to 200 characters).');
    await expectRefused(token, { ...GOOD, work: 'a\u0000b' }, 'Write the work of the jail (1 to 200 characters).');
    const dateTime = 'Send the date as YYYY-MM-DD and the time as HH:mm, both or neither (neither books a jail starting now).';
    await expectRefused(token, { ...GOOD, time: undefined }, dateTime);
    await expectRefused(token, { ...GOOD, date: '2030-02-30' }, dateTime);
    await expectRefused(token, { ...GOOD, date: '8 January' }, dateTime);
    await expectRefused(token, { ...GOOD, time: '24:00' }, dateTime);
    await expectRefused(token, [GOOD], 'The request must be a JSON object: {date, time, duration, repeatType, work}.');

    expect((await hook(token, GOOD)).body.status).toBe('success');
    await expectRefused(token, { ...GOOD, time: '11:00' }, 'This time overlaps your jail of Jan 8, 2030, 10:30.');
    expect(await reservationsOf(guest)).toHaveLength(1);

    await setGuest(guest, { language: 'ja' });
    await expectRefused(token, { ...GOOD, duration: 50 }, '時間は1〜8時間の範囲で、15分単位で選んでください。');
  });

  it('refuses an unverified guest, a guest without a phone, a suspended guest and the light plan over its hours', async () => {
    const unverified = await signUp(server.app);
    await expectRefused(
      await giveToken(unverified),
      GOOD,
      'To book a jail session, please first verify your account from the link previously sent to your email address.',
    );
    await verifyEmail(server.app, unverified);
    await expectRefused(await giveToken(unverified), GOOD, 'To book a jail session, please first register your phone number.');

    const suspended = await readyGuest(server.app);
    await setGuest(suspended, { suspendedUntil: tokyo(3, 9) });
    const suspendedRefusal = await hook(await giveToken(suspended), GOOD);
    expect(suspendedRefusal.statusCode).toBe(422);
    expect(suspendedRefusal.body.error).toMatch(/^Your account is temporarily suspended because of three ignored jail within a week\./);

    const light = await readyGuest(server.app);
    await setGuest(light, { subscriptionPlan: PLANS.light.code });
    const lightToken = await giveToken(light);
    expect((await hook(lightToken, { ...GOOD, repeatType: 'none', duration: 8 * 60 })).body.status).toBe('success');
    expect((await hook(lightToken, { ...GOOD, repeatType: 'none', date: '2030-01-09', duration: 7 * 60 })).body.status).toBe('success');
    await expectRefused(
      lightToken,
      { ...GOOD, repeatType: 'none', date: '2030-01-10', duration: 75 },
      'The light plan allows 15 hours of jail a month. January 2030 has 0 hours left, and this booking needs 1.25.',
    );
  });

  it('answers a body that is not JSON with 400 in the same shape, never a stack trace', async () => {
    const guest = await readyGuest(server.app);
    const token = await giveToken(guest);
    const response = await server.app.inject({
      method: 'POST',
      url: `/hooks/reservation/${token}`,
      payload: '{"date":',
      headers: { 'content-type': 'application/json' },
      remoteAddress: nextAddress(),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ status: 'failed', error: 'The request could not be read.' });
    const noBody = await server.app.inject({ method: 'POST', url: `/hooks/reservation/${token}`, remoteAddress: nextAddress() });
    expect(noBody.statusCode).toBe(422);
    const read = await server.app.inject({ method: 'GET', url: `/hooks/reservation/${token}` });
    expect(read.statusCode).toBe(404);
  });

  it('answers every malformed payload in its shape, never with a server error', async () => {
    const guest = await readyGuest(server.app);
    const token = await giveToken(guest);
    for (const payload of MALFORMED_PAYLOADS) {
      const response = await server.app.inject({
        method: 'POST',
        url: `/hooks/reservation/${token}`,
        payload,
        headers: { 'content-type': 'application/json' },
        remoteAddress: nextAddress(),
      });
      const what = JSON.stringify(payload.slice(0, 40));
      expect(response.statusCode, what).toBeGreaterThanOrEqual(400);
      expect(response.statusCode, what).toBeLessThan(500);
      expect(response.json<WebhookAnswer>(), what).toEqual({ status: 'failed', error: expect.any(String) });
    }
  });

  it('limits the calls of one token, and of one address whatever the token', async () => {
    const guest = await readyGuest(server.app);
    const token = await giveToken(guest);
    await setGuest(guest, { language: 'ja' });
    const bad = { ...GOOD, duration: 1 };
    for (let call = 0; call < WEBHOOK_CALLS_PER_TOKEN.limit; call += 1) expect((await hook(token, bad)).statusCode).toBe(422);
    expect(await hook(token, GOOD)).toEqual({
      statusCode: 429,
      body: { status: 'failed', error: '試行回数が多すぎます。数分待ってから、もう一度お試しください。' },
    });

    const address = nextAddress();
    for (let call = 0; call < WEBHOOK_CALLS_PER_ADDRESS.limit; call += 1) expect((await hook(newToken(), GOOD, address)).statusCode).toBe(401);
    expect((await hook(newToken(), GOOD, address)).statusCode).toBe(429);

    // Each window ends by itself.
    await moveClockTo(T0 + WEBHOOK_CALLS_PER_TOKEN.windowMs + 60_000);
    expect((await hook(token, { ...GOOD, date: '2030-01-09' })).body.status).toBe('success');
  });
});

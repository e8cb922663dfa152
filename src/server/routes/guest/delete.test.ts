import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { and, count, eq, getTableName, inArray, is, type SQL } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Guest } from '../../../shared/api/guest.ts';
import type { LiveJail } from '../../../shared/relay.ts';
import { runAdmin } from '../../admin.ts';
import { buildApp } from '../../app.ts';
import * as schema from '../../db/schema/index.ts';
import {
  activityLogs,
  deletedAccountContacts,
  emailTokens,
  errorLogs,
  facilitatorTokens,
  featureImages,
  forumMessages,
  guests,
  jailAlerts,
  jails,
  lazyAlerts,
  localCards,
  pauses,
  payments,
  phoneCodes,
  pushDevices,
  remindersSent,
  reservations,
  sessions,
  triggerDeliveries,
  verifiedContacts,
} from '../../db/schema/index.ts';
import { hashToken } from '../../lib/secrets.ts';
import { purgeExpired } from '../../services/purge.ts';
import { startWardenSession } from '../../services/wardens.ts';
import { FakeStripe } from '../../test/fake-stripe.ts';
import {
  apiBlock,
  bookJail,
  credentials,
  fail,
  moveClockTo,
  newWarden,
  readyGuest,
  signIn,
  signUp,
  startTestServer,
  succeed,
  useListeningTestServer,
  verifyEmail,
  type ApiAnswer,
  type TestGuest,
  type TestServer,
} from '../../test/harness.ts';
import { disconnected, eventId, RelayClient } from '../../test/relay-client.ts';

/**
 * Deleting an account (docs/privacy.md, Deletion): every row of the guest
 * deleted or anonymised and another guest's untouched, the provider's
 * customer deleted (local and Stripe), sessions and sockets ended, a live
 * jail finished first, the facilitator and a wrong password refused with
 * nothing lost, and signing up again with the address: a suspension, a
 * block and an ended trial come back, nothing else.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const SIGNED_OUT = 'You are signed out. Please sign in again.';
const WRONG_PASSWORD = 'The current password is wrong. Enter the password of your account.';
const PATROL = `data:image/jpeg;base64,${readFileSync(new URL('../../jail/fixtures/canvas-40x30.jpg', import.meta.url)).toString('base64')}`;

const server = useListeningTestServer();
const clients: RelayClient[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  await moveClockTo(server.app, Date.now());
});

function deletion(guest: Pick<TestGuest, 'id' | 'token'>, password: string, language: 'en' | 'ja' = 'en') {
  return { api: apiBlock(language), guest: { id: guest.id, token: guest.token }, password };
}

function read(guest: Pick<TestGuest, 'id' | 'token'>) {
  return { api: apiBlock(), guest: { id: guest.id, token: guest.token } };
}

async function connect(auth: Record<string, unknown>): Promise<RelayClient> {
  const client = await RelayClient.connect(server.url, auth);
  clients.push(client);
  return client;
}

/** Subscribes the guest to the light plan with the local provider's card that succeeds; the card's token. */
async function subscribeLight(guest: TestGuest): Promise<string> {
  const card = { number: '4242424242424242', expMonth: 12, expYear: 2040, cvc: '123' };
  const checked = (await succeed(server.app, '/payments/local/token', { ...read(guest), card })) as { card?: { token: string } };
  const token = String(checked.card?.token);
  await succeed(server.app, '/guest/subscribe', { ...read(guest), subscription: { plan: 5, token } });
  return token;
}

/**
 * Gives the guest a row in every table a guest's data lives in, through the
 * calls and the jail engine where they write it, directly where only a
 * browser or a remote service would: two sessions, a paid plan (a payment, a local card), a forum post, an error
 * log, a lazy alert, a facilitator token, a jail with an alert and a patrol,
 * an approved scene, a push device, a reminder sent, a trigger delivery and
 * a jail to come. Returns the guest's reservation ids.
 */
async function populate(guest: TestGuest, warden: { email: string }): Promise<number[]> {
  const { app } = server;
  await signIn(app, guest);
  await subscribeLight(guest);
  await succeed(app, '/forum/create', { ...read(guest), message: { text: `Hello from ${guest.title}` } });
  await succeed(app, '/errorLog/create', { ...read(guest), errorLog: `TypeError on ${guest.title}'s screen` });
  const lazy = await app.inject({ method: 'POST', url: '/dev/guest-state', payload: { guestId: guest.id, lazyAlerts: [app.clock.now()] } });
  expect(lazy.statusCode).toBe(200);
  await runAdmin(['facilitator-token', '--warden', warden.email, '--guest', String(guest.id)], app.db, server.clock, app.config);

  const jail = await bookJail(app, guest, 1);
  await moveClockTo(app, jail.startTime + 1_000);
  await app.jailEngine.guests.checkAlive(guest.id, 'injail');
  await app.jailEngine.guests.motion(guest.id, eventId(), 'darkness', 1);
  await app.jailEngine.guests.patrol(guest.id, eventId(), PATROL);
  await moveClockTo(app, jail.endTime + MINUTE);
  const scene = await app.inject({ method: 'POST', url: '/dev/feature-images', payload: { guestId: guest.id, data: PATROL } });
  expect(scene.statusCode).toBe(200);
  const now = app.clock.now();
  await app.db.insert(pushDevices).values({
    guestId: guest.id,
    endpoint: `https://push.example.com/${randomUUID()}`,
    p256dh: 'key',
    auth: 'secret',
    label: 'Firefox on Linux',
    createdAt: now,
  });
  await app.db.insert(pauses).values({ guestId: guest.id, fromTime: now + 10 * DAY, toTime: now + 12 * DAY, createdAt: now });
  await app.db.insert(remindersSent).values({ reservationId: jail.id, startTime: jail.startTime, target: 'email', claimedAt: now, outcome: 'sent' });
  await app.db.insert(triggerDeliveries).values({
    id: randomUUID(),
    guestId: guest.id,
    reservationId: jail.id,
    method: 'POST',
    url: 'https://hooks.example.com/done',
    body: '{}',
    status: 'delivered',
    createdAt: now,
  });
  const upcoming = await bookJail(app, guest, 24);
  return [jail.id, upcoming.id];
}

/** A reset link and a code not yet used: the purge that runs when the clock moves takes the used and expired ones. */
async function pendingCodes(guest: TestGuest): Promise<void> {
  const { app } = server;
  await succeed(app, '/guest/updatePasswordEmail', { api: apiBlock(), guest: { email: guest.email } }, { remoteAddress: guest.address });
  // A number of its own: another code to the same number waits a minute.
  const phone = `080${String(guest.id).padStart(8, '0')}`;
  await succeed(app, '/guest/requestPhoneCode', { ...read(guest), guest: { ...read(guest).guest, phone } }, { remoteAddress: guest.address });
}

/** How many rows of each table belong to the guest (by its id, or its reservations'). */
async function rowsOf(guestId: number, reservationIds: number[]): Promise<Record<string, number>> {
  const { db } = server.app;
  const tally = async (table: PgTable, where: SQL | undefined): Promise<[string, number]> => {
    const [row] = await db.select({ rows: count() }).from(table).where(where);
    return [getTableName(table), row?.rows ?? 0];
  };
  return Object.fromEntries(
    await Promise.all([
      tally(guests, eq(guests.id, guestId)),
      tally(sessions, eq(sessions.guestId, guestId)),
      tally(emailTokens, eq(emailTokens.guestId, guestId)),
      tally(phoneCodes, eq(phoneCodes.guestId, guestId)),
      tally(lazyAlerts, eq(lazyAlerts.guestId, guestId)),
      tally(reservations, eq(reservations.guestId, guestId)),
      tally(activityLogs, inArray(activityLogs.reservationId, reservationIds)),
      tally(jails, eq(jails.guestId, guestId)),
      tally(jailAlerts, inArray(jailAlerts.reservationId, reservationIds)),
      tally(featureImages, eq(featureImages.guestId, guestId)),
      tally(payments, eq(payments.guestId, guestId)),
      tally(forumMessages, eq(forumMessages.guestId, guestId)),
      tally(errorLogs, eq(errorLogs.guestId, guestId)),
      tally(triggerDeliveries, eq(triggerDeliveries.guestId, guestId)),
      tally(pushDevices, eq(pushDevices.guestId, guestId)),
      tally(remindersSent, inArray(remindersSent.reservationId, reservationIds)),
      tally(facilitatorTokens, eq(facilitatorTokens.guestId, guestId)),
      tally(verifiedContacts, eq(verifiedContacts.guestId, guestId)),
      tally(pauses, eq(pauses.guestId, guestId)),
    ]),
  );
}

/** Tables that hold nothing of one guest: counters, Stripe's event ids, server keys, the wardens. */
const NOT_A_GUESTS_DATA = ['rate_limit_buckets', 'payment_events', 'server_keys', 'wardens', 'warden_sessions', 'warden_sign_ins'];
/** Kept after the account for its retention, by design: the wardens' audit trail (docs/privacy.md; services/warden-audit.test.ts). */
const KEPT_FOR_ITS_RETENTION = ['warden_audit'];
/** Checked on their own: what is kept of a deleted account, and the local provider's cards (by the customer). */
const CHECKED_APART = ['deleted_account_contacts', 'local_cards'];

async function deletedAccountOf(email: string) {
  const [row] = await server.app.db
    .select()
    .from(deletedAccountContacts)
    .where(eq(deletedAccountContacts.contactHash, hashToken(email.toLowerCase())));
  return row;
}

async function guestRow(id: number) {
  const [row] = await server.app.db.select().from(guests).where(eq(guests.id, id));
  return row;
}

describe('deleting an account', () => {
  it('leaves no row of the guest but the anonymised payments and forum posts, and another guest’s rows as they were', async () => {
    const warden = await newWarden(server);
    const leaving = await readyGuest(server.app);
    const staying = await readyGuest(server.app);
    const leavingReservations = await populate(leaving, warden);
    const stayingReservations = await populate(staying, warden);
    await pendingCodes(leaving);
    await pendingCodes(staying);

    // Every table a guest's data lives in is counted here.
    const tables = (Object.values(schema) as unknown[]).flatMap((value) => (is(value, PgTable) ? [getTableName(value)] : []));
    const counted = Object.keys(await rowsOf(leaving.id, leavingReservations));
    expect([...counted, ...NOT_A_GUESTS_DATA, ...CHECKED_APART, ...KEPT_FOR_ITS_RETENTION].sort()).toEqual([...tables].sort());

    const before = await rowsOf(leaving.id, leavingReservations);
    for (const [table, rows] of Object.entries(before)) expect(rows, table).toBeGreaterThan(0);
    const stayingBefore = await rowsOf(staying.id, stayingReservations);
    const paid = await server.app.db.select().from(payments).where(eq(payments.guestId, leaving.id));
    const posted = await server.app.db.select().from(forumMessages).where(eq(forumMessages.guestId, leaving.id));
    const reported = await server.app.db.select({ id: errorLogs.id }).from(errorLogs).where(eq(errorLogs.guestId, leaving.id));
    const leavingCard = (await guestRow(leaving.id))?.paymentCustomerId?.replace(/^lcus_/, '') ?? '';
    const stayingCard = (await guestRow(staying.id))?.paymentCustomerId?.replace(/^lcus_/, '') ?? '';
    const nextPaymentAt = (await guestRow(leaving.id))?.nextPaymentAt;

    await succeed(server.app, '/guest/delete', deletion(leaving, leaving.password));

    expect(Object.values(await rowsOf(leaving.id, leavingReservations))).toEqual(Object.values(before).map(() => 0));
    expect(await rowsOf(staying.id, stayingReservations)).toEqual(stayingBefore);
    // Payments stay for the books, without the guest.
    const kept = await server.app.db
      .select()
      .from(payments)
      .where(
        inArray(
          payments.id,
          paid.map((payment) => payment.id),
        ),
      );
    expect(kept).toEqual(paid.map((payment) => ({ ...payment, guestId: null })));
    // Forum posts stay without their author.
    const posts = await server.app.db
      .select()
      .from(forumMessages)
      .where(
        inArray(
          forumMessages.id,
          posted.map((post) => post.id),
        ),
      );
    expect(posts).toEqual(posted.map((post) => ({ ...post, guestId: null, username: '' })));
    const forum = await succeed(server.app, '/forum/read', read(staying));
    expect((forum.messages as { username: string; text: string }[]).find((message) => message.text === `Hello from ${leaving.title}`)?.username).toBe('');
    // Error logs are deleted, not only unlinked.
    expect(
      await server.app.db
        .select()
        .from(errorLogs)
        .where(
          inArray(
            errorLogs.id,
            reported.map((log) => log.id),
          ),
        ),
    ).toEqual([]);
    // The local provider forgot the card of the customer; the other guest's stays.
    expect(await server.app.db.select().from(localCards).where(eq(localCards.token, leavingCard))).toEqual([]);
    expect(await server.app.db.select().from(localCards).where(eq(localCards.token, stayingCard))).toHaveLength(1);
    // Kept, hashed: the light plan ended with the account, so the trial ends where the month paid for does.
    expect(await deletedAccountOf(leaving.email)).toMatchObject({ suspendedUntil: null, earlyFinishBlockUntil: null, trialEndedAt: nextPaymentAt });
    expect(JSON.stringify(await server.app.db.select().from(deletedAccountContacts))).not.toContain(leaving.email);
  });

  it('signs the guest out everywhere: every session and its sockets end, and the password no longer signs in', async () => {
    const guest = await signUp(server.app);
    const other = await signIn(server.app, guest);
    // Both sessions in the read cache.
    await succeed(server.app, '/guest/read', read(guest));
    await succeed(server.app, '/guest/read', read(other));
    const endings = [disconnected(await connect({ guest: credentials(guest) })), disconnected(await connect({ guest: credentials(other) }))];

    await succeed(server.app, '/guest/delete', deletion(guest, guest.password));

    expect(await Promise.all(endings)).toEqual(['io server disconnect', 'io server disconnect']);
    expect(await fail(server.app, '/guest/read', read(guest))).toBe(SIGNED_OUT);
    expect(await fail(server.app, '/guest/read', read(other))).toBe(SIGNED_OUT);
    expect(server.app.readCache.session(guest.id, hashToken(guest.token))).toBeUndefined();
    await expect(RelayClient.connect(server.url, { guest: credentials(guest) })).rejects.toThrow('Please sign in again to connect.');
    expect(
      await fail(
        server.app,
        '/guest/authenticate',
        { api: apiBlock(), guest: { title: guest.email, password: guest.password } },
        { remoteAddress: guest.address },
      ),
    ).toBe('The username or password is wrong.');
    // A second call with the ended session changes nothing.
    expect(await fail(server.app, '/guest/delete', deletion(guest, guest.password))).toBe(SIGNED_OUT);
  });

  it('finishes a live jail first, as an early finish the guest’s devices and the wardens’ consoles see, and keeps its block', async () => {
    const guest = await readyGuest(server.app);
    const jail = await bookJail(server.app, guest, 1, 2);
    await moveClockTo(server.app, jail.startTime - 5 * MINUTE);
    const device = await connect({ guest: credentials(guest) });
    const warden = await newWarden(server);
    const console_ = await connect({ warden: { token: await startWardenSession(server.app.db, warden.id, server.clock.now()) } });
    const started = device.next('jail_start_to_guest');
    await moveClockTo(server.app, jail.startTime + 1_000);
    await started;
    expect(await device.send('check_alive_from_guest', { api: apiBlock(), guest: { id: guest.id }, jailStatus: 'injail' })).toEqual({ ok: true });

    const finished = device.next<{ reservationId: number; finish: string }>('jail_finish_to_guest');
    const ended = disconnected(device);
    const unlisted = console_.next<{ jails: LiveJail[] }>('live_jails_to_warden', ({ jails: live }) => !live.some((row) => row.reservationId === jail.id));
    const seen: string[] = [];
    device.socket.onAny((event: string) => seen.push(event));
    device.socket.on('disconnect', () => seen.push('disconnect'));

    await succeed(server.app, '/guest/delete', deletion(guest, guest.password));

    expect(await finished).toEqual({ reservationId: jail.id, finish: 'early' });
    expect(await ended).toBe('io server disconnect');
    await unlisted;
    expect(seen.indexOf('jail_finish_to_guest')).toBeLessThan(seen.indexOf('disconnect'));
    // An early finish blocks booking until the jail's end: the address keeps that block.
    expect(await deletedAccountOf(guest.email)).toMatchObject({ earlyFinishBlockUntil: jail.endTime });
    const again = await signUp(server.app, { email: guest.email });
    expect((await guestRow(again.id))?.earlyFinishBlockUntil).toBe(jail.endTime);
  });

  it('is refused to a facilitator’s session, in either language, and nothing is lost', async () => {
    const guest = await readyGuest(server.app);
    const warden = await newWarden(server);
    const lines = await runAdmin(['facilitator-token', '--warden', warden.email, '--guest', String(guest.id)], server.app.db, server.clock, server.app.config);
    const answer = await succeed(server.app, '/guest/authenticateAsLimFacilitator', {
      api: apiBlock(),
      guest: { id: guest.id },
      facilitator: { token: lines[1] },
    });
    const facilitator = answer.guest as Guest & { token: string };
    expect(await fail(server.app, '/guest/delete', deletion(facilitator, guest.password))).toBe(
      'A facilitator cannot do this. Only the guest can change the e-mail address, password, phone number or payment, make or see the calendar address, webhook address or signing secret, see or sign out signed-in devices, and export or delete the account.',
    );
    expect(await fail(server.app, '/guest/delete', deletion(facilitator, guest.password, 'ja'))).toBe(
      'ファシリテーターはこの操作をできません。メールアドレス・パスワード・電話番号・お支払いの変更、カレンダー用のアドレス・Webhookアドレス・署名シークレットの作成と表示、ログイン中の端末の表示とログアウト、アカウントの書き出しと削除は、ご本人だけが操作できます。',
    );
    await succeed(server.app, '/guest/read', read(facilitator));
    await succeed(server.app, '/guest/read', read(guest));
    expect(await deletedAccountOf(guest.email)).toBeUndefined();
  });

  it('is refused with a wrong or missing password, which counts with the failed sign-ins (the password check alone too), and nothing is lost', async () => {
    const guest = await readyGuest(server.app);
    const reservation = await bookJail(server.app, guest, 24);
    const before = await rowsOf(guest.id, [reservation.id]);
    expect(await fail(server.app, '/guest/delete', deletion(guest, 'not the password'))).toBe(WRONG_PASSWORD);
    expect(await fail(server.app, '/guest/delete', deletion(guest, '', 'ja'))).toBe('現在のパスワードが違います。アカウントのパスワードを入力してください。');
    expect(await fail(server.app, '/guest/delete', { api: apiBlock(), guest: credentials(guest) })).toBe(WRONG_PASSWORD);
    expect(await rowsOf(guest.id, [reservation.id])).toEqual(before);
    await succeed(server.app, '/guest/read', read(guest));
    // The form's first step checks the password alone: the right one deletes nothing, a wrong one counts too.
    await succeed(server.app, '/guest/delete', { ...deletion(guest, guest.password), passwordCheckOnly: true });
    expect(await rowsOf(guest.id, [reservation.id])).toEqual(before);
    expect(await fail(server.app, '/guest/delete', { ...deletion(guest, 'not it either'), passwordCheckOnly: true })).toBe(WRONG_PASSWORD);
    // Ten wrong tries in all (the one without a password was refused before it was tried): then even the right password waits.
    for (let tries = 3; tries < 10; tries += 1) await fail(server.app, '/guest/delete', deletion(guest, 'still not it'));
    expect(await fail(server.app, '/guest/delete', deletion(guest, guest.password))).toBe('Too many attempts. Please wait a few minutes and try again.');
    expect(await rowsOf(guest.id, [reservation.id])).toEqual(before);
  });
});

const postgresUrl = process.env.WARDEN_TEST_DATABASE_URL;

describe.runIf(postgresUrl !== undefined && postgresUrl !== '')('on two servers of one PostgreSQL database', () => {
  it('the other server forgets the deleted guest’s cached session as soon as the notification arrives', async () => {
    const other = await buildApp(server.app.config, { logger: false });
    try {
      await other.ready();
      const listener = other.readCacheListener;
      if (listener === null) throw new Error('no LISTEN connection on PostgreSQL');
      const guest = await signUp(server.app);
      const readThroughOther = () =>
        other.inject({ method: 'POST', url: '/api/guest/read', payload: read(guest) }).then((response) => response.json<ApiAnswer>());
      // The sign-up's own notifications may still arrive and empty the cache: read until the session is served from it.
      await vi.waitFor(
        async () => {
          expect((await readThroughOther()).api.status).toBe('success');
          expect(other.readCache.session(guest.id, hashToken(guest.token))).toBeDefined();
        },
        { timeout: 10_000, interval: 100 },
      );
      const notified = listener.nextNotification();
      await succeed(server.app, '/guest/delete', deletion(guest, guest.password));
      expect(await notified).toBe(String(guest.id));
      expect(await readThroughOther()).toMatchObject({ api: { status: 'failed', errorMessage: SIGNED_OUT } });
    } finally {
      await other.close();
    }
  });
});

describe('signing up again with the address of a deleted account', () => {
  async function setState(guest: TestGuest, state: Record<string, unknown>): Promise<void> {
    const response = await server.app.inject({ method: 'POST', url: '/dev/guest-state', payload: { guestId: guest.id, ...state } });
    expect(response.statusCode).toBe(200);
  }

  it('works, and brings back a running suspension and an ended trial, nothing else', async () => {
    const guest = await readyGuest(server.app);
    await bookJail(server.app, guest, 24);
    await succeed(server.app, '/forum/create', { ...read(guest), message: { text: 'Before I go' } });
    const now = server.clock.now();
    const suspendedUntil = now + 3 * DAY;
    const trialEnd = now - DAY;
    await setState(guest, { suspendedUntil, subscriptionExpiredAt: trialEnd, lazyAlerts: [now - 2 * HOUR, now - HOUR, now] });
    await succeed(server.app, '/guest/delete', deletion(guest, guest.password));

    // The address in capitals is the same address.
    const again = await signUp(server.app, { email: guest.email.toUpperCase(), title: guest.title });
    const answer = (await succeed(server.app, '/guest/read', read(again))).guest as Guest;
    expect(answer).toMatchObject({
      id: again.id,
      title: guest.title,
      email: guest.email,
      isVerified: false,
      phone: null,
      subscriptionPlan: 1,
      subscriptionExpiredAt: trialEnd,
      suspendedUntil,
      earlyFinishBlockUntil: null,
      lazyAlerts: [],
      totalDurationThisMonth: 0,
    });
    expect(again.id).not.toBe(guest.id);
    expect((await succeed(server.app, '/reservation/read_list', read(again))).reservations).toEqual([]);
    expect(await server.app.db.select().from(forumMessages).where(eq(forumMessages.guestId, again.id))).toEqual([]);
  });

  it('gets a fresh start when the suspension has ended, and an open trial when the account still had one', async () => {
    const guest = await signUp(server.app);
    await verifyEmail(server.app, guest);
    const suspendedUntil = server.clock.now() + HOUR;
    await setState(guest, { suspendedUntil });
    await succeed(server.app, '/guest/delete', deletion(guest, guest.password));
    expect(await deletedAccountOf(guest.email)).toMatchObject({ suspendedUntil, trialEndedAt: null });
    server.clock.offsetMs += 2 * HOUR;
    const again = await signUp(server.app, { email: guest.email });
    expect((await succeed(server.app, '/guest/read', read(again))).guest).toMatchObject({ suspendedUntil: null, subscriptionExpiredAt: null });

    // Nothing that matters: nothing is kept.
    const plain = await signUp(server.app);
    await succeed(server.app, '/guest/delete', deletion(plain, plain.password));
    expect(await deletedAccountOf(plain.email)).toBeUndefined();
  });

  it('keeps a row only while it matters: the purge drops it once the suspension and block are over, never while it has a trial end', async () => {
    const now = server.clock.now();
    const row = (email: string, fields: Partial<typeof deletedAccountContacts.$inferInsert>) => ({
      contactHash: hashToken(email),
      deletedAt: now - DAY,
      ...fields,
    });
    const names = { over: `over-${randomUUID()}`, running: `running-${randomUUID()}`, blocked: `blocked-${randomUUID()}`, trial: `trial-${randomUUID()}` };
    await server.app.db
      .insert(deletedAccountContacts)
      .values([
        row(names.over, { suspendedUntil: now - MINUTE, earlyFinishBlockUntil: now - HOUR }),
        row(names.running, { suspendedUntil: now + MINUTE }),
        row(names.blocked, { earlyFinishBlockUntil: now + HOUR }),
        row(names.trial, { trialEndedAt: now - 30 * DAY }),
      ]);
    const left = async (at: number) => {
      await purgeExpired(server.app.db, at);
      const rows = await server.app.db
        .select({ contactHash: deletedAccountContacts.contactHash })
        .from(deletedAccountContacts)
        .where(inArray(deletedAccountContacts.contactHash, Object.values(names).map(hashToken)));
      return Object.entries(names)
        .filter(([, name]) => rows.some((found) => found.contactHash === hashToken(name)))
        .map(([kind]) => kind)
        .sort();
    };
    expect(await left(now)).toEqual(['blocked', 'running', 'trial']);
    expect(await left(now + MINUTE)).toEqual(['blocked', 'trial']);
    expect(await left(now + 365 * DAY)).toEqual(['trial']);
  });
});

describe('the payment provider’s customer', () => {
  it('is deleted at Stripe, and when Stripe cannot be reached nothing is deleted', async () => {
    const fake = new FakeStripe();
    const base = await fake.start();
    const env = { STRIPE_SECRET_KEY: 'sk_test_fake', STRIPE_PUBLISHABLE_KEY: 'pk_test_fake', STRIPE_API_BASE: base };
    Object.assign(process.env, env);
    let stripe: TestServer | undefined;
    try {
      stripe = await startTestServer();
      const { app } = stripe;
      const guest = await signUp(app);
      await succeed(app, '/guest/subscribe', { ...read(guest), subscription: { plan: 5, token: 'pm_card_visa' } });
      const [row] = await app.db.select().from(guests).where(eq(guests.id, guest.id));
      const customerId = row?.paymentCustomerId ?? '';
      expect(customerId).toMatch(/^cus_/);

      fake.down = true;
      expect(await fail(app, '/guest/delete', deletion(guest, guest.password))).toBe(
        'The card payment service could not be reached. Nothing was charged; please try again later.',
      );
      fake.down = false;
      await succeed(app, '/guest/read', read(guest));
      expect(await app.db.select().from(payments).where(eq(payments.guestId, guest.id))).toHaveLength(1);

      await succeed(app, '/guest/delete', deletion(guest, guest.password));
      expect(fake.requests.filter((request) => request.method === 'DELETE').map((request) => request.path)).toEqual([
        `/v1/customers/${customerId}`,
        `/v1/customers/${customerId}`,
      ]);
      expect(await app.db.select().from(guests).where(eq(guests.id, guest.id))).toEqual([]);
      expect(
        await app.db
          .select()
          .from(payments)
          .where(and(eq(payments.provider, 'stripe'), eq(payments.guestId, guest.id))),
      ).toEqual([]);
      expect(await app.db.select({ rows: count() }).from(payments)).toEqual([{ rows: 1 }]);
    } finally {
      await stripe?.close();
      for (const name of Object.keys(env)) Reflect.deleteProperty(process.env, name);
      await fake.stop();
    }
  }, 60_000);
});

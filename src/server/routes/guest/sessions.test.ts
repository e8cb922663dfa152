import { eq } from 'drizzle-orm';
import { io } from 'socket.io-client';
import { afterEach, describe, expect, it } from 'vitest';
import { RELAY_PATH } from '../../../shared/relay.ts';
import { runAdmin } from '../../admin.ts';
import { sessions } from '../../db/schema/index.ts';
import { hashToken } from '../../lib/secrets.ts';
import { startWardenSession } from '../../services/wardens.ts';
import {
  apiBlock,
  bookJail,
  credentials,
  fail,
  lastMessageTo,
  linkTokenMailedTo,
  newWarden,
  readyGuest,
  signIn,
  signUp,
  succeed,
  useListeningTestServer,
  verifyEmail,
  type TestGuest,
} from '../../test/harness.ts';
import { disconnected, RelayClient } from '../../test/relay-client.ts';

/**
 * Sessions that end (docs/sessions.md): idle time and lifetime on the
 * server's clock, renewal by use and by a live jail's alive checks, the
 * relay sockets ended with their session (guests and wardens, through real
 * socket.io clients), and the limits of a facilitator's session.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const SIGNED_OUT = 'You are signed out. Please sign in again.';
const RELAY_REFUSED = 'Please sign in again to connect.';

const server = useListeningTestServer();
const clients: RelayClient[] = [];

afterEach(() => {
  for (const client of clients.splice(0)) client.close();
  server.clock.offsetMs = 0;
});

function read(guest: TestGuest) {
  return { api: apiBlock(), guest: credentials(guest) };
}

async function connect(auth: Record<string, unknown>): Promise<RelayClient> {
  const client = await RelayClient.connect(server.url, auth);
  clients.push(client);
  return client;
}

async function lastSeenOf(guest: TestGuest): Promise<number | undefined> {
  const [row] = await server.app.db
    .select({ lastSeenAt: sessions.lastSeenAt })
    .from(sessions)
    .where(eq(sessions.tokenHash, hashToken(guest.token)));
  return row?.lastSeenAt;
}

describe('lifetimes of a guest session', () => {
  it('ends after 30 days without use, the cached session too', async () => {
    const guest = await signUp(server.app);
    await succeed(server.app, '/guest/read', read(guest)); // now in the read cache
    server.clock.offsetMs = 30 * DAY - MINUTE;
    await succeed(server.app, '/guest/read', read(guest));
    // 30 days after that use: ended, although the cache had it.
    server.clock.offsetMs = 60 * DAY - MINUTE;
    expect(await fail(server.app, '/guest/read', read(guest))).toBe(SIGNED_OUT);
    expect(await fail(server.app, '/guest/read', { api: apiBlock('ja'), guest: credentials(guest) })).toBe(
      'ログインが切れました。もう一度ログインしてください。',
    );
  });

  it('ends 90 days after sign-in however often it is used', async () => {
    const guest = await signUp(server.app);
    for (let day = 20; day < 90; day += 20) {
      server.clock.offsetMs = day * DAY;
      await succeed(server.app, '/guest/read', read(guest));
    }
    server.clock.offsetMs = 90 * DAY;
    expect(await fail(server.app, '/guest/read', read(guest))).toBe(SIGNED_OUT);
    // Signing in again starts a new one.
    const again = await signIn(server.app, guest);
    await succeed(server.app, '/guest/read', read(again));
  });

  it('notes its use at most about once a minute', async () => {
    const guest = await signUp(server.app);
    const started = await lastSeenOf(guest);
    server.clock.offsetMs = 30_000;
    await succeed(server.app, '/guest/read', read(guest));
    expect(await lastSeenOf(guest)).toBe(started);
    server.clock.offsetMs = 61_000;
    await succeed(server.app, '/guest/read', read(guest));
    const renewed = await lastSeenOf(guest);
    expect(renewed).toBeGreaterThanOrEqual((started ?? 0) + 61_000);
    server.clock.offsetMs = 90_000;
    await succeed(server.app, '/guest/read', read(guest));
    expect(await lastSeenOf(guest)).toBe(renewed);
  });

  it('is deleted once ended, and its sockets end with it', async () => {
    const guest = await signUp(server.app);
    const device = await connect({ guest: credentials(guest) });
    const ended = disconnected(device);
    server.clock.offsetMs = 31 * DAY;
    await server.app.endExpiredSessions();
    expect(await ended).toBe('io server disconnect');
    expect(await lastSeenOf(guest)).toBeUndefined();
    await expect(RelayClient.connect(server.url, { guest: credentials(guest) })).rejects.toThrow(RELAY_REFUSED);
  });
});

describe('an alive check', () => {
  it('on a session that has ended (deleted by any server) is refused and ends the socket', async () => {
    const guest = await signUp(server.app);
    const device = await connect({ guest: credentials(guest) });
    await server.app.db.delete(sessions).where(eq(sessions.tokenHash, hashToken(guest.token)));
    await server.app.invalidateReadCache(guest.id);
    const ended = disconnected(device);
    expect(await device.send('check_alive_from_guest', { api: apiBlock(), guest: { id: guest.id }, jailStatus: 'injail' })).toEqual({
      ok: false,
      error: RELAY_REFUSED,
    });
    expect(await ended).toBe('io server disconnect');
  });
});

describe('a live jail', () => {
  // Short lifetimes: a jail of 4 hours outlasts both.
  const short = useListeningTestServer({ guestSessions: { idleMs: HOUR, maxMs: 2 * HOUR } });

  async function moveClockTo(time: number): Promise<void> {
    const response = await short.app.inject({ method: 'POST', url: '/dev/clock', payload: { offsetMs: time - Date.now() } });
    expect(response.statusCode).toBe(200);
  }

  it('keeps the session through its alive checks, past the idle time and the lifetime, and ends it after', async () => {
    const guest = await readyGuest(short.app);
    const reservation = await bookJail(short.app, guest, 0.5, 4);
    await moveClockTo(reservation.startTime - 5 * MINUTE);
    const device = await RelayClient.connect(short.url, { guest: credentials(guest) });
    clients.push(device);
    const started = device.next('jail_start_to_guest');
    await moveClockTo(reservation.startTime + 1_000);
    await started;
    for (let at = reservation.startTime + 20 * MINUTE; at < reservation.startTime + 4 * HOUR; at += 20 * MINUTE) {
      await moveClockTo(at);
      expect(await device.send('check_alive_from_guest', { api: apiBlock(), guest: { id: guest.id }, jailStatus: 'injail' })).toEqual({ ok: true });
      await short.app.endExpiredSessions();
    }
    // Beyond the lifetime, still in the jail: signed in, connected.
    expect(device.socket.connected).toBe(true);
    await succeed(short.app, '/guest/read', { api: apiBlock(), guest: credentials(guest) });

    // The jail over, the lifetime ends the session and its socket.
    const ended = disconnected(device);
    await moveClockTo(reservation.startTime + 4 * HOUR + MINUTE);
    await short.app.endExpiredSessions();
    expect(await ended).toBe('io server disconnect');
    expect(await fail(short.app, '/guest/read', { api: apiBlock(), guest: credentials(guest) })).toBe(SIGNED_OUT);
    await moveClockTo(Date.now());
  });
});

describe('what ends the sockets of a guest session', () => {
  it('signing out ends that session’s sockets only; a reconnect is refused', async () => {
    const guest = await signUp(server.app);
    const other = await signIn(server.app, guest);
    const phone = await connect({ guest: credentials(guest) });
    const laptop = await connect({ guest: credentials(other) });
    const ended = disconnected(phone);
    await succeed(server.app, '/guest/logout', read(guest));
    expect(await ended).toBe('io server disconnect');
    await expect(RelayClient.connect(server.url, { guest: credentials(guest) })).rejects.toThrow(RELAY_REFUSED);
    expect(laptop.socket.connected).toBe(true);
  });

  it('a password reset ends every session of the guest and their sockets', async () => {
    const guest = await signUp(server.app);
    const other = await signIn(server.app, guest);
    const endings = [disconnected(await connect({ guest: credentials(guest) })), disconnected(await connect({ guest: credentials(other) }))];
    await succeed(server.app, '/guest/updatePasswordEmail', { api: apiBlock(), guest: { email: guest.email } }, { remoteAddress: guest.address });
    const token = await linkTokenMailedTo(server.app, guest.email, 'updatePassword');
    await succeed(server.app, '/guest/updatePassword', { api: apiBlock(), guest: { token, password: 'a new password' } }, { remoteAddress: guest.address });
    expect(await Promise.all(endings)).toEqual(['io server disconnect', 'io server disconnect']);
    expect(await fail(server.app, '/guest/read', read(other))).toBe(SIGNED_OUT);
  });

  it('an e-mail change ends the guest’s other sessions and their sockets, keeps this one, and tells the old address once verified', async () => {
    const guest = await signUp(server.app);
    await verifyEmail(server.app, guest);
    const other = await signIn(server.app, guest);
    const here = await connect({ guest: credentials(guest) });
    const elsewhere = await connect({ guest: credentials(other) });
    const ended = disconnected(elsewhere);
    const email = `moved-${guest.email}`;
    await succeed(server.app, '/guest/update', { api: apiBlock(), guest: { ...credentials(guest), email, currentPassword: guest.password } });
    expect(await ended).toBe('io server disconnect');
    expect(here.socket.connected).toBe(true);
    await succeed(server.app, '/guest/read', read(guest));
    expect(await fail(server.app, '/guest/read', read(other))).toBe(SIGNED_OUT);
    const token = await linkTokenMailedTo(server.app, email, 'verifyEmail');
    await succeed(server.app, '/guest/verifyEmail', { api: apiBlock(), guest: { token } });
    const notice = await lastMessageTo(server.app, guest.email);
    expect(notice.subject).toBe('Warden: your e-mail address was changed');
    expect(notice.text).toContain(email);
    expect(notice.text).toContain('/guest/takeBack/');
  });
});

describe('changing the e-mail address', () => {
  it('asks for the current password, in the app’s words', async () => {
    const guest = await signUp(server.app);
    const change = (fields: Record<string, unknown>, language: 'en' | 'ja' = 'en') => ({
      api: apiBlock(language),
      guest: { ...credentials(guest), email: `new-${guest.email}`, ...fields },
    });
    expect(await fail(server.app, '/guest/update', change({}))).toBe('The current password is wrong. Enter the password of your account.');
    expect(await fail(server.app, '/guest/update', change({ currentPassword: 'not the password' }, 'ja'))).toBe(
      '現在のパスワードが違います。アカウントのパスワードを入力してください。',
    );
    expect((await succeed(server.app, '/guest/read', read(guest))).guest).toMatchObject({ email: guest.email });
    // The new address is asked, and once verified the old address is told, in the guest's language.
    await succeed(server.app, '/guest/update', change({ currentPassword: guest.password, language: 'ja' }));
    expect((await lastMessageTo(server.app, `new-${guest.email}`)).subject).toBe('Warden: 新しいメールアドレスの確認');
  });
});

describe('a warden’s console socket', () => {
  it('ends when the warden signs out, and cannot come back with that session', async () => {
    const warden = await newWarden(server);
    const token = await startWardenSession(server.app.db, warden.id, server.clock.now());
    const consoleSocket = await connect({ warden: { token } });
    const ended = disconnected(consoleSocket);
    await succeed(server.app, '/warden/logout', { api: apiBlock(), warden: { token } });
    expect(await ended).toBe('io server disconnect');
    await expect(RelayClient.connect(server.url, { warden: { token } })).rejects.toThrow(RELAY_REFUSED);
  });

  it('reconnecting as the console does after its session ended is refused at the handshake, and the socket stops trying', async () => {
    const warden = await newWarden(server);
    const token = await startWardenSession(server.app.db, warden.id, server.clock.now());
    // The console's settings (src/client/warden/relay.ts): the auth read at every connection, reconnection on.
    const socket = io(server.url, {
      path: RELAY_PATH,
      auth: (send) => send({ warden: { token, language: 'ja' } }),
      transports: ['websocket'],
      extraHeaders: { origin: server.url },
      reconnectionDelay: 100,
      forceNew: true,
    });
    try {
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
      const dropped = new Promise<string>((resolve) => socket.once('disconnect', resolve));
      await succeed(server.app, '/warden/logout', { api: apiBlock(), warden: { token } });
      expect(await dropped).toBe('io server disconnect');
      const refused = new Promise<Error>((resolve) => socket.once('connect_error', resolve));
      socket.connect();
      expect((await refused).message).toBe(RELAY_REFUSED);
      // Not active: the console's onRefused reads the session, which is signed out.
      expect(socket.active).toBe(false);
      expect(await fail(server.app, '/warden/read', { api: apiBlock(), warden: { token } })).toBe('Your console session has ended. Please sign in again.');
    } finally {
      socket.close();
    }
  });

  it('ends when the console session expires', async () => {
    const warden = await newWarden(server);
    const token = await startWardenSession(server.app.db, warden.id, server.clock.now());
    const consoleSocket = await connect({ warden: { token } });
    await server.app.endExpiredSessions();
    expect(consoleSocket.socket.connected).toBe(true);
    const ended = disconnected(consoleSocket);
    server.clock.offsetMs = 12 * HOUR;
    await server.app.endExpiredSessions();
    expect(await ended).toBe('io server disconnect');
    await expect(RelayClient.connect(server.url, { warden: { token } })).rejects.toThrow(RELAY_REFUSED);
  });
});

describe('a facilitator', () => {
  async function facilitatorToken(guest: TestGuest): Promise<string> {
    const warden = await newWarden(server);
    const lines = await runAdmin(
      ['facilitator-token', '--warden', warden.email, '--guest', String(guest.id), '--hours', '1'],
      server.app.db,
      server.clock,
      server.app.config,
    );
    return lines[1] ?? '';
  }

  function signInAsFacilitator(guest: TestGuest, token: string) {
    return { api: apiBlock(), guest: { id: guest.id }, facilitator: { token } };
  }

  it('signs in once with a token, and the guest sees when', async () => {
    const guest = await signUp(server.app);
    expect((await succeed(server.app, '/guest/read', read(guest))).guest).toMatchObject({ facilitatorSignedInAt: null });
    const token = await facilitatorToken(guest);
    server.clock.offsetMs = 5 * MINUTE;
    const signedInAt = server.clock.now();
    await succeed(server.app, '/guest/authenticateAsLimFacilitator', signInAsFacilitator(guest, token));
    expect(await fail(server.app, '/guest/authenticateAsLimFacilitator', signInAsFacilitator(guest, token))).toBe(
      'The facilitator link is invalid or has expired.',
    );
    const seen = (await succeed(server.app, '/guest/read', read(guest))).guest as { facilitatorSignedInAt: number };
    expect(seen.facilitatorSignedInAt).toBeGreaterThanOrEqual(signedInAt);
    expect(seen.facilitatorSignedInAt).toBeLessThan(signedInAt + MINUTE);
  });

  it('cannot change the e-mail address, phone or payment, in either language; other settings it can', async () => {
    const guest = await readyGuest(server.app);
    const answer = await succeed(server.app, '/guest/authenticateAsLimFacilitator', signInAsFacilitator(guest, await facilitatorToken(guest)));
    const session = answer.guest as { id: number; token: string };
    const as = (fields: Record<string, unknown>, language: 'en' | 'ja' = 'en') => ({ api: apiBlock(language), guest: { ...session, ...fields } });
    const refused =
      'A facilitator cannot do this. Only the guest can change the e-mail address, password, phone number or payment, make or see the calendar address, webhook address or signing secret, see or sign out signed-in devices, and export or delete the account.';
    const calls: [string, Record<string, unknown>][] = [
      ['/guest/update', as({ email: `other-${guest.email}`, currentPassword: guest.password })],
      ['/guest/update', as({ phone: '09011112222', phoneCode: '123456' })],
      ['/guest/requestPhoneCode', as({ phone: '09011112222' })],
      ['/guest/subscribe', { ...as({}), subscription: { plan: 5, token: 'tok_local_x' } }],
      ['/guest/unsubscribe', as({})],
      ['/guest/updateCard', { ...as({}), subscription: { token: 'tok_local_x' } }],
      ['/payments/local/confirm', { ...as({}), payment: { clientSecret: 'pi_local_x_secret_y', approve: true } }],
    ];
    for (const [path, body] of calls) expect(await fail(server.app, path, body), path).toBe(refused);
    expect(await fail(server.app, '/guest/unsubscribe', as({}, 'ja'))).toBe(
      'ファシリテーターはこの操作をできません。メールアドレス・パスワード・電話番号・お支払いの変更、カレンダー用のアドレス・Webhookアドレス・署名シークレットの作成と表示、ログイン中の端末の表示とログアウト、アカウントの書き出しと削除は、ご本人だけが操作できます。',
    );
    const renamed = await succeed(server.app, '/guest/update', as({ timezone: 0 }));
    expect(renamed.guest).toMatchObject({ timezone: 0, email: guest.email });
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import type { SignedInDevice } from '../../../shared/api/sessions.ts';
import { runAdmin } from '../../admin.ts';
import { FACILITATOR_SESSION_MS } from '../../services/sessions.ts';
import { apiBlock, credentials, fail, newWarden, signUp, succeed, useListeningTestServer, type TestGuest } from '../../test/harness.ts';
import { disconnected, RelayClient } from '../../test/relay-client.ts';

/**
 * The guest's signed-in devices (docs/sessions.md, "Signed-in devices"): the
 * list with each device and its times, signing out one and everywhere with
 * their relay sockets, and what a facilitator's session may not do.
 */

const MINUTE = 60_000;
const SIGNED_OUT = 'You are signed out. Please sign in again.';
const RELAY_REFUSED = 'Please sign in again to connect.';
const FACILITATOR_REFUSED =
  'A facilitator cannot do this. Only the guest can change the e-mail address, password, phone number or payment, make or see the calendar address, webhook address or signing secret, see or sign out signed-in devices, and export or delete the account.';
const ANDROID_CHROME = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36';
const WINDOWS_FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';

const server = useListeningTestServer();
const clients: RelayClient[] = [];

afterEach(() => {
  for (const client of clients.splice(0)) client.close();
  server.clock.offsetMs = 0;
});

function as(guest: TestGuest, language: 'en' | 'ja' = 'en') {
  return { api: apiBlock(language), guest: credentials(guest) };
}

async function devicesOf(guest: TestGuest): Promise<SignedInDevice[]> {
  return (await succeed(server.app, '/guest/readSessions', as(guest))).sessions as SignedInDevice[];
}

/** The guest signed in again, from a browser that says `userAgent`. */
async function signInFrom(guest: TestGuest, userAgent: string): Promise<TestGuest> {
  const answer = await succeed(
    server.app,
    '/guest/authenticate',
    { api: apiBlock(), guest: { title: guest.title, password: guest.password } },
    { remoteAddress: guest.address, headers: { 'content-type': 'application/json', 'user-agent': userAgent } },
  );
  return { ...guest, token: (answer.guest as { token: string }).token };
}

async function connect(guest: TestGuest): Promise<RelayClient> {
  const client = await RelayClient.connect(server.url, { guest: credentials(guest) });
  clients.push(client);
  return client;
}

async function facilitatorOf(guest: TestGuest): Promise<TestGuest> {
  const warden = await newWarden(server);
  const lines = await runAdmin(
    ['facilitator-token', '--warden', warden.email, '--guest', String(guest.id), '--hours', '1'],
    server.app.db,
    server.clock,
    server.app.config,
  );
  const answer = await succeed(server.app, '/guest/authenticateAsLimFacilitator', {
    api: apiBlock(),
    guest: { id: guest.id },
    facilitator: { token: lines[1] ?? '' },
  });
  return { ...guest, token: (answer.guest as { token: string }).token };
}

describe('the list of signed-in devices', () => {
  it('shows each open session of the guest with its browser, system and times, the last used first, and this one marked', async () => {
    const guest = await signUp(server.app);
    const phone = await signInFrom(guest, ANDROID_CHROME);
    server.clock.offsetMs = 2 * MINUTE;
    const laptop = await signInFrom(guest, WINDOWS_FIREFOX);
    await signUp(server.app); // another guest's sessions are not shown
    const listed = await devicesOf(laptop);
    expect(listed.map(({ browser, os, current, facilitator }) => ({ browser, os, current, facilitator }))).toEqual([
      { browser: 'Firefox', os: 'Windows', current: true, facilitator: false },
      { browser: 'Chrome', os: 'Android', current: false, facilitator: false },
      // The test client names no browser.
      { browser: null, os: null, current: false, facilitator: false },
    ]);
    const [, android] = listed;
    expect(android?.createdAt).toBe(android?.lastSeenAt);
    expect((await devicesOf(phone)).find((device) => device.current)?.os).toBe('Android');
  });

  it('records the last use at most once a minute, and leaves out sessions that have ended', async () => {
    const guest = await signUp(server.app);
    const phone = await signInFrom(guest, ANDROID_CHROME);
    const lastUse = async () => (await devicesOf(guest)).find((device) => device.os === 'Android')?.lastSeenAt;
    const signedInAt = await lastUse();
    server.clock.offsetMs = 30_000;
    await succeed(server.app, '/guest/read', as(phone));
    expect(await lastUse()).toBe(signedInAt);
    server.clock.offsetMs = 61_000;
    await succeed(server.app, '/guest/read', as(phone));
    expect(await lastUse()).toBeGreaterThanOrEqual((signedInAt ?? 0) + 61_000);
    // 30 days without use: the phone's session has ended, this one (used just now) has not.
    server.clock.offsetMs = 61_000 + 30 * 24 * 60 * MINUTE;
    expect(await fail(server.app, '/guest/read', as(phone))).toBe(SIGNED_OUT);
  });
});

describe('signing out', () => {
  it('one device ends its session and its sockets only; another guest’s or an unknown id changes nothing', async () => {
    const guest = await signUp(server.app);
    const phone = await signInFrom(guest, ANDROID_CHROME);
    const phoneSocket = await connect(phone);
    const hereSocket = await connect(guest);
    const stranger = await signUp(server.app);
    const strangerSocket = await connect(stranger);
    const phoneId = (await devicesOf(guest)).find((device) => device.os === 'Android')?.id ?? 0;

    expect(await succeed(server.app, '/guest/logoutSession', { ...as(stranger), session: { id: phoneId } })).toMatchObject({
      sessions: [expect.objectContaining({ current: true })],
    });
    await succeed(server.app, '/guest/read', as(phone));

    const ended = disconnected(phoneSocket);
    const answer = await succeed(server.app, '/guest/logoutSession', { ...as(guest), session: { id: phoneId } });
    expect(await ended).toBe('io server disconnect');
    expect((answer.sessions as SignedInDevice[]).map((device) => device.current)).toEqual([true]);
    expect(await fail(server.app, '/guest/read', as(phone))).toBe(SIGNED_OUT);
    await expect(RelayClient.connect(server.url, { guest: credentials(phone) })).rejects.toThrow(RELAY_REFUSED);
    expect(hereSocket.socket.connected).toBe(true);
    expect(strangerSocket.socket.connected).toBe(true);
    await succeed(server.app, '/guest/logoutSession', { ...as(guest), session: { id: phoneId } });
    expect(await fail(server.app, '/guest/logoutSession', { ...as(guest), session: { id: 'not an id' } })).toBe('The request is invalid: session.id.');
  });

  it('everywhere ends every session of the guest, this one too, and all their sockets', async () => {
    const guest = await signUp(server.app);
    const phone = await signInFrom(guest, ANDROID_CHROME);
    const stranger = await signUp(server.app);
    const strangerSocket = await connect(stranger);
    const endings = [disconnected(await connect(guest)), disconnected(await connect(phone))];
    await succeed(server.app, '/guest/logoutEverywhere', as(phone));
    expect(await Promise.all(endings)).toEqual(['io server disconnect', 'io server disconnect']);
    expect(await fail(server.app, '/guest/read', as(guest))).toBe(SIGNED_OUT);
    expect(await fail(server.app, '/guest/read', as(phone))).toBe(SIGNED_OUT);
    expect(strangerSocket.socket.connected).toBe(true);
  });
});

describe('a facilitator’s session', () => {
  it('is refused every call that makes or reads a credential or changes the sign-ins, in either language; the guest sees it listed', async () => {
    const guest = await signUp(server.app);
    const facilitator = await facilitatorOf(guest);
    const refusedCalls: [string, Record<string, unknown>][] = [
      ['/guest/readSessions', as(facilitator)],
      ['/guest/logoutSession', { ...as(facilitator), session: { id: 1 } }],
      ['/guest/logoutEverywhere', as(facilitator)],
      ['/guest/regenerateWebhookToken', as(facilitator)],
      ['/guest/readTriggerSecret', as(facilitator)],
      ['/guest/regenerateTriggerSecret', as(facilitator)],
      ['/guest/regenerateCalendarFeed', as(facilitator)],
    ];
    for (const [path, body] of refusedCalls) expect(await fail(server.app, path, body), path).toBe(FACILITATOR_REFUSED);
    expect(await fail(server.app, '/guest/readTriggerSecret', as(facilitator, 'ja'))).toBe(
      'ファシリテーターはこの操作をできません。メールアドレス・パスワード・電話番号・お支払いの変更、カレンダー用のアドレス・Webhookアドレス・署名シークレットの作成と表示、ログイン中の端末の表示とログアウト、アカウントの書き出しと削除は、ご本人だけが操作できます。',
    );
    // What helps the guest without a credential it may still do.
    await succeed(server.app, '/guest/read', as(facilitator));
    await succeed(server.app, '/guest/triggerDeliveries', as(facilitator));
    await succeed(server.app, '/guest/removeCalendarFeed', as(facilitator));
    // Nothing was made: the guest's own session reads a secret of its own, and sees the facilitator's sign-in.
    await succeed(server.app, '/guest/readTriggerSecret', as(guest));
    expect((await devicesOf(guest)).map((device) => device.facilitator)).toEqual([true, false]);
  });

  it('ends four hours after it began however much it is used, and its sockets with it', async () => {
    const guest = await signUp(server.app);
    const facilitator = await facilitatorOf(guest);
    const socket = await connect(facilitator);
    for (let at = 30 * MINUTE; at < FACILITATOR_SESSION_MS; at += 30 * MINUTE) {
      server.clock.offsetMs = at;
      await succeed(server.app, '/guest/read', as(facilitator));
    }
    const ended = disconnected(socket);
    server.clock.offsetMs = FACILITATOR_SESSION_MS;
    expect(await fail(server.app, '/guest/read', as(facilitator))).toBe(SIGNED_OUT);
    await server.app.endExpiredSessions();
    expect(await ended).toBe('io server disconnect');
    // The guest's own session goes on.
    await succeed(server.app, '/guest/read', as(guest));
    expect((await devicesOf(guest)).map((device) => device.facilitator)).toEqual([false]);
  });
});

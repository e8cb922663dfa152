import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { IceServer } from '../../shared/api/warden.ts';
import { HOUR_MS, MINUTE_MS, SECOND_MS } from '../../shared/durations.ts';
import type { RelayAck, WebrtcHandshakeDelivered } from '../../shared/relay.ts';
import { loadConfig, ROOT_DIR } from '../config.ts';
import { startWardenSession } from '../services/wardens.ts';
import { apiBlock, bookJail, credentials, moveClockTo, readyGuest, succeed, useListeningTestServer, type TestGuest } from '../test/harness.ts';
import { createWarden } from '../test/console.ts';
import { RelayClient } from '../test/relay-client.ts';
import { TURN_CREDENTIAL_LIFETIME_MS } from './ice-servers.ts';

const SECRET = 'a-secret-shared-with-coturn-for-the-tests-0123456789';
const STUN = { urls: 'stun:stun.example:3478' };
const TURN_URLS = ['turns:turn.example:5349', 'turn:turn.example:3478?transport=udp'];
const server = useListeningTestServer({ iceServers: [STUN], turn: { urls: TURN_URLS, secret: SECRET } });
const clients: RelayClient[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  await moveClockTo(server.app, Date.now());
});

async function connectGuest(guest: TestGuest): Promise<RelayClient> {
  const client = await RelayClient.connect(server.url, { guest: credentials(guest) });
  clients.push(client);
  return client;
}

async function connectWarden(): Promise<{ client: RelayClient; wardenId: number; token: string }> {
  const warden = await createWarden(server);
  const token = await startWardenSession(server.app.db, warden.id, server.clock.now());
  const client = await RelayClient.connect(server.url, { warden: { token } });
  clients.push(client);
  return { client, wardenId: warden.id, token };
}

/** The TURN entry of a list, checked against coturn's rule: the password is base64(HMAC-SHA1(secret, username)), the username `<end in Unix seconds>:<user>`. */
function checkedTurn(servers: IceServer[] | undefined, user: string): { expiresAt: number } {
  expect(servers?.[0]).toEqual(STUN);
  const turn = servers?.[1];
  expect(turn?.urls).toEqual(TURN_URLS);
  const [expiry, named] = (turn?.username ?? '').split(':');
  expect(named).toBe(user);
  expect(turn?.credential).toBe(
    createHmac('sha1', SECRET)
      .update(turn?.username ?? '')
      .digest('base64'),
  );
  return { expiresAt: Number(expiry) * SECOND_MS };
}

function offer(to: string) {
  return { to, type: 'offer', description: { type: 'offer', sdp: 'v=0' } };
}

describe('TURN credentials', () => {
  it('go to nobody without a live jail: not at sign-in, not with the guest’s initialisation, not to a warden', async () => {
    const guest = await readyGuest(server.app);
    const reservation = await bookJail(server.app, guest, 2);
    const { client: console_, token } = await connectWarden();
    const read = await succeed(server.app, '/warden/read', { api: apiBlock(), warden: { token } });
    expect(read).not.toHaveProperty('iceServers');

    const device = await connectGuest(guest);
    const initialized = await device.send('initialize_from_guest', { api: { language: 'en', userAgent: 'test', version: 70 }, guest: { id: guest.id } });
    expect(initialized).toEqual({ ok: true, jail: null });
    expect(await console_.send('ice_servers_from_warden', { reservationId: reservation.id })).toEqual({ ok: false, error: 'This jail is not running.' });
    expect(await console_.send('webrtc_handshake', offer(`guest:${guest.id}`))).toEqual({ ok: false, error: 'Nobody is connected there to receive this.' });
    expect(device.all('webrtc_handshake')).toEqual([]);

    // Once the jail is over, none again (a console signed in then: the first one has gone idle meanwhile).
    await moveClockTo(server.app, reservation.startTime + MINUTE_MS);
    expect((await (await connectWarden()).client.send<RelayAck>('ice_servers_from_warden', { reservationId: reservation.id })).ok).toBe(true);
    await moveClockTo(server.app, reservation.endTime + MINUTE_MS);
    expect(await (await connectWarden()).client.send('ice_servers_from_warden', { reservationId: reservation.id })).toEqual({
      ok: false,
      error: 'This jail is not running.',
    });
  });

  it('are made for each call while the jail is live, by coturn’s shared-secret rule, and end within hours', async () => {
    const guest = await readyGuest(server.app);
    const reservation = await bookJail(server.app, guest, 2);
    await moveClockTo(server.app, reservation.startTime + MINUTE_MS);
    const now = server.clock.now();
    const device = await connectGuest(guest);
    const { client: console_, wardenId } = await connectWarden();

    const forWarden = await console_.send<RelayAck & { iceServers: IceServer[] }>('ice_servers_from_warden', { reservationId: reservation.id });
    const wardenTurn = checkedTurn(forWarden.iceServers, `warden-${wardenId}`);
    expect(wardenTurn.expiresAt).toBeGreaterThan(now);
    expect(wardenTurn.expiresAt).toBeLessThanOrEqual(now + TURN_CREDENTIAL_LIFETIME_MS + SECOND_MS);
    expect(TURN_CREDENTIAL_LIFETIME_MS).toBeLessThanOrEqual(4 * HOUR_MS);

    // The guest gets its own with the warden's offer, and nothing more with the rest of the call.
    const offered = device.next<WebrtcHandshakeDelivered>('webrtc_handshake');
    expect(await console_.send('webrtc_handshake', offer(`guest:${guest.id}`))).toEqual({ ok: true });
    const guestTurn = checkedTurn((await offered).iceServers, `guest-${guest.id}`);
    expect(guestTurn.expiresAt).toBe(wardenTurn.expiresAt);
    const candidate = device.next<WebrtcHandshakeDelivered>('webrtc_handshake');
    await console_.send('webrtc_handshake', {
      to: `guest:${guest.id}`,
      type: 'candidate',
      candidate: { candidate: 'candidate:1 1 udp 1 192.0.2.1 9 typ host' },
    });
    expect(await candidate).not.toHaveProperty('iceServers');

    // A later call gets credentials that end later.
    await moveClockTo(server.app, now + 10 * MINUTE_MS);
    const later = await console_.send<RelayAck & { iceServers: IceServer[] }>('ice_servers_from_warden', { reservationId: reservation.id });
    expect(checkedTurn(later.iceServers, `warden-${wardenId}`).expiresAt).toBeGreaterThan(wardenTurn.expiresAt);
  });
});

describe('the TURN configuration', () => {
  it('takes STUN servers in ICE_SERVERS and TURN servers with their shared secret in TURN_URLS and TURN_SECRET', () => {
    expect(loadConfig({}).turn).toBeNull();
    expect(loadConfig({ TURN_URLS: TURN_URLS.join(', '), TURN_SECRET: SECRET }).turn).toEqual({ urls: TURN_URLS, secret: SECRET });
    expect(() => loadConfig({ TURN_URLS: 'turn:turn.example' })).toThrow('Set both TURN_URLS and TURN_SECRET, or neither.');
    expect(() => loadConfig({ TURN_SECRET: SECRET })).toThrow('Set both TURN_URLS and TURN_SECRET, or neither.');
    expect(() => loadConfig({ TURN_URLS: 'stun:turn.example', TURN_SECRET: SECRET })).toThrow(/TURN_URLS must be turn: or turns: URLs/);
    expect(() => loadConfig({ TURN_URLS: 'turn:turn.example', TURN_SECRET: 'short' })).toThrow(/TURN_SECRET must be at least 32 characters/);
  });

  it('refuses a TURN server or a fixed username and password in ICE_SERVERS', () => {
    const fixed = [{ urls: 'turn:turn.example:3478', username: 'u', credential: 'p' }];
    expect(() => loadConfig({ ICE_SERVERS: JSON.stringify(fixed) })).toThrow(/ICE_SERVERS takes STUN servers only/);
    expect(() => loadConfig({ ICE_SERVERS: '[{"urls":["stun:a","turns:b"]}]' })).toThrow(/ICE_SERVERS takes STUN servers only/);
    expect(() => loadConfig({ ICE_SERVERS: '[{"urls":"stun:a","credential":"p"}]' })).toThrow(/ICE_SERVERS takes STUN servers only/);
  });

  it('the README’s examples are taken as they are, with no username or password in them', () => {
    const readme = readFileSync(`${ROOT_DIR}README.md`, 'utf8');
    const row = (name: string) => readme.split('\n').find((line) => line.startsWith(`| \`${name}\` |`)) ?? '';
    const iceServers = /`(\[\{[^`]*\])`/.exec(row('ICE_SERVERS'))?.[1] ?? '';
    expect(iceServers).not.toMatch(/username|credential/);
    const config = loadConfig({ ICE_SERVERS: iceServers, TURN_URLS: /`(turns?:[^`]*)`/.exec(row('TURN_URLS'))?.[1], TURN_SECRET: SECRET });
    expect(config.iceServers.length).toBeGreaterThan(0);
    expect(config.turn?.urls.length).toBeGreaterThan(0);
  });
});

import type { AddressInfo } from 'node:net';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Reservation } from '../../../shared/api/reservation.ts';
import { apiBlock, bookJail, credentials, fail, readyGuest, signUp, succeed, useTestServer } from '../../../server/test/harness.ts';
import { GuestRelay, RelayRefusedError } from './guest-relay.ts';

/**
 * The guest's relay client against a real, listening server: events are
 * kept until acknowledged and sent again after a drop (stored once), a
 * refusal comes back in the server's words, and a relay gone for good calls
 * `onConnectionLost`.
 */

const server = useTestServer();
let url = '';
const relays: GuestRelay[] = [];

beforeAll(async () => {
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
});

afterEach(() => {
  for (const relay of relays.splice(0)) relay.close();
});

async function liveJail() {
  const guest = await readyGuest(server.app);
  const reservation = await bookJail(server.app, guest, 2);
  await server.app.inject({ method: 'POST', url: '/dev/clock', payload: { offsetMs: reservation.startTime + 60_000 - Date.now() } });
  return { guest, reservation };
}

function relayFor(session: { id: number; token: string }, onConnectionLost: () => void = () => undefined, at = url) {
  const relay = new GuestRelay({
    url: at,
    session,
    language: () => 'en',
    onConnectionLost,
    extraHeaders: { origin: url },
    reconnection: { delayMs: 100, delayMaxMs: 200, attempts: 3 },
    ackTimeoutMs: 2_000,
  });
  relays.push(relay);
  return relay;
}

const connected = (relay: GuestRelay) =>
  new Promise<void>((resolve) => (relay.socket.connected ? resolve() : relay.socket.once('connect', () => resolve())));

describe('the guest relay client', () => {
  it('ends with its session: connecting again is refused at the handshake, the socket stops trying, and the guest reads as signed out', async () => {
    const guest = await signUp(server.app);
    const relay = relayFor(credentials(guest));
    await connected(relay);
    const dropped = new Promise<string>((resolve) => relay.socket.once('disconnect', resolve));
    await succeed(server.app, '/guest/logout', { api: apiBlock(), guest: credentials(guest) });
    expect(await dropped).toBe('io server disconnect');
    // Connecting again after a server-side disconnect, as the page does: refused.
    const refused = new Promise<Error>((resolve) => relay.socket.once('connect_error', resolve));
    relay.socket.connect();
    expect((await refused).message).toBe('Please sign in again to connect.');
    expect(relay.socket.active).toBe(false);
    // What the page then reads (useGuestRelay: refreshGuest) signs it out.
    expect(await fail(server.app, '/guest/read', { api: apiBlock(), guest: credentials(guest) })).toBe('You are signed out. Please sign in again.');
  });

  it('initializes, keeps events until acknowledged, and sends them again after a drop: each stored once', async () => {
    const { guest, reservation } = await liveJail();
    const relay = relayFor(credentials(guest));
    await connected(relay);
    expect((await relay.initialize('vitest', 70))?.reservationId).toBe(reservation.id);
    expect(await relay.sendLogged('motion_event_from_guest', { motion: { type: 1 } })).toEqual({ ok: true });

    // The connection drops; events sent meanwhile wait, and go when it is back.
    relay.socket.io.engine.close();
    const during = Array.from({ length: 5 }, () => relay.sendLogged('motion_event_from_guest', { motion: { type: 1 } }));
    expect(relay.waiting).toBeGreaterThanOrEqual(5);
    expect(await Promise.all(during)).toEqual(Array.from({ length: 5 }, () => ({ ok: true })));
    expect(relay.waiting).toBe(0);

    const read = await succeed(server.app, '/reservation/read', { api: apiBlock(), guest: credentials(guest), reservation: { id: reservation.id } });
    expect((read.reservation as Reservation).activityLogs.filter((log) => log.type === 'motion')).toHaveLength(6);
  });

  it("rejects a refused event with the server's words and does not keep it", async () => {
    const { guest } = await liveJail();
    const relay = relayFor(credentials(guest));
    await connected(relay);
    await expect(relay.sendLogged('jail_finish_early_from_guest', { reservation: { id: 999_999 }, instruction: { text: 'x' } })).rejects.toThrow(
      new RelayRefusedError('No jail of yours is running now.'),
    );
    expect(relay.waiting).toBe(0);
  });

  it('calls onConnectionLost when the relay stays away through every reconnect attempt', async () => {
    const { guest } = await liveJail();
    // Nobody listens on the discard port: the first connection and every retry fail.
    await new Promise<void>((resolve) => relayFor(credentials(guest), () => resolve(), 'http://127.0.0.1:9'));
  });
});

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from 'socket.io';
import { afterEach, describe, expect, it } from 'vitest';
import type { Reservation } from '../../../shared/api/reservation.ts';
import { apiBlock, bookJail, credentials, fail, readyGuest, succeed, useListeningTestServer } from '../../../server/test/harness.ts';
import { RELAY_PATH } from '../../../shared/relay.ts';
import { GuestRelay, RelayRefusedError, type GuestRelayOptions } from './guest-relay.ts';

/**
 * The guest's relay client against a real, listening server: events are
 * kept until acknowledged and sent again after a drop (stored once), a
 * refusal comes back in the server's words, and a relay gone for good calls
 * `onConnectionLost`.
 */

const server = useListeningTestServer();
const relays: GuestRelay[] = [];

afterEach(() => {
  for (const relay of relays.splice(0)) relay.close();
});

async function liveJail() {
  const guest = await readyGuest(server.app);
  const reservation = await bookJail(server.app, guest, 2);
  await server.app.inject({ method: 'POST', url: '/dev/clock', payload: { offsetMs: reservation.startTime + 60_000 - Date.now() } });
  return { guest, reservation };
}

function relayFor(
  session: { id: number; token: string },
  onConnectionLost: () => void = () => undefined,
  at = server.url,
  more: Pick<GuestRelayOptions, 'onRefused' | 'onConnected'> = {},
) {
  const relay = new GuestRelay({
    url: at,
    session,
    language: () => 'en',
    onConnectionLost,
    ...more,
    extraHeaders: { origin: server.url },
    reconnection: { delayMs: 100, delayMaxMs: 200, attempts: 3 },
    ackTimeoutMs: 2_000,
  });
  relays.push(relay);
  return relay;
}

async function until(condition: () => Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 20));
}

const connected = (relay: GuestRelay) => new Promise<void>((resolve) => (relay.socket.connected ? resolve() : relay.socket.once('connect', () => resolve())));

describe('the guest relay client', () => {
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

  it('reconnects after the server hung up, sends what it kept, and only then calls onConnected', async () => {
    const { guest, reservation } = await liveJail();
    const waitingWhenConnected: number[] = [];
    const relay: GuestRelay = relayFor(credentials(guest), undefined, server.url, { onConnected: () => waitingWhenConnected.push(relay.waiting) });
    await connected(relay);
    await relay.initialize('vitest', 70);

    // The server ends the socket (socket.io's own hang-up): socket.io alone would stay away for good.
    const hungUp = new Promise((resolve) => relay.socket.once('disconnect', resolve));
    server.app.relay.in(`guest:${guest.id}`).disconnectSockets(true);
    expect(await hungUp).toBe('io server disconnect');
    const leave = relay.sendLogged('jail_status_from_guest', { jailStatus: 'leaving' });
    expect(await leave).toEqual({ ok: true });
    // Each connection's onConnected came once the kept events were answered.
    await until(async () => waitingWhenConnected.length === 2);
    expect(waitingWhenConnected).toEqual([0, 0]);

    const read = await succeed(server.app, '/reservation/read', { api: apiBlock(), guest: credentials(guest), reservation: { id: reservation.id } });
    const answers = (read.reservation as Reservation).activityLogs.filter((log) => log.type === 'dialog' && log.dialog.text.startsWith('All right.'));
    expect(answers).toHaveLength(1);
  });

  it('ends with its session: the reconnect is refused at the handshake with the server’s words, it stops, and the guest reads as signed out', async () => {
    const { guest } = await liveJail();
    let refusals: string[] = [];
    const refused = new Promise<void>((resolve) => {
      relayFor(credentials(guest), undefined, server.url, {
        onRefused: (reason) => {
          refusals.push(reason);
          resolve();
        },
      });
    });
    await until(() =>
      server.app.relay
        .in(`guest:${guest.id}`)
        .fetchSockets()
        .then((sockets) => sockets.length === 1),
    );
    // Signing out ends the session's sockets; the relay connects again by itself and is refused.
    await succeed(server.app, '/guest/logout', { api: apiBlock(), guest: credentials(guest) });
    await refused;
    expect(refusals).toEqual(['Please sign in again to connect.']);
    // Given up: no reconnect after the refusal.
    refusals = [];
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(relays.at(-1)?.socket.active).toBe(false);
    expect(refusals).toEqual([]);
    // What the page then reads (useGuestRelay: refreshGuest) signs it out.
    expect(await fail(server.app, '/guest/read', { api: apiBlock(), guest: credentials(guest) })).toBe('You are signed out. Please sign in again.');
  });

  it('sends an event again when its ack does not come in time on a connection that holds', async () => {
    // A relay too busy to answer the first copy in time: it answers only the second.
    const http = createServer();
    const io = new Server(http, { path: RELAY_PATH });
    const received: string[] = [];
    io.on('connection', (socket) => {
      socket.on('motion_event_from_guest', (payload: { eventId: string }, ack: (answer: { ok: true }) => void) => {
        received.push(payload.eventId);
        if (received.length > 1) ack({ ok: true });
      });
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    try {
      const relay = new GuestRelay({
        url: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
        session: { id: 1, token: 'token' },
        language: () => 'en',
        onConnectionLost: () => undefined,
        ackTimeoutMs: 200,
      });
      relays.push(relay);
      let drops = 0;
      relay.socket.on('disconnect', () => (drops += 1));
      await connected(relay);
      expect(await relay.sendLogged('motion_event_from_guest', { motion: { type: 1 } })).toEqual({ ok: true });
      expect(received).toHaveLength(2);
      expect(received[1]).toBe(received[0]);
      expect(drops).toBe(0);
      expect(relay.waiting).toBe(0);
    } finally {
      await io.close();
    }
  });

  it('calls onConnectionLost when the relay stays away through every reconnect attempt', async () => {
    const { guest } = await liveJail();
    // Nobody listens on the discard port: the first connection and every retry fail.
    await new Promise<void>((resolve) => relayFor(credentials(guest), () => resolve(), 'http://127.0.0.1:9'));
  });
});

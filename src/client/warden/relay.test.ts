import type { Socket } from 'socket.io';
import { io } from 'socket.io-client';
import { afterEach, describe, expect, it } from 'vitest';
import { RELAY_PATH } from '../../shared/relay.ts';
import { jailRoom } from '../../server/jail/relay-sockets.ts';
import { signedInWarden } from '../../server/test/console.ts';
import { apiBlock, bookJail, moveClockTo, readyGuest, succeed, useListeningTestServer } from '../../server/test/harness.ts';
import { jailOpening } from './consoleSlice.ts';
import { makeConsoleStore, type ConsoleStore } from './store.ts';
import { openJailAtRelay, wireRelay, type WardenSocket } from './relay.ts';

/**
 * The console's relay against a real, listening server: it reconnects after
 * the server hung up on it (a server stopping, or one that ends its
 * session), and stops, handing over to `onRefused`, only when the handshake
 * of the reconnect is refused. It opens a jail until the relay answers,
 * and again after a reconnect.
 */

const server = useListeningTestServer();
const sockets: WardenSocket[] = [];
let wardenCount = 0;

afterEach(() => {
  for (const socket of sockets.splice(0)) socket.disconnect();
});

async function wardenToken(): Promise<string> {
  wardenCount += 1;
  return (await signedInWarden(server, `10.21.0.${wardenCount}`)).token;
}

/** How long an open waits for an answer here: the relay of this test answers in milliseconds. */
const REOPEN_ACK_TIMEOUT_MS = 500;

/**
 * A console's socket as `connectRelay` makes it, with this server's address
 * and Origin, wired to a fresh store; `prepare` sets the store up before the
 * socket connects.
 */
function openConsole(token: string, onRefused: () => void = () => undefined, prepare: (store: ConsoleStore) => void = () => undefined) {
  const socket: WardenSocket = io(server.url, {
    path: RELAY_PATH,
    auth: { warden: { token, language: 'en' } },
    transports: ['websocket'],
    extraHeaders: { origin: server.url },
    forceNew: true,
  });
  sockets.push(socket);
  const store = makeConsoleStore();
  prepare(store);
  const statuses: string[] = [];
  store.subscribe(() => {
    const status = store.getState().console.relay;
    if (statuses.at(-1) !== status) statuses.push(status);
  });
  wireRelay(socket, store, onRefused, REOPEN_ACK_TIMEOUT_MS);
  return { socket, store, statuses };
}

async function until(condition: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 20));
}

const wardenSockets = () => server.app.relay.in('wardens').fetchSockets();

/**
 * Counts the `open_jail_from_warden` the relay receives from now on, and
 * leaves the first `unanswered` of them unanswered, as a server still
 * starting would. Returns the count so far and the way to stop.
 */
function watchOpens(unanswered: number): { opens: () => number; stop: () => void } {
  let opens = 0;
  const onConnection = (socket: Socket) => {
    socket.use(([event], next) => {
      if (event !== 'open_jail_from_warden') return next();
      opens += 1;
      if (opens > unanswered) next();
    });
  };
  server.app.relay.on('connection', onConnection);
  return { opens: () => opens, stop: () => server.app.relay.off('connection', onConnection) };
}

describe('the console relay', () => {
  it('reconnects after the server hung up on it, and reads the live list again', async () => {
    const { socket, store, statuses } = openConsole(await wardenToken());
    let lists = 0;
    socket.on('live_jails_to_warden', () => (lists += 1));
    await until(() => lists === 1);
    const hungUp = new Promise((resolve) => socket.once('disconnect', resolve));
    server.app.relay.in('wardens').disconnectSockets(true);
    expect(await hungUp).toBe('io server disconnect');
    await until(() => socket.connected && statuses.length === 3);
    expect(statuses).toEqual(['connected', 'reconnecting', 'connected']);
    await until(() => lists === 2);
    expect((await wardenSockets()).length).toBe(1);
    expect(store.getState().console.relay).toBe('connected');
  });

  it('stops and calls onRefused when the handshake of the reconnect is refused (the session ended)', async () => {
    const token = await wardenToken();
    let refusals = 0;
    const { socket, statuses } = openConsole(token, () => (refusals += 1));
    await until(() => socket.connected);
    await succeed(server.app, '/warden/logout', { api: apiBlock(), warden: { token } });
    server.app.relay.in('wardens').disconnectSockets(true);
    await until(() => refusals === 1);
    expect(socket.active).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(refusals).toBe(1);
    expect(socket.connected).toBe(false);
    expect(statuses).toEqual(['connected', 'reconnecting']);
  });

  it('opens its jail again after a reconnect, and asks again when the relay did not answer', async () => {
    const guest = await readyGuest(server.app);
    const reservation = await bookJail(server.app, guest, 1);
    await moveClockTo(server.app, reservation.startTime + 60_000);
    const watch = watchOpens(1);
    try {
      // A store with a jail open when its socket connects: what a reconnect finds.
      const { store } = openConsole(await wardenToken(), undefined, (console_) => console_.dispatch(jailOpening(reservation.id)));
      await until(() => store.getState().console.openJail?.phase === 'open');
      expect(watch.opens()).toBe(2);
      expect(store.getState().console.openJail?.jail?.reservationId).toBe(reservation.id);
      expect(await server.app.relay.in(jailRoom(reservation.id)).fetchSockets()).toHaveLength(1);
      expect(store.getState().console.error).toBeNull();
    } finally {
      watch.stop();
    }
  });

  it('opens a jail the warden opened while the relay was away once it is back', async () => {
    const guest = await readyGuest(server.app);
    const reservation = await bookJail(server.app, guest, 3);
    await moveClockTo(server.app, reservation.startTime + 60_000);
    const { socket, store } = openConsole(await wardenToken());
    await until(() => socket.connected);
    const watch = watchOpens(0);
    try {
      const hungUp = new Promise((resolve) => socket.once('disconnect', resolve));
      server.app.relay.in('wardens').disconnectSockets(true);
      await hungUp;
      // The warden's Open meanwhile: nothing to send it on yet, and the panel waits.
      store.dispatch(jailOpening(reservation.id));
      await openJailAtRelay(socket, store, REOPEN_ACK_TIMEOUT_MS);
      expect(store.getState().console.openJail?.phase).toBe('opening');
      await until(() => store.getState().console.openJail?.phase === 'open');
      expect(watch.opens()).toBe(1);
      expect(await server.app.relay.in(jailRoom(reservation.id)).fetchSockets()).toHaveLength(1);
    } finally {
      watch.stop();
    }
  });

  it('shows the refusal of a jail that is not running, asks no more, and closes a jail never opened', async () => {
    const watch = watchOpens(0);
    try {
      const { store } = openConsole(await wardenToken(), undefined, (console_) => console_.dispatch(jailOpening(999_999)));
      await until(() => store.getState().console.error !== null);
      expect(store.getState().console.error).toBe('This jail is not running.');
      expect(store.getState().console.openJail).toBeNull();
      await new Promise((resolve) => setTimeout(resolve, 2 * REOPEN_ACK_TIMEOUT_MS));
      expect(watch.opens()).toBe(1);
    } finally {
      watch.stop();
    }
  });
});

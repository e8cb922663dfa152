import { io } from 'socket.io-client';
import { afterEach, describe, expect, it } from 'vitest';
import { RELAY_PATH } from '../../shared/relay.ts';
import { signedInWarden } from '../../server/test/console.ts';
import { apiBlock, succeed, useListeningTestServer } from '../../server/test/harness.ts';
import { makeConsoleStore } from './store.ts';
import { wireRelay, type WardenSocket } from './relay.ts';

/**
 * The console's relay against a real, listening server: it reconnects after
 * the server hung up on it (a server stopping, or one that ends its
 * session), and stops, handing over to `onRefused`, only when the handshake
 * of the reconnect is refused.
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

/** A console's socket as `connectRelay` makes it, with this server's address and Origin, wired to a fresh store. */
function openConsole(token: string, onRefused: () => void = () => undefined) {
  const socket: WardenSocket = io(server.url, {
    path: RELAY_PATH,
    auth: { warden: { token, language: 'en' } },
    transports: ['websocket'],
    extraHeaders: { origin: server.url },
    forceNew: true,
  });
  sockets.push(socket);
  const store = makeConsoleStore();
  const statuses: string[] = [];
  store.subscribe(() => {
    const status = store.getState().console.relay;
    if (statuses.at(-1) !== status) statuses.push(status);
  });
  wireRelay(socket, store, onRefused);
  return { socket, store, statuses };
}

async function until(condition: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 20));
}

const wardenSockets = () => server.app.relay.in('wardens').fetchSockets();

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
});

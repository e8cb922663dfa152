import type { ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { GuestRelay } from '../../client/features/jail/guest-relay.ts';
import type { Reservation } from '../../shared/api/reservation.ts';
import type { ActivityLogEntry } from '../../shared/relay.ts';
import {
  bookOver,
  freePort,
  killed,
  PASS_DATABASE,
  postApi,
  readyGuestOver,
  setClockOver,
  startServerProcess,
  stopGracefully,
  waitUntilUp,
} from '../test/server-process.ts';
import { freshServerData } from '../test/server-data.ts';
import { RelayClient } from '../test/relay-client.ts';
import { TcpProxy } from '../test/tcp-proxy.ts';

/**
 * A live jail through restarts of its server (docs/jail.md, Restarts): the
 * guest's own relay client (the page's, with its reconnect schedule)
 * reaches the server through one address, as it would through a load
 * balancer. A graceful stop (SIGTERM) closes the transports, so that the
 * client reconnects by itself; a crash (SIGKILL) drops them. A command sent
 * while the server is away is stored once when it is back, also when the
 * crash came after the server had stored it but before its ack arrived; the
 * resume the device gets afterwards says the status the server has.
 */

/** The Warden's answers to a leave and to the way back: one per stored status change. */
const LEAVE_ANSWER = 'All right. Please be back within 5 minutes.';
const BACK_ANSWER = 'Welcome back. Let us carry on.';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function logsOf(baseUrl: string, guest: { id: number; token: string }, reservationId: number): Promise<ActivityLogEntry[]> {
  const answer = await postApi(baseUrl, '/reservation/read', { guest, reservation: { id: reservationId } });
  expect(answer.api).toEqual({ status: 'success' });
  return (answer.reservation as Reservation).activityLogs;
}

function countSaid(logs: ActivityLogEntry[], text: string): number {
  return logs.filter((log) => log.type === 'dialog' && log.dialog.text === text).length;
}

function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return (async () => {
    while (!(await condition())) {
      if (Date.now() > deadline) throw new Error(`still waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
}

describe(`a live jail through restarts of its server on ${PASS_DATABASE}`, () => {
  it('SIGTERM and SIGKILL: the guest reconnects by itself; a command sent meanwhile is stored once; the resume says the server’s status', async () => {
    const env = await freshServerData(cleanups);
    const port = await freePort();
    const direct = `http://127.0.0.1:${port}`;
    let server: ChildProcess = startServerProcess(port, env);
    cleanups.push(() => killed(server));
    await waitUntilUp(port);
    const proxy = await TcpProxy.start([port]);
    cleanups.push(() => proxy.close());

    const guest = await readyGuestOver(direct);
    const jail = await bookOver(direct, guest, 2);
    const inside = jail.startTime + 60_000;
    await setClockOver(direct, inside);

    let starts = 0;
    const resumes: string[] = [];
    const disconnects: { reason: string; active: boolean }[] = [];
    const relay: GuestRelay = new GuestRelay({
      url: proxy.url,
      session: guest,
      language: () => 'en',
      onConnectionLost: () => undefined,
      onConnected: () => void relay.initialize('vitest', 70).catch(() => undefined),
      extraHeaders: { origin: proxy.url },
    });
    cleanups.push(async () => relay.close());
    relay.socket.on('jail_start_to_guest', () => (starts += 1));
    relay.socket.on('jail_resume_to_guest', ({ guest: { jailStatus } }) => resumes.push(jailStatus));
    relay.socket.on('disconnect', (reason) => disconnects.push({ reason, active: relay.socket.active }));
    // The first connection is the device's first entry: the start, no resume.
    await until(() => starts === 1, 'the first entry');

    /** The server goes (the proxy takes no connection meanwhile), and comes back on the same data with its test clock set. */
    const restart = async (signal: 'SIGTERM' | 'SIGKILL', duringOutage: () => void = () => undefined) => {
      proxy.accepting = false;
      const gone = disconnects.length;
      if (signal === 'SIGTERM') await stopGracefully(server);
      else await killed(server);
      await until(() => disconnects.length > gone, 'the drop');
      duringOutage();
      server = startServerProcess(port, env);
      await waitUntilUp(port);
      await setClockOver(direct, inside + 60_000);
      proxy.accepting = true;
    };

    // A graceful stop: the transport closes (not socket.io's hang-up), so the client reconnects; the leave waits for it.
    let leave: Promise<unknown> = Promise.resolve();
    await restart('SIGTERM', () => {
      leave = relay.sendLogged('jail_status_from_guest', { jailStatus: 'leaving' });
    });
    expect(disconnects).toEqual([{ reason: 'transport close', active: true }]);
    expect(await leave).toEqual({ ok: true });
    await until(() => resumes.length === 1, 'the resume after SIGTERM');
    expect(resumes).toEqual(['leaving']);
    expect(countSaid(await logsOf(direct, guest, jail.id), LEAVE_ANSWER)).toBe(1);

    // A crash after the server stored the way back but before its ack reached the device: the device's retry is a no-op.
    proxy.dropReplies = true;
    const back = relay.sendLogged('jail_status_from_guest', { jailStatus: 'injail' });
    await until(async () => countSaid(await logsOf(direct, guest, jail.id), BACK_ANSWER) === 1, 'the way back stored');
    await restart('SIGKILL', () => {
      proxy.dropReplies = false;
    });
    expect(disconnects.map(({ active }) => active)).toEqual([true, true]);
    expect(await back).toEqual({ ok: true, duplicate: true });
    await until(() => resumes.length === 2, 'the resume after SIGKILL');
    expect(resumes).toEqual(['leaving', 'injail']);
    const logs = await logsOf(direct, guest, jail.id);
    expect(countSaid(logs, LEAVE_ANSWER)).toBe(1);
    expect(countSaid(logs, BACK_ANSWER)).toBe(1);
    expect(relay.waiting).toBe(0);
  }, 180_000);

  it('a graceful stop does not wait on a client that does not answer the close', async () => {
    const env = await freshServerData(cleanups);
    const port = await freePort();
    const server = startServerProcess(port, env);
    cleanups.push(() => killed(server));
    await waitUntilUp(port);
    const guest = await readyGuestOver(`http://127.0.0.1:${port}`);
    const proxy = await TcpProxy.start([port]);
    cleanups.push(() => proxy.close());
    const device = await RelayClient.connect(proxy.url, { guest });
    cleanups.push(async () => device.close());
    // The device hears nothing more, so it never answers the server's close of its transport.
    proxy.dropReplies = true;
    const stopping = Date.now();
    await stopGracefully(server);
    expect(server.signalCode, 'not killed after stopGracefully’s 10 s').toBeNull();
    expect(Date.now() - stopping).toBeLessThan(8_000);
  }, 60_000);
});

import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GuestRelay } from '../../client/features/jail/guest-relay.ts';
import type { Reservation } from '../../shared/api/reservation.ts';
import type { GuestJail, LiveJail, RelayAck } from '../../shared/relay.ts';
import { ROOT_DIR } from '../config.ts';
import type { OutboxRecord } from '../lib/outbox.ts';
import { eventId, RelayClient } from '../test/relay-client.ts';
import { adminQuery, freePort, stopGracefully } from '../test/server-process.ts';
import { TcpProxy } from '../test/tcp-proxy.ts';
import { signInWarden } from '../test/wardens.ts';

/**
 * Two real server processes on one PostgreSQL database and one Redis
 * (`npm test` starts both for the server suite's PostgreSQL pass): a jail
 * started by node A's scheduler reaches the guest's socket on node B through
 * the Redis adapter, and an event sent on B is stored once, as A reads it.
 * Only A's clock is moved into the jail, so B cannot be the one starting it.
 * Then, behind one address (a TCP proxy standing for a load balancer), a
 * guest on A moves to B when A stops, without a reload.
 */

const DATABASE_SERVER_URL = process.env.WARDEN_TEST_DATABASE_URL ?? '';
const REDIS_URL = process.env.WARDEN_TEST_REDIS_URL ?? '';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** Each server migrates the database and builds the app before it answers. */
const START_TIMEOUT_MS = 120_000;

interface Node {
  url: string;
  child: ChildProcess;
  /** What the process printed (warnings and errors), for the failure message. */
  output: string[];
}

const nodes: Node[] = [];
const clients: { close(): void }[] = [];
let proxy: TcpProxy | null = null;
let databaseName = '';
let dataDir = '';

/** Starts `node --import tsx src/server/main.ts` and waits until `/api/health` answers. */
async function startNode(name: string, databaseUrl: string): Promise<Node> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: ROOT_DIR,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      REDIS_URL,
      LOG_LEVEL: 'warn',
      TRUST_PROXY: '1',
      DATA_DIR: join(dataDir, name),
      NODE_ENV: 'test',
      WARDEN_DEV: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const node: Node = { url: `http://127.0.0.1:${port}`, child, output: [] };
  nodes.push(node);
  const keep = (chunk: Buffer) => node.output.push(chunk.toString());
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const deadline = Date.now() + START_TIMEOUT_MS - 5_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server ${name} exited with ${child.exitCode}:\n${node.output.join('')}`);
    try {
      const response = await fetch(`${node.url}/api/health`);
      if (response.ok) return node;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`server ${name} did not answer /api/health:\n${node.output.join('')}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function json<Answer>(response: Response): Promise<Answer> {
  expect(response.status, `${response.url} answered ${response.status}`).toBe(200);
  return (await response.json()) as Answer;
}

type ApiAnswer = { api: { status: string; errorMessage?: string } } & Record<string, unknown>;

/** `POST /api<path>` on a node from `address` (X-Forwarded-For, trusted under TRUST_PROXY=1); asserts success. */
async function succeed(node: Node, path: string, body: Record<string, unknown>, address: string): Promise<ApiAnswer> {
  const response = await fetch(`${node.url}/api${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
    body: JSON.stringify({ api: { language: 'en' }, ...body }),
  });
  const answer = await json<ApiAnswer>(response);
  expect(answer.api, `${path} should succeed`).toEqual({ status: 'success' });
  return answer;
}

async function lastMessageTo(node: Node, to: string): Promise<OutboxRecord> {
  const { messages } = await json<{ messages: OutboxRecord[] }>(await fetch(`${node.url}/dev/outbox`));
  const found = messages.findLast((record) => record.to === to);
  if (found === undefined) throw new Error(`no message to ${to} in ${node.url}/dev/outbox`);
  return found;
}

/** A guest who may book, made through the node's API as tests/helpers.ts `readyGuest` does. */
async function readyGuest(node: Node): Promise<{ id: number; token: string }> {
  const suffix = randomBytes(4).toString('hex');
  const address = `10.77.${randomInt(1, 250)}.${randomInt(1, 250)}`;
  const email = `cluster${suffix}@example.com`;
  const created = await succeed(
    node,
    '/guest/create',
    { guest: { title: `cluster${suffix}`, email, password: `cluster-password-${suffix}`, timezone: -540, language: 'en' } },
    address,
  );
  const guest = created.guest as { id: number; token: string };
  const link = /\/guest\/verifyEmail\/([A-Za-z0-9_-]+)/.exec((await lastMessageTo(node, email)).text)?.[1];
  await succeed(node, '/guest/verifyEmail', { guest: { token: link } }, address);
  const phone = `090${String(guest.id).padStart(8, '0')}`;
  await succeed(node, '/guest/requestPhoneCode', { guest: { ...guest, phone } }, address);
  const code = /\b(\d{6})\b/.exec((await lastMessageTo(node, phone)).text)?.[1];
  await succeed(node, '/guest/update', { guest: { ...guest, phone, phoneCode: code } }, address);
  return guest;
}

async function clockOf(node: Node): Promise<{ offsetMs: number; now: number }> {
  return json(await fetch(`${node.url}/dev/clock`));
}

/** Moves the node's clock to `time`; its scheduler has run at that time when this resolves. */
async function moveClockTo(node: Node, time: number): Promise<void> {
  await json(
    await fetch(`${node.url}/dev/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ offsetMs: time - Date.now() }),
    }),
  );
}

/** A console session on the node: a warden made by the admin command, signed in. */
async function wardenToken(node: Node): Promise<string> {
  const suffix = randomBytes(4).toString('hex');
  const email = `warden${suffix}@example.com`;
  const created = await fetch(`${node.url}/dev/admin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ args: ['create-warden', '--title', `warden${suffix}`, '--email', email] }),
  });
  const { lines } = await json<{ lines: string[] }>(created);
  const password = /: (\S+)$/.exec(lines[1] ?? '')?.[1];
  if (password === undefined) throw new Error(`no password in ${lines.join('\n')}`);
  const address = `10.78.${randomInt(1, 250)}.${randomInt(1, 250)}`;
  return (await signInWarden((path, body) => succeed(node, path, body, address), { email, password })).token;
}

type DialogEvent = { dialog: { type: 1; text: string; by: 'virtual' | 'human' } };

describe.runIf(DATABASE_SERVER_URL !== '' && REDIS_URL !== '')('two servers on one PostgreSQL and one Redis', () => {
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'warden-cluster-'));
    databaseName = `warden_cluster_${randomBytes(6).toString('hex')}`;
    await adminQuery(DATABASE_SERVER_URL, `create database ${databaseName}`);
    const databaseUrl = new URL(DATABASE_SERVER_URL);
    databaseUrl.pathname = `/${databaseName}`;
    // One after the other: the first migrates the fresh database, the second finds it migrated.
    await startNode('a', databaseUrl.toString());
    await startNode('b', databaseUrl.toString());
  }, 2 * START_TIMEOUT_MS);

  afterAll(async () => {
    for (const client of clients.splice(0)) client.close();
    await proxy?.close();
    await Promise.all(nodes.splice(0).map((node) => stopGracefully(node.child)));
    if (databaseName !== '') await adminQuery(DATABASE_SERVER_URL, `drop database if exists ${databaseName} with (force)`);
    if (dataDir !== '') rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('starts a jail on node A that reaches the guest connected to node B, and stores B’s events once', async () => {
    const [a, b] = nodes;
    if (a === undefined || b === undefined) throw new Error('both servers start in beforeAll');
    const guest = await readyGuest(a);
    const quarter = 15 * MINUTE;
    const startTime = Math.ceil(((await clockOf(a)).now + 2 * HOUR) / quarter) * quarter;
    const booked = await succeed(
      a,
      '/reservation/create',
      { guest, reservation: { work: 'Write the chapter', duration: 1, startTime, repeatType: 'none' } },
      '10.77.0.1',
    );
    const reservation = booked.reservation as Reservation;

    // The guest's device is on B, before the start: no jail yet.
    const device = await RelayClient.connect(b.url, { guest });
    clients.push(device);
    const initialize = { api: { language: 'en', userAgent: 'cluster test', version: 70 }, guest: { id: guest.id } };
    expect(await device.send<RelayAck & { jail: GuestJail | null }>('initialize_from_guest', initialize)).toEqual({ ok: true, jail: null });

    // Only A's clock moves into the jail: A's scheduler starts it, B's still runs on real time.
    const started = device.next<{ jail: GuestJail }>('jail_start_to_guest', (payload) => payload.jail.reservationId === reservation.id, 20_000);
    const greeting = device.next<DialogEvent>('warden_dialog_event_to_guest', () => true, 20_000);
    await moveClockTo(a, reservation.startTime + 1_000);
    expect((await clockOf(b)).offsetMs).toBe(0);
    expect(reservation.startTime).toBeGreaterThan((await clockOf(b)).now);
    // Awaited together, so that a missing start does not leave the greeting's timeout unhandled.
    const [start, spoken] = await Promise.all([started, greeting]);
    expect(start.jail).toMatchObject({ reservationId: reservation.id, work: 'Write the chapter', jailStatus: 'injail' });
    expect(spoken.dialog).toMatchObject({ type: 1, by: 'virtual' });
    expect(spoken.dialog.text).toContain('Write the chapter');

    // The way back: an event sent on B is stored once, as A reads it.
    const motion = { api: { language: 'en' }, guest: { id: guest.id }, eventId: eventId(), motion: { type: 1 } };
    expect(await device.send('motion_event_from_guest', motion)).toEqual({ ok: true });
    expect(await device.send('motion_event_from_guest', motion)).toEqual({ ok: true, duplicate: true });
    const read = await succeed(a, '/reservation/read', { guest, reservation: { id: reservation.id } }, '10.77.0.1');
    const logs = (read.reservation as Reservation).activityLogs;
    expect(logs.filter((log) => log.type === 'motion')).toEqual([expect.objectContaining({ motion: { type: 1, kind: 'motion' } })]);
    expect(logs).toContainEqual(expect.objectContaining({ type: 'dialog', dialog: { type: 1, text: spoken.dialog.text, by: 'virtual' } }));
  }, 60_000);

  it('moves a guest from a stopping server to the other without a reload; a command sent during the switch is stored once', async () => {
    const [a, b] = nodes;
    if (a === undefined || b === undefined) throw new Error('both servers start in beforeAll');
    const guest = await readyGuest(a);
    const quarter = 15 * MINUTE;
    const startTime = Math.ceil(((await clockOf(a)).now + 3 * HOUR) / quarter) * quarter;
    const booked = await succeed(
      a,
      '/reservation/create',
      { guest, reservation: { work: 'Outlast the deploy', duration: 1, startTime, repeatType: 'none' } },
      '10.77.0.2',
    );
    const reservation = booked.reservation as Reservation;
    // Both clocks inside the jail: whichever server the guest reaches sees it live.
    await moveClockTo(a, reservation.startTime + 1_000);
    await moveClockTo(b, reservation.startTime + 1_000);

    // One address for both servers, A first: the guest's device reaches A.
    const ports = [a, b].map((node) => Number(new URL(node.url).port));
    proxy = await TcpProxy.start(ports);
    const front = proxy.url;
    let starts = 0;
    const resumes: string[] = [];
    const disconnects: string[] = [];
    const relay: GuestRelay = new GuestRelay({
      url: front,
      session: guest,
      language: () => 'en',
      onConnectionLost: () => undefined,
      onConnected: () => void relay.initialize('cluster test', 70).catch(() => undefined),
      extraHeaders: { origin: front },
    });
    clients.push(relay);
    relay.socket.on('jail_start_to_guest', () => (starts += 1));
    relay.socket.on('jail_resume_to_guest', ({ guest: { jailStatus } }) => resumes.push(jailStatus));
    relay.socket.on('disconnect', (reason) => disconnects.push(reason));
    await expect.poll(() => starts, { timeout: 20_000 }).toBe(1);
    expect(proxy.lastTarget).toBe(ports[0]);

    // A stops; the device drops, the leave it sends meanwhile waits, and both reach B.
    await stopGracefully(a.child);
    await expect.poll(() => disconnects).toEqual(['transport close']);
    const leave = relay.sendLogged('jail_status_from_guest', { jailStatus: 'leaving' });
    expect(await leave).toEqual({ ok: true });
    expect(proxy.lastTarget).toBe(ports[1]);
    await expect.poll(() => resumes, { timeout: 20_000 }).toEqual(['leaving']);

    const read = await succeed(b, '/reservation/read', { guest, reservation: { id: reservation.id } }, '10.77.0.2');
    const logs = (read.reservation as Reservation).activityLogs;
    expect(logs.filter((log) => log.type === 'dialog' && log.dialog.text === 'All right. Please be back within 5 minutes.')).toHaveLength(1);
    expect(relay.waiting).toBe(0);

    // A console on B sees the guest as the device does: connected, away from the seat.
    const watcher = await RelayClient.connect(b.url, { warden: { token: await wardenToken(b) } });
    clients.push(watcher);
    // A loaded machine may take a while to move the guest over: 30 s, not the default 10.
    const { jails } = await watcher.next<{ jails: LiveJail[] }>('live_jails_to_warden', () => true, 30_000);
    expect(jails.find((jail) => jail.reservationId === reservation.id)).toMatchObject({ jailStatus: 'leaving', connected: true });
  }, 90_000);
});

import type { AddressInfo } from 'node:net';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import type { Reservation } from '../../shared/api/reservation.ts';
import type { Language } from '../../shared/constants.ts';
import { runAdmin } from '../admin.ts';
import { buildApp, type BuildOptions } from '../app.ts';
import { loadConfig, type Config, type DatabaseConfig } from '../config.ts';
import { AdjustableClock } from '../lib/clock.ts';
import type { OutboxRecord } from '../lib/outbox.ts';
import { adminQuery } from './server-process.ts';

/**
 * Test support for the server suites. Each test server has a database of its
 * own: in-memory PGlite, or, when `WARDEN_TEST_DATABASE_URL` names a
 * PostgreSQL server (`npm test` starts one), a fresh database on it that is
 * dropped at close.
 */

export interface TestServer {
  app: FastifyInstance;
  clock: AdjustableClock;
  close(): Promise<void>;
}

async function testDatabase(): Promise<{ database: DatabaseConfig; drop(): Promise<void> }> {
  const serverUrl = process.env.WARDEN_TEST_DATABASE_URL;
  if (serverUrl === undefined || serverUrl === '') {
    // The run's migrated template (pglite-template.ts), when the run has one: a suite started alone by path has it too.
    const template = inject('pgliteTemplate');
    const startFrom = template === null || template === undefined ? {} : { startFrom: new Blob([await readFile(template.dump)]) };
    return { database: { driver: 'pglite', dataDir: null, ...startFrom }, drop: async () => {} };
  }
  const name = `warden_test_${randomBytes(6).toString('hex')}`;
  await adminQuery(serverUrl, `create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    database: { driver: 'postgres', url: url.toString() },
    drop: () => adminQuery(serverUrl, `drop database if exists ${name} with (force)`),
  };
}

/** A server on a database of its own, with its clock at hand. */
export async function startTestServer(overrides: Partial<Config> = {}, options: BuildOptions = {}): Promise<TestServer> {
  const { database, drop } = await testDatabase();
  const clock = new AdjustableClock();
  // The development routes on (tests read the outbox and move the clock); messages only logged, not printed.
  const config: Config = { ...loadConfig({ WARDEN_DEV: '1', EMAIL_DELIVERY: 'log', SMS_PROVIDER: 'log' }), database, ...overrides };
  const app = await buildApp(config, { logger: false, clock, ...options });
  await app.ready();
  return {
    app,
    clock,
    close: async () => {
      await app.close();
      await drop();
    },
  };
}

/**
 * Starts a test server before the file's tests and closes it after them:
 * `const server = useTestServer();` at the top of a test file, then
 * `server.app` and `server.clock` inside the tests.
 */
export function useTestServer(overrides: Partial<Config> = {}, options: BuildOptions = {}): TestServer {
  let started: TestServer | undefined;
  beforeAll(async () => {
    started = await startTestServer(overrides, options);
  });
  afterAll(async () => {
    await started?.close();
  });
  const current = (): TestServer => {
    if (started === undefined) throw new Error('the test server starts in beforeAll');
    return started;
  };
  return {
    get app() {
      return current().app;
    },
    get clock() {
      return current().clock;
    },
    close: () => current().close(),
  };
}

/** A test server that also listens on a free port of 127.0.0.1, for socket.io clients and real HTTP; `url` is its address. */
export function useListeningTestServer(overrides: Partial<Config> = {}, options: BuildOptions = {}): TestServer & { readonly url: string } {
  const server = useTestServer(overrides, options);
  let url = '';
  beforeAll(async () => {
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
  });
  return {
    get app() {
      return server.app;
    },
    get clock() {
      return server.clock;
    },
    close: () => server.close(),
    get url() {
      return url;
    },
  };
}

/** The `api` block of a request body. */
export function apiBlock(language: Language = 'en'): { language: Language } {
  return { language };
}

export interface CallResult {
  statusCode: number;
  /** The parsed JSON answer. */
  body: ApiAnswer;
}

/** An API answer as the client reads it: the envelope and whatever payload. */
export interface ApiAnswer {
  api: { status: 'success' | 'failed'; errorMessage?: string; errorCode?: string };
  [field: string]: unknown;
}

/** `POST /api<path>` with a JSON body; extra inject options (e.g. remoteAddress) may be given. */
export async function call(
  app: FastifyInstance,
  path: string,
  body: unknown,
  options: Omit<InjectOptions, 'method' | 'url' | 'payload'> = {},
): Promise<CallResult> {
  const response = await app.inject({
    method: 'POST',
    url: `/api${path}`,
    payload: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
    ...options,
  });
  return { statusCode: response.statusCode, body: response.json<ApiAnswer>() };
}

/** Asserts an HTTP 200 success and returns the answer. */
export async function succeed(
  app: FastifyInstance,
  path: string,
  body: unknown,
  options: Omit<InjectOptions, 'method' | 'url' | 'payload'> = {},
): Promise<ApiAnswer> {
  const result = await call(app, path, body, options);
  expect(result.body.api, `${path} should succeed`).toEqual({ status: 'success' });
  expect(result.statusCode).toBe(200);
  return result.body;
}

/** Asserts an HTTP 200 failure and returns its message. */
export async function fail(
  app: FastifyInstance,
  path: string,
  body: unknown,
  options: Omit<InjectOptions, 'method' | 'url' | 'payload'> = {},
): Promise<string> {
  const result = await call(app, path, body, options);
  expect(result.statusCode).toBe(200);
  expect(result.body.api.status, `${path} should fail`).toBe('failed');
  expect(typeof result.body.api.errorMessage).toBe('string');
  return result.body.api.errorMessage ?? '';
}

/** The messages the server sent (the development outbox), oldest first. */
export async function outbox(app: FastifyInstance): Promise<OutboxRecord[]> {
  const response = await app.inject({ method: 'GET', url: '/dev/outbox' });
  return response.json<{ messages: OutboxRecord[] }>().messages;
}

/** The newest message sent to an address or number. */
export async function lastMessageTo(app: FastifyInstance, to: string): Promise<OutboxRecord> {
  const message = (await outbox(app)).findLast((record) => record.to === to);
  if (message === undefined) throw new Error(`no message to ${to}`);
  return message;
}

/** The token of the newest link of this kind mailed to the address. */
export async function linkTokenMailedTo(app: FastifyInstance, email: string, kind: 'verifyEmail' | 'updatePassword' | 'takeBack'): Promise<string> {
  const message = await lastMessageTo(app, email);
  const match = new RegExp(`/guest/${kind}/([A-Za-z0-9_-]+)`).exec(message.text);
  if (match?.[1] === undefined) throw new Error(`the last mail to ${email} has no ${kind} link`);
  return match[1];
}

export interface TestGuest {
  id: number;
  token: string;
  title: string;
  email: string;
  password: string;
  /** The client address the guest calls from in the helpers (each guest its own, for the per-address limits). */
  address: string;
}

let guestCounter = 0;

/** Signs a new guest up (a new IP each time, so sign-up limits do not interfere). */
export async function signUp(app: FastifyInstance, overrides: Partial<Omit<TestGuest, 'id' | 'token' | 'address'>> = {}): Promise<TestGuest> {
  guestCounter += 1;
  const address = `10.1.${Math.floor(guestCounter / 250) % 250}.${guestCounter % 250}`;
  const suffix = `${guestCounter}${randomBytes(3).toString('hex')}`;
  const form = {
    title: overrides.title ?? `guest${suffix}`,
    email: overrides.email ?? `guest${suffix}@example.com`,
    password: overrides.password ?? `a long password ${suffix}`,
  };
  const answer = await succeed(app, '/guest/create', { api: apiBlock(), guest: { ...form, timezone: -540, language: 'en' } }, { remoteAddress: address });
  const guest = answer.guest as { id: number; token: string };
  return { ...form, id: guest.id, token: guest.token, address };
}

/** Signs the guest in again (after the clock moved past the session's lifetime); the guest with the new session. */
export async function signIn(app: FastifyInstance, guest: TestGuest): Promise<TestGuest> {
  const answer = await succeed(
    app,
    '/guest/authenticate',
    { api: apiBlock(), guest: { title: guest.title, password: guest.password } },
    { remoteAddress: guest.address },
  );
  return { ...guest, token: (answer.guest as { token: string }).token };
}

/** The credentials block of an authenticated call. */
export function credentials(guest: TestGuest): { id: number; token: string } {
  return { id: guest.id, token: guest.token };
}

/** Verifies the guest's e-mail address through the link the server mailed. */
export async function verifyEmail(app: FastifyInstance, guest: TestGuest): Promise<void> {
  const token = await linkTokenMailedTo(app, guest.email, 'verifyEmail');
  await succeed(app, '/guest/verifyEmail', { api: apiBlock(), guest: { token } }, { remoteAddress: guest.address });
}

/** Gives the guest a phone number through the SMS code round trip; returns the number as stored. */
export async function givePhone(app: FastifyInstance, guest: TestGuest, phone = `090${String(guest.id).padStart(8, '0')}`): Promise<string> {
  await succeed(app, '/guest/requestPhoneCode', { api: apiBlock(), guest: { ...credentials(guest), phone } }, { remoteAddress: guest.address });
  const code = /\b(\d{6})\b/.exec((await lastMessageTo(app, phone)).text)?.[1];
  const answer = await succeed(app, '/guest/update', { api: apiBlock(), guest: { ...credentials(guest), phone, phoneCode: code } });
  return (answer.guest as { phone: string }).phone;
}

/** A guest who may book: signed up, e-mail verified, phone given. */
export async function readyGuest(app: FastifyInstance): Promise<TestGuest> {
  const guest = await signUp(app);
  await verifyEmail(app, guest);
  await givePhone(app, guest);
  return guest;
}

/**
 * Books a one-off jail for a ready guest, `hoursAhead` hours after `from`
 * (the server's now by default) on the next quarter hour, `duration` hours
 * long, through `/reservation/create`.
 */
export async function bookJail(
  app: FastifyInstance,
  guest: TestGuest,
  hoursAhead: number,
  duration = 1,
  from?: number,
  work = 'Write the chapter',
): Promise<Reservation> {
  const quarter = 15 * 60_000;
  const base = from ?? app.clock.now();
  const startTime = Math.ceil((base + hoursAhead * 3_600_000) / quarter) * quarter;
  const answer = await succeed(app, '/reservation/create', {
    api: apiBlock(),
    guest: credentials(guest),
    reservation: { work, duration, startTime, repeatType: 'none' },
  });
  return answer.reservation as Reservation;
}

/** Moves the server's clock to `time` through `POST /dev/clock` (the scheduler and the workers run before it answers). */
export async function moveClockTo(app: FastifyInstance, time: number): Promise<void> {
  const response = await app.inject({ method: 'POST', url: '/dev/clock', payload: { offsetMs: Math.round(time - Date.now()) } });
  expect(response.statusCode).toBe(200);
}

/**
 * Books a one-hour jail an hour ahead, enters it at its start, takes a
 * 20-minute break from minute 10 to minute 30 and runs it to its end: 40
 * focused minutes, give or take the milliseconds the clock runs on.
 */
export async function runJailWithBreak(app: FastifyInstance, guest: TestGuest): Promise<Reservation> {
  const minute = 60_000;
  const reservation = await bookJail(app, guest, 1);
  await moveClockTo(app, reservation.startTime);
  // The device reports in at the start: the jail is entered.
  await app.jailEngine.guests.checkAlive(guest.id, 'injail');
  await moveClockTo(app, reservation.startTime + 10 * minute);
  await app.jailEngine.guests.setStatus(guest.id, randomUUID().replaceAll('-', ''), 'breaking', 'en');
  await moveClockTo(app, reservation.startTime + 30 * minute);
  await app.jailEngine.guests.setStatus(guest.id, randomUUID().replaceAll('-', ''), 'injail', 'en');
  await moveClockTo(app, reservation.endTime + minute);
  return reservation;
}

/** A warden made by the admin command (`create-warden`), as an operator makes one: its id and e-mail. */
export async function newWarden(server: Pick<TestServer, 'app' | 'clock'>): Promise<{ id: number; email: string }> {
  const suffix = Math.random().toString(36).slice(2, 10);
  const email = `warden-${suffix}@example.com`;
  const [created] = await runAdmin(['create-warden', '--title', `Warden ${suffix}`, '--email', email], server.app.db, server.clock, server.app.config);
  return { id: Number(/^warden (\d+)/.exec(created ?? '')?.[1]), email };
}

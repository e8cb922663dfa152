import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import pg from 'pg';
import { ROOT_DIR } from '../config.ts';

/**
 * Real server processes for the tests that kill or pair them: started with
 * `node --import tsx src/server/main.ts`, reached over HTTP, killed with
 * SIGKILL.
 */

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Starts a server on `port` with `env` over the defaults (PGlite in `DATA_DIR`, quiet logs, the development routes on). */
export function startServerProcess(port: number, env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: ROOT_DIR,
    env: { ...process.env, DATABASE_URL: '', LOG_LEVEL: 'warn', WARDEN_DEV: '1', HOST: '127.0.0.1', PORT: String(port), ...env },
    stdio: 'ignore',
  });
}

/** A server process whose standard output and error are kept. */
export interface WatchedServer {
  child: ChildProcess;
  url: string;
  /** Everything it wrote so far, stdout and stderr interleaved. */
  output(): string;
}

/**
 * Runs `node --import tsx src/server/main.ts` as `npm start` does, with
 * exactly `env` (nothing inherited but PATH and HOME) on 127.0.0.1 and a free
 * port; resolves once `/api/health` answers, or rejects with what it wrote
 * if it exits first.
 */
export async function startWatchedServer(env: Record<string, string>): Promise<WatchedServer> {
  const port = await freePort();
  const chunks: string[] = [];
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: ROOT_DIR,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', HOST: '127.0.0.1', PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => chunks.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => chunks.push(chunk.toString()));
  const server = { child, url: `http://127.0.0.1:${port}`, output: () => chunks.join('') };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}:\n${server.output()}`);
    const up = await fetch(`${server.url}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (up) return server;
    if (Date.now() > deadline) throw new Error(`the server did not start:\n${server.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Runs main.ts with exactly `env` (and PATH, HOME) until it exits; its exit code and what it wrote. */
export function runServerUntilExit(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const chunks: string[] = [];
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
      cwd: ROOT_DIR,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', HOST: '127.0.0.1', PORT: '0', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (chunk: Buffer) => chunks.push(chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => chunks.push(chunk.toString()));
    // A server that starts instead of refusing is stopped, its output telling why.
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output: chunks.join('') });
    });
  });
}

/** Resolves once `/api/health` answers on `port` (30 s at most). */
export async function waitUntilUp(port: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (response.ok) return;
    } catch {
      if (Date.now() > deadline) throw new Error('the server did not start');
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Kills the process with SIGKILL and resolves when it has gone. */
export function killed(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

/** SIGTERM, then SIGKILL if the process has not gone within 10 s. */
export async function stopGracefully(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** Runs one statement on a PostgreSQL server as its administrator (create or drop a test database). */
export async function adminQuery(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** An API answer: the envelope and whatever payload. */
export type HttpAnswer = { api: { status: string; errorMessage?: string } } & Record<string, unknown>;

let addressCount = 0;

/** `POST /api<path>` on `baseUrl` with `api.language`, from an address of its own (servers run with TRUST_PROXY=1). */
export async function postApi(baseUrl: string, path: string, body: Record<string, unknown>): Promise<HttpAnswer> {
  addressCount += 1;
  const response = await fetch(`${baseUrl}/api${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.9.${Math.floor(addressCount / 250) % 250}.${(addressCount % 250) + 1}` },
    body: JSON.stringify({ ...body, api: { language: 'en' } }),
  });
  return (await response.json()) as HttpAnswer;
}

async function succeeded(answer: Promise<HttpAnswer>, what: string): Promise<HttpAnswer> {
  const done = await answer;
  if (done.api.status !== 'success') throw new Error(`${what} failed: ${done.api.errorMessage ?? ''}`);
  return done;
}

async function lastMessageText(baseUrl: string, to: string): Promise<string> {
  const { messages } = (await (await fetch(`${baseUrl}/dev/outbox`)).json()) as { messages: { to: string; text: string }[] };
  const message = messages.findLast((record) => record.to === to);
  if (message === undefined) throw new Error(`no message to ${to}`);
  return message.text;
}

/** A guest who may book, made over HTTP: signed up, e-mail verified from the outbox, phone given by its SMS code. */
export async function readyGuestOver(baseUrl: string): Promise<{ id: number; token: string }> {
  const name = `guest${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  const created = await succeeded(
    postApi(baseUrl, '/guest/create', { guest: { title: name, email: `${name}@example.com`, password: 'a long password', timezone: -540, language: 'en' } }),
    'sign-up',
  );
  const guest = created.guest as { id: number; token: string };
  const verifyToken = /\/guest\/verifyEmail\/([A-Za-z0-9_-]+)/.exec(await lastMessageText(baseUrl, `${name}@example.com`))?.[1];
  await succeeded(postApi(baseUrl, '/guest/verifyEmail', { guest: { token: verifyToken } }), 'verification');
  const phone = `090${String(guest.id).padStart(8, '0')}`;
  const credentials = { id: guest.id, token: guest.token };
  await succeeded(postApi(baseUrl, '/guest/requestPhoneCode', { guest: { ...credentials, phone } }), 'phone code');
  const code = /\b(\d{6})\b/.exec(await lastMessageText(baseUrl, phone))?.[1];
  await succeeded(postApi(baseUrl, '/guest/update', { guest: { ...credentials, phone, phoneCode: code } }), 'phone');
  return credentials;
}

/** Books a one-off hour of jail `hoursAhead` from now on a quarter hour; answers the reservation. */
export async function bookOver(
  baseUrl: string,
  guest: { id: number; token: string },
  hoursAhead: number,
): Promise<{ id: number; startTime: number; endTime: number }> {
  const quarter = 15 * 60_000;
  const startTime = Math.ceil((Date.now() + hoursAhead * 3_600_000) / quarter) * quarter;
  const answer = await succeeded(
    postApi(baseUrl, '/reservation/create', { guest, reservation: { work: 'Survive the kill', duration: 1, startTime, repeatType: 'none' } }),
    'booking',
  );
  return answer.reservation as { id: number; startTime: number; endTime: number };
}

/** Sets the server's clock to `time` (its scheduler has run when this resolves). */
export async function setClockOver(baseUrl: string, time: number): Promise<void> {
  const response = await fetch(`${baseUrl}/dev/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ offsetMs: time - Date.now() }),
  });
  if (!response.ok) throw new Error(`POST /dev/clock answered ${response.status}`);
}

/** The PostgreSQL server this pass of the suite runs on (`WARDEN_TEST_DATABASE_URL`), if any. */
export const DATABASE_SERVER_URL = process.env.WARDEN_TEST_DATABASE_URL ?? '';

/**
 * Whether this pass runs on PostgreSQL. `npm test` runs the server suite
 * twice (scripts/test.mjs): on PGlite, then on PostgreSQL. A check of PGlite
 * itself (a server process on its default database, its data directory)
 * runs in the PGlite pass only: in the second it would be the same check again.
 */
export const ON_POSTGRES = DATABASE_SERVER_URL !== '';

/** The name of the database this pass's server processes run on (`freshServerData`, server-data.ts): each pass covers its own. */
export const PASS_DATABASE = ON_POSTGRES ? 'PostgreSQL' : 'PGlite';

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminSocketPath } from './admin-socket.ts';
import { ROOT_DIR } from './config.ts';
import { killed, ON_POSTGRES, postApi, startWatchedServer, stopGracefully } from './test/server-process.ts';

/** `npm run admin -- <args>` (tsx src/server/admin-cli.ts) on `dataDir`: its exit code and output. */
function admin(dataDir: string, ...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return adminWith({}, dataDir, ...args);
}

function adminWith(env: Record<string, string>, dataDir: string, ...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/admin-cli.ts', ...args], {
      cwd: ROOT_DIR,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DATA_DIR: dataDir, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

function passwordOf(stdout: string): string {
  const password = /password \(shown once\): (\S+)/.exec(stdout)?.[1];
  if (password === undefined) throw new Error(`no password in ${stdout}`);
  return password;
}

/** One raw line to the socket; the one line it answers. */
function exchange(path: string, line: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(path, () => socket.write(line));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.once('end', () => resolve(answer));
    socket.once('error', reject);
  });
}

// A check of PGlite's single process: the PGlite pass only (ON_POSTGRES).
describe.skipIf(ON_POSTGRES)('npm run admin beside a running server (PGlite)', () => {
  let dataDir = '';
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'warden-admin-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('runs through the server socket while it runs, and on the database itself when none runs', async () => {
    const socketPath = adminSocketPath(dataDir);
    let server = await startWatchedServer({ DATA_DIR: dataDir, TRUST_PROXY: '1' });
    try {
      expect((await stat(socketPath)).mode & 0o777).toBe(0o600);

      const created = await admin(dataDir, 'create-warden', '--title', 'Night Shift', '--email', 'night@example.com');
      expect(created.stderr).toBe('');
      expect(created.code).toBe(0);
      expect(created.stdout).toMatch(/^warden \d+ created: Night Shift <night@example.com>\n/);
      const signedIn = await postApi(server.url, '/warden/authenticate', { warden: { email: 'night@example.com', password: passwordOf(created.stdout) } });
      expect(signedIn.api).toEqual({ status: 'success' });
      expect(signedIn.signIn).toMatchObject({ enrolment: { secret: expect.stringMatching(/^[A-Z2-7]{32}$/) } });

      // The command ran in the server, which needs of the command's environment only DATA_DIR: a
      // database it could not reach itself, or a production setting it could not start with, make no difference.
      const unreachable = await adminWith({ DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none', NODE_ENV: 'production' }, dataDir, 'list-wardens');
      expect(unreachable.code).toBe(0);
      expect(unreachable.stdout).toContain('Night Shift');

      const mistaken = await admin(dataDir, 'frobnicate');
      expect(mistaken.code).toBe(2);
      expect(mistaken.stderr).toMatch(/^unknown command frobnicate\n\nUsage: npm run admin/);

      expect(JSON.parse(await exchange(socketPath, 'not json\n'))).toEqual({ error: 'a request is one line of JSON: {"args": [up to 20 strings]}' });
    } finally {
      await killed(server.child);
    }

    // Killed: its socket is left behind, and nobody answers on it.
    expect(existsSync(socketPath)).toBe(true);
    const listed = await admin(dataDir, 'list-wardens');
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/^\d+\tNight Shift\tnight@example.com\t\tno second factor yet\t\n$/);

    // A new server replaces the stale socket; a graceful stop removes it.
    server = await startWatchedServer({ DATA_DIR: dataDir });
    try {
      const second = await admin(dataDir, 'create-warden', '--title', 'Day Shift', '--email', 'day@example.com');
      expect(second.code).toBe(0);
      expect((await admin(dataDir, 'list-wardens')).stdout).toContain('Day Shift');
    } finally {
      await stopGracefully(server.child);
    }
    expect(existsSync(socketPath)).toBe(false);
  }, 180_000);
});

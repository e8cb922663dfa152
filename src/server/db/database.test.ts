import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startTestServer } from '../test/harness.ts';
import { adminQuery, freePort, killed, ON_POSTGRES, postApi, startServerProcess, waitUntilUp } from '../test/server-process.ts';
import { openDatabase } from './database.ts';
import { guests } from './schema/index.ts';

const directories: string[] = [];
afterAll(async () => {
  await Promise.all(directories.map((dir) => rm(dir, { recursive: true, force: true })));
});

async function temporaryDirectory(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'warden-data-'));
  directories.push(dir);
  return dir;
}

describe('the database', () => {
  it('is the one the suite runs on', async () => {
    const server = await startTestServer();
    try {
      const expected = process.env.WARDEN_TEST_DATABASE_URL ? 'postgres' : 'pglite';
      expect(server.app.config.database.driver).toBe(expected);
      const result = await server.app.db.execute(sql`select version() as version`);
      expect(JSON.stringify(result)).toMatch(/PostgreSQL \d+/);
    } finally {
      await server.close();
    }
  }, 30_000);

  it.runIf(ON_POSTGRES)(
    'outlives PostgreSQL ending its idle connections',
    async () => {
      const server = await startTestServer();
      try {
        const database = new URL(server.app.config.database.driver === 'postgres' ? server.app.config.database.url : '').pathname.slice(1);
        await server.app.db.execute(sql`select 1`);
        // As an administrator or a restart would: the pool's idle connection is ended under it.
        await adminQuery(process.env.WARDEN_TEST_DATABASE_URL ?? '', `select pg_terminate_backend(pid) from pg_stat_activity where datname = '${database}'`);
        await new Promise((resolve) => setTimeout(resolve, 200));
        const result = await server.app.db.execute(sql`select 2 as two`);
        expect(JSON.stringify(result)).toContain('2');
      } finally {
        await server.close();
      }
    },
    30_000,
  );

  it.skipIf(ON_POSTGRES)(
    'PGlite keeps its data in its directory across a restart',
    async () => {
      const dataDir = join(await temporaryDirectory(), 'pglite');
      const first = await openDatabase({ driver: 'pglite', dataDir });
      await first.db
        .insert(guests)
        .values({ title: 'kept', email: 'kept@example.com', passwordHash: 'x', language: 'en', timezone: 0, webhookToken: 'w', createdAt: 1, updatedAt: 1 });
      await first.close();
      const second = await openDatabase({ driver: 'pglite', dataDir });
      expect(await second.db.select({ title: guests.title }).from(guests)).toEqual([{ title: 'kept' }]);
      await second.close();
    },
    30_000,
  );
});

function startServer(dataDir: string, port: number) {
  return startServerProcess(port, { DATA_DIR: dataDir });
}

const answerSchema = z.object({ api: z.object({ status: z.string() }), guest: z.object({ id: z.number() }).optional() });

async function post(port: number, path: string, body: Record<string, unknown>): Promise<z.infer<typeof answerSchema>> {
  return answerSchema.parse(await postApi(`http://127.0.0.1:${port}`, path, body));
}

// PGlite's durability: the PGlite pass only (ON_POSTGRES); the restart tests kill a server on PostgreSQL.
describe.skipIf(ON_POSTGRES)('the server process', () => {
  it('loses nothing it answered when killed (SIGKILL) on PGlite', async () => {
    const dataDir = await temporaryDirectory();
    const port = await freePort();
    let server = startServer(dataDir, port);
    try {
      await waitUntilUp(port);
      const form = { title: 'survivor', email: 'survivor@example.com', password: 'survives a kill' };
      const created = await post(port, '/guest/create', { guest: { ...form, timezone: 0, language: 'en' } });
      expect(created.api.status).toBe('success');
      await killed(server);

      server = startServer(dataDir, port);
      await waitUntilUp(port);
      const signedIn = await post(port, '/guest/authenticate', { guest: { title: form.title, password: form.password } });
      expect(signedIn.api.status).toBe('success');
      expect(signedIn.guest?.id).toBe(created.guest?.id);
    } finally {
      await killed(server);
    }
  }, 90_000);
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/database.ts';
import { startTestServer, useTestServer, type TestServer } from '../test/harness.ts';
import { TcpProxy } from '../test/tcp-proxy.ts';
import { databaseCheck, readiness } from './health.ts';

const REDIS_URL = process.env.WARDEN_TEST_REDIS_URL ?? '';

describe('GET /api/ready', () => {
  const server = useTestServer();

  it('answers 200 once the database answers a query; without REDIS_URL there is no Redis to check', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/api/ready' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.json()).toEqual({ status: 'ready', checks: { database: 'ok' } });
  });

  // Opening and migrating a database takes its time on a loaded machine (as vite.config.ts's hookTimeout says).
  it('names a database that no longer answers as failed', async () => {
    // A connection of its own to the same database, then closed.
    const { db, close } = await openDatabase(server.app.config.database);
    expect(await readiness({ database: databaseCheck(db) }, server.app.log)).toEqual({ status: 'ready', checks: { database: 'ok' } });
    await close();
    expect(await readiness({ database: databaseCheck(db) }, server.app.log)).toEqual({ status: 'unavailable', checks: { database: 'failed' } });
  }, 60_000);

  it('counts a check that hangs as failed once its time is up, and runs the others', async () => {
    const hanging = () => new Promise<never>(() => {});
    const started = Date.now();
    const result = await readiness({ database: databaseCheck(server.app.db), redis: hanging }, server.app.log, 200);
    expect(result).toEqual({ status: 'unavailable', checks: { database: 'ok', redis: 'failed' } });
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe.runIf(REDIS_URL !== '')('GET /api/ready with REDIS_URL', () => {
  // Redis behind a proxy the test can cut: Redis going away as a network failure shows it to the server.
  let link: TcpProxy;
  let server: TestServer;

  beforeAll(async () => {
    link = await TcpProxy.start([Number(new URL(REDIS_URL).port)]);
    server = await startTestServer({ redisUrl: `redis://127.0.0.1:${new URL(link.url).port}` });
  });

  afterAll(async () => {
    await server.close();
    await link.close();
  });

  it("checks the relay's Redis: 200 while it answers PING, 503 naming it when it does not, 200 again once it is back", async () => {
    const ready = await server.app.inject({ method: 'GET', url: '/api/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready', checks: { database: 'ok', redis: 'ok' } });

    link.accepting = false;
    link.dropConnections();
    const away = await server.app.inject({ method: 'GET', url: '/api/ready' });
    expect(away.statusCode).toBe(503);
    expect(away.json()).toEqual({ status: 'unavailable', checks: { database: 'ok', redis: 'failed' } });

    link.accepting = true;
    await expect.poll(async () => (await server.app.inject({ method: 'GET', url: '/api/ready' })).statusCode, { timeout: 15_000, interval: 250 }).toBe(200);
  });
});

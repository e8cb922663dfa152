import { createConnection, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/database.ts';
import { startTestServer, useTestServer, type TestServer } from '../test/harness.ts';
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

/**
 * A TCP relay in front of the test Redis, which the test can cut and
 * restore: Redis going away as a network failure shows it to the server.
 */
class CuttableLink {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  port = 0;

  constructor(private readonly target: URL) {}

  async open(): Promise<void> {
    const server = createServer((client) => {
      const upstream = createConnection(Number(this.target.port), this.target.hostname);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => socket.destroy());
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  async cut(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const socket of this.sockets) socket.destroy();
    if (server !== null) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

describe.runIf(REDIS_URL !== '')('GET /api/ready with REDIS_URL', () => {
  let link: CuttableLink;
  let server: TestServer;

  beforeAll(async () => {
    link = new CuttableLink(new URL(REDIS_URL));
    await link.open();
    server = await startTestServer({ redisUrl: `redis://127.0.0.1:${link.port}` });
  });

  afterAll(async () => {
    await server.close();
    await link.cut();
  });

  it("checks the relay's Redis: 200 while it answers PING, 503 naming it when it does not, 200 again once it is back", async () => {
    const ready = await server.app.inject({ method: 'GET', url: '/api/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready', checks: { database: 'ok', redis: 'ok' } });

    await link.cut();
    const away = await server.app.inject({ method: 'GET', url: '/api/ready' });
    expect(away.statusCode).toBe(503);
    expect(away.json()).toEqual({ status: 'unavailable', checks: { database: 'ok', redis: 'failed' } });

    await link.open();
    await expect.poll(async () => (await server.app.inject({ method: 'GET', url: '/api/ready' })).statusCode, { timeout: 15_000, interval: 250 }).toBe(200);
  });
});

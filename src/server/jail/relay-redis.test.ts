import Fastify from 'fastify';
import { Writable } from 'node:stream';
import { Server } from 'socket.io';
import { afterEach, describe, expect, it } from 'vitest';
import { TcpProxy } from '../test/tcp-proxy.ts';
import { useRedisAdapter } from './relay-redis.ts';

const REDIS_URL = process.env.WARDEN_TEST_REDIS_URL ?? '';

describe.runIf(REDIS_URL !== '')('the relay across servers while its Redis is away', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('loses the packets it could not publish, logs them, and stops without an unhandled rejection', async () => {
    const redis = new URL(REDIS_URL);
    const link = await TcpProxy.start([Number(redis.port)]);
    cleanups.push(() => link.close());
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const app = Fastify({ logger: { level: 'warn', stream } });
    const io = new Server(app.server);
    await useRedisAdapter(app, io, `redis://127.0.0.1:${new URL(link.url).port}`, 200);
    await app.ready();

    // Redis goes away: a broadcast waits in the client's queue, and the stop cuts it after the grace.
    link.accepting = false;
    link.dropConnections();
    io.to('wardens').emit('live_jails_to_warden');
    await app.close();
    await new Promise((resolve) => setImmediate(resolve));

    expect(lines.some((line) => line.includes('a packet for the other servers was lost'))).toBe(true);
  });
});

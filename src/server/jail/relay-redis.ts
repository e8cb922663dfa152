import type { FastifyInstance } from 'fastify';
import { createAdapter } from '@socket.io/redis-adapter';
import { createClient } from 'redis';
import type { Server } from 'socket.io';

/**
 * The relay across servers (`REDIS_URL`, docs/jail.md, Relay): socket.io's
 * Redis adapter, so that a room's packets reach its sockets on every server.
 * `relayRedisPing` answers the readiness check (routes/health.ts).
 */
export async function useRedisAdapter(app: FastifyInstance, io: Server, redisUrl: string, closeGraceMs: number): Promise<void> {
  const publisher = createClient({ url: redisUrl });
  const subscriber = publisher.duplicate();
  for (const client of [publisher, subscriber]) client.on('error', (error: unknown) => app.log.error({ err: error }, 'redis'));
  await Promise.all([publisher.connect(), subscriber.connect()]);
  io.adapter(createAdapter(publisher, subscriber));
  app.decorate('relayRedisPing', () => publisher.ping());
  // Pending publishes go out first; a connection still reconnecting (Redis
  // away) would hold the stop for ever, so it is cut after the grace.
  app.addHook('onClose', async () => {
    await Promise.all(
      [publisher, subscriber].map(async (client) => {
        const cut = setTimeout(() => client.destroy(), closeGraceMs);
        await client.close().catch(() => undefined);
        clearTimeout(cut);
      }),
    );
  });
}

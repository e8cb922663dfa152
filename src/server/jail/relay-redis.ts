import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { createAdapter } from '@socket.io/redis-adapter';
import { createClient } from 'redis';
import type { Server } from 'socket.io';

/**
 * The commands the adapter sends without waiting for their answer
 * (@socket.io/redis-adapter drops their promises), and what is lost when
 * one fails: a packet for the other servers, or a change of its
 * subscriptions as it starts and stops (the client subscribes again when it
 * reconnects).
 */
const UNAWAITED_COMMANDS: ReadonlyMap<string | symbol, string> = new Map([
  ['publish', 'a packet for the other servers was lost: Redis did not answer'],
  ...['subscribe', 'pSubscribe', 'unsubscribe', 'pUnsubscribe'].map(
    (command) => [command, 'a subscription of the relay was not changed: Redis did not answer'] as const,
  ),
]);

type Method = (...args: unknown[]) => unknown;

/**
 * The client as the adapter sees it. While Redis is away those commands are
 * refused or cut, and a rejection nobody handles would end the process: here
 * each is logged instead. The packet is lost either way, as socket.io's
 * Redis adapter documents; the client reconnects by itself. Each method is
 * wrapped once, not at every call.
 */
function forAdapter<Client extends object>(client: Client, log: FastifyBaseLogger): Client {
  const wrapped = new Map<string | symbol, { method: Method; wrapper: Method }>();
  const wrap = (property: string | symbol, method: Method): Method => {
    const lost = UNAWAITED_COMMANDS.get(property);
    if (lost === undefined) return method.bind(client);
    return (...args) => {
      const answer = Promise.resolve(Reflect.apply(method, client, args));
      answer.catch((error: unknown) => log.warn({ err: error, command: property }, lost));
      return answer;
    };
  };
  return new Proxy(client, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property);
      if (typeof value !== 'function') return value;
      const method = value as Method;
      const known = wrapped.get(property);
      if (known?.method === method) return known.wrapper;
      const wrapper = wrap(property, method);
      wrapped.set(property, { method, wrapper });
      return wrapper;
    },
  });
}

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
  io.adapter(createAdapter(forAdapter(publisher, app.log), forAdapter(subscriber, app.log)));
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

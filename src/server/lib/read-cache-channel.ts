import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import type { Database } from '../db/database.ts';
import type { ReadCache } from './read-cache.ts';

/**
 * Invalidation across processes that share a PostgreSQL database: every
 * invalidation is also sent as `NOTIFY warden_read_cache, '<sender>:<guest id or *>'`,
 * and every server LISTENs on a connection of its own and drops what the
 * others invalidated. While that connection is down the cache is off (and
 * emptied when it comes back), so a missed notification never serves
 * stale data.
 */

export const READ_CACHE_CHANNEL = 'warden_read_cache';
/** The payload that clears every cache. */
export const CLEAR_ALL = '*';

const RECONNECT_DELAY_MS = 1_000;

/** Tells every server on this PostgreSQL database to drop `target` (a guest id, or `*` for everything). */
export async function notifyReadCaches(db: Database, target: number | typeof CLEAR_ALL, sender = 'admin'): Promise<void> {
  await db.execute(sql`select pg_notify(${READ_CACHE_CHANNEL}, ${`${sender}:${target}`})`);
}

export interface ReadCacheListener {
  /** This server's name in payloads (its own notifications come back and are skipped). */
  readonly sender: string;
  /** Resolves at the next notification from another sender, once it has been applied (for tests). */
  nextNotification(): Promise<string>;
  close(): Promise<void>;
}

/**
 * LISTENs on `url` and applies other servers' invalidations to `cache`.
 * The cache is off until the first LISTEN has succeeded.
 */
export async function listenForInvalidations(url: string, cache: ReadCache, log: FastifyBaseLogger): Promise<ReadCacheListener> {
  const sender = randomBytes(6).toString('hex');
  let client: pg.Client | null = null;
  let closing = false;
  let retry: NodeJS.Timeout | null = null;
  let waiters: ((payload: string) => void)[] = [];

  const apply = (payload: string): void => {
    const separator = payload.indexOf(':');
    const from = payload.slice(0, separator);
    const target = payload.slice(separator + 1);
    if (from === sender) return;
    const guestId = Number(target);
    if (target !== CLEAR_ALL && Number.isSafeInteger(guestId) && guestId > 0) cache.invalidate(guestId);
    else cache.clear();
    const waiting = waiters;
    waiters = [];
    for (const resolve of waiting) resolve(target);
  };

  const lost = (reason: unknown): void => {
    if (closing || client === null) return;
    log.error({ err: reason }, 'read cache: the LISTEN connection was lost; the cache is off until it is back');
    const dead = client;
    client = null;
    cache.setEnabled(false);
    dead.end().catch(() => {});
    reconnectLater();
  };

  const reconnectLater = (): void => {
    if (closing) return;
    retry = setTimeout(() => {
      retry = null;
      connect().catch((error: unknown) => {
        log.error({ err: error }, 'read cache: LISTEN failed; trying again');
        reconnectLater();
      });
    }, RECONNECT_DELAY_MS);
    retry.unref();
  };

  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: url });
    next.on('notification', (message) => {
      if (message.channel === READ_CACHE_CHANNEL && message.payload !== undefined) apply(message.payload);
    });
    next.on('error', (error) => lost(error));
    next.on('end', () => lost(new Error('connection ended')));
    client = next;
    try {
      await next.connect();
      await next.query(`LISTEN ${READ_CACHE_CHANNEL}`);
    } catch (error) {
      if (client === next) client = null;
      await next.end().catch(() => {});
      throw error;
    }
    if (closing) return;
    // Whatever was invalidated while nobody listened is unknown: start empty.
    cache.setEnabled(true);
  };

  cache.setEnabled(false);
  await connect();

  return {
    sender,
    nextNotification: () => new Promise((resolve) => waiters.push(resolve)),
    close: async () => {
      closing = true;
      if (retry !== null) clearTimeout(retry);
      cache.setEnabled(false);
      const open = client;
      client = null;
      await open?.end();
    },
  };
}

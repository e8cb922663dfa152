import { and, eq } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { GuestCredentials } from '../../shared/api/envelope.ts';
import type { Config } from '../config.ts';
import { openDatabase, type Database, type NamedQuery, type PrepareNamed } from '../db/database.ts';
import { guests, sessions, type GuestRow } from '../db/schema/index.ts';
import { ApiFailure } from '../lib/api.ts';
import type { AdjustableClock } from '../lib/clock.ts';
import { ConsoleTransport, Outbox, SmtpTransport, UndeliveredTransport, type MessageChannel, type MessageTransport } from '../lib/outbox.ts';
import { RateLimiter } from '../lib/rate-limiter.ts';
import { CLEAR_ALL, listenForInvalidations, notifyReadCaches, type ReadCacheListener } from '../lib/read-cache-channel.ts';
import { ReadCache, type CachedSession } from '../lib/read-cache.ts';
import { hashToken } from '../lib/secrets.ts';
import { isRenewalDue, isSessionOpen, renewSessions, sessionLapse } from '../services/sessions.ts';
import { TurnBatch } from '../lib/turn-batch.ts';
import { fillFocusedTime } from '../services/progress.ts';
import fastifyPlugin from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyInstance {
    /** The database (PGlite or PostgreSQL; the same drizzle type). */
    db: Database;
    /** The hot path's named prepared statements (db/database.ts): prepared once, or built with their values. */
    prepareNamed: PrepareNamed;
    queryNamed: NamedQuery;
    /** The server's time in epoch ms; shifted by `POST /dev/clock` (with `WARDEN_DEV=1`). */
    clock: AdjustableClock;
    /** E-mail and SMS. */
    outbox: Outbox;
    rateLimiter: RateLimiter;
    /** The per-process read cache (lib/read-cache.ts); invalidate through `invalidateReadCache`. */
    readCache: ReadCache;
    /** On PostgreSQL, the LISTEN side of cross-process invalidation; null on PGlite. */
    readCacheListener: ReadCacheListener | null;
    /**
     * Drops a guest's cached reads (or all, with '*') here and, on
     * PostgreSQL, in every other server. Call it after any write that is not
     * an `/api` call of the guest's own session (which the hook of
     * read-cache-hooks.ts covers): a write by a mailed or a facilitator's
     * token, the scheduler, a webhook.
     */
    invalidateReadCache(target: number | '*'): Promise<void>;
    /**
     * The guest whose session `credentials` name; fails with
     * 'authentication_failed' (one message for an unknown id and a wrong token).
     */
    authenticatedGuest(credentials: GuestCredentials): Promise<GuestRow>;
    /**
     * The open session `credentials` name and its guest, renewed by this
     * use (services/sessions.ts); fails like `authenticatedGuest`, also
     * for a session past its idle time or lifetime.
     */
    authenticatedSession(credentials: GuestCredentials): Promise<CachedSession>;
  }
}

export interface ServicesOptions extends Record<string, unknown> {
  config: Config;
  clock: AdjustableClock;
  /** The SMS gateway, in place of the one `config.sms` names (tests). */
  smsTransport?: MessageTransport;
}

/** The transports the configuration names (docs/operations.md). */
async function messageTransports(config: Config, log: FastifyBaseLogger): Promise<Record<MessageChannel, MessageTransport>> {
  const printed = new ConsoleTransport();
  const undelivered = new UndeliveredTransport(log);
  const email = ((): MessageTransport => {
    if (config.emailDelivery === 'console') return printed;
    if (config.emailDelivery === 'log' || config.smtpUrl === null) return undelivered;
    return new SmtpTransport(config.smtpUrl, config.smtpFrom);
  })();
  if (config.sms.provider === 'twilio') {
    // Loaded only when chosen: the twilio package is large.
    const { TwilioTransport } = await import('../lib/twilio-transport.ts');
    return { email, sms: new TwilioTransport(config.sms) };
  }
  return { email, sms: config.sms.provider === 'console' ? printed : undelivered };
}

/** Opens the database (migrating it) and decorates the app with what routes share. */
async function servicesPlugin(app: FastifyInstance, options: ServicesOptions): Promise<void> {
  const { config, clock } = options;
  const { db, prepareNamed, queryNamed, close } = await openDatabase(config.database);
  app.addHook('onClose', close);
  await fillFocusedTime(db);

  const transports = await messageTransports(config, app.log);
  const sms = options.smsTransport ?? transports.sms;
  const outbox = new Outbox({ email: transports.email, sms }, config.devRoutes, clock, app.log);

  app.decorate('db', db);
  app.decorate('prepareNamed', prepareNamed);
  app.decorate('queryNamed', queryNamed);
  app.decorate('clock', clock);
  app.decorate('outbox', outbox);
  app.decorate('rateLimiter', new RateLimiter(db, clock));

  const cache = new ReadCache();
  const listener = config.database.driver === 'postgres' ? await listenForInvalidations(config.database.url, cache, app.log) : null;
  if (listener !== null) app.addHook('onClose', () => listener.close());
  app.decorate('readCache', cache);
  app.decorate('readCacheListener', listener);
  app.decorate('invalidateReadCache', async (target: number | typeof CLEAR_ALL): Promise<void> => {
    if (target === CLEAR_ALL) cache.clear();
    else cache.invalidate(target);
    if (listener !== null) await notifyReadCaches(db, target, listener.sender);
  });

  const lifetimes = config.guestSessions;
  /** The renewals of one turn of the event loop, written together (each is one small write a minute per busy session). */
  const renewals = new TurnBatch<{ tokenHash: string; now: number }, void>(async (batch) => {
    await renewSessions(
      db,
      batch.map((renewal) => renewal.tokenHash),
      Math.max(...batch.map((renewal) => renewal.now)),
    );
    return batch.map(() => undefined);
  });
  /** Renews the session when due: in the database, and in the cache so the next calls skip the write. */
  const renewed = async (found: CachedSession, now: number): Promise<CachedSession> => {
    if (!isRenewalDue(found.session, now)) return found;
    await renewals.add({ tokenHash: found.session.tokenHash, now });
    cache.sessionSeen(found.guest.id, found.session.tokenHash, now);
    return { guest: found.guest, session: { ...found.session, lastSeenAt: now } };
  };
  const authenticatedSession = async (credentials: GuestCredentials): Promise<CachedSession> => {
    const tokenHash = hashToken(credentials.token);
    const now = clock.now();
    const cached = cache.session(credentials.id, tokenHash);
    // A cached session that looks ended is read again: another server may have renewed it.
    if (cached !== undefined && sessionLapse(cached.session, now, lifetimes) === null) return renewed(cached, now);
    const generation = cache.generation;
    const [row] = await db
      .select({ guest: guests, session: sessions })
      .from(sessions)
      .innerJoin(guests, eq(guests.id, sessions.guestId))
      .where(and(eq(sessions.tokenHash, tokenHash), eq(sessions.guestId, credentials.id)));
    if (row === undefined || !(await isSessionOpen(db, row.session, now, lifetimes))) throw new ApiFailure('authentication_failed');
    cache.storeSession(credentials.id, tokenHash, row, generation);
    return renewed(row, now);
  };
  app.decorate('authenticatedSession', authenticatedSession);
  app.decorate('authenticatedGuest', async (credentials: GuestCredentials): Promise<GuestRow> => (await authenticatedSession(credentials)).guest);
}

export default fastifyPlugin(servicesPlugin, { name: 'services' });

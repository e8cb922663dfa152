import { and, eq } from 'drizzle-orm';
import type { GuestCredentials } from '../../shared/api/envelope.ts';
import type { Config } from '../config.ts';
import { openDatabase, type Database } from '../db/database.ts';
import { guests, sessions, type GuestRow } from '../db/schema/index.ts';
import { ApiFailure } from '../lib/api.ts';
import { AdjustableClock } from '../lib/clock.ts';
import { Outbox, SmtpTransport, UndeliveredTransport, type MessageTransport } from '../lib/outbox.ts';
import { RateLimiter } from '../lib/rate-limiter.ts';
import { hashToken } from '../lib/secrets.ts';
import { unencapsulated } from './unencapsulated.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The database (PGlite or PostgreSQL; the same drizzle type). */
    db: Database;
    /** The server's time in epoch ms; shifted by `POST /dev/clock` outside production. */
    clock: AdjustableClock;
    /** E-mail and SMS. */
    outbox: Outbox;
    rateLimiter: RateLimiter;
    /**
     * The guest whose session `credentials` name; fails with
     * 'authentication_failed' (one message for an unknown id and a wrong token).
     */
    authenticatedGuest(credentials: GuestCredentials): Promise<GuestRow>;
  }
}

export interface ServicesOptions extends Record<string, unknown> {
  config: Config;
  clock: AdjustableClock;
  /** The SMS gateway; none exists yet, so SMS are only logged (and kept outside production). */
  smsTransport?: MessageTransport;
}

/** Opens the database (migrating it) and decorates the app with what routes share. */
export default unencapsulated<ServicesOptions>('services', async (app, options) => {
  const { config, clock } = options;
  const { db, close } = await openDatabase(config.database);
  app.addHook('onClose', close);

  const undelivered = new UndeliveredTransport(app.log);
  const email = config.smtpUrl === null ? undelivered : new SmtpTransport(config.smtpUrl, config.smtpFrom);
  const outbox = new Outbox({ email, sms: options.smsTransport ?? undelivered }, !config.isProduction, clock, app.log);

  app.decorate('db', db);
  app.decorate('clock', clock);
  app.decorate('outbox', outbox);
  app.decorate('rateLimiter', new RateLimiter(db, clock));
  app.decorate('authenticatedGuest', async (credentials: GuestCredentials): Promise<GuestRow> => {
    const [row] = await db
      .select({ guest: guests })
      .from(sessions)
      .innerJoin(guests, eq(guests.id, sessions.guestId))
      .where(and(eq(sessions.tokenHash, hashToken(credentials.token)), eq(sessions.guestId, credentials.id)));
    if (row === undefined) throw new ApiFailure('authentication_failed');
    return row.guest;
  });
});

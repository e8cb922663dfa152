import { inArray } from 'drizzle-orm';
import Fastify from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WARDEN_IDLE_TIMEOUT_MS } from '../../shared/api/warden.ts';
import {
  emailTokens,
  errorLogs,
  phoneCodes,
  rateLimitBuckets,
  triggerDeliveries,
  wardenAudit,
  wardenSessions,
  wardenSignIns,
  wardens,
} from '../db/schema/index.ts';
import { JailScheduler, PURGE_INTERVAL_MS, SCHEDULER_INTERVAL_MS } from '../jail/scheduler.ts';
import { LONGEST_RATE_WINDOW_MS, RATE_RULES, RateLimiter } from '../lib/rate-limiter.ts';
import { FORUM_POSTS_PER_GUEST } from '../routes/forum/index.ts';
import { WEBHOOK_CALLS_PER_ADDRESS, WEBHOOK_CALLS_PER_TOKEN } from '../routes/hooks/index.ts';
import { signUp, useTestServer, type TestServer } from '../test/harness.ts';
import { WARDEN_AUDIT_RETENTION_DAYS } from './warden-audit.ts';
import { ERROR_LOG_RETENTION_MS, EXPIRED_PHONE_CODE_KEPT_MS, PURGE_STEPS, purgeExpired, TRIGGER_DELIVERY_RETENTION_MS, type PurgeStep } from './purge.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const WARDEN_AUDIT_RETENTION_MS = WARDEN_AUDIT_RETENTION_DAYS * 24 * HOUR;

let counter = 0;
/** A name of its own for each row, so that every test sees only its rows. */
const unique = (what: string): string => `${what}-${(counter += 1)}-${Math.random().toString(36).slice(2)}`;

/** The planted rows of each kind, by their key (an error log by its unique text). */
interface Kinds {
  emailTokens: string[];
  phoneCodes: string[];
  buckets: string[];
  wardenSessions: string[];
  wardenSignIns: string[];
  wardenAudit: string[];
  errorLogs: string[];
  triggerDeliveries: string[];
}

interface Planted {
  stale: Kinds;
  fresh: Kinds;
}

/** Rows past their time and rows still in use, each kind, relative to `now`. */
async function plant(server: TestServer, now: number): Promise<Planted> {
  const { app } = server;
  const guest = await signUp(app);
  const [warden] = await app.db
    .insert(wardens)
    .values({ title: unique('warden'), email: `${unique('warden')}@example.com`, passwordHash: 'x', createdAt: now })
    .returning({ id: wardens.id });
  if (warden === undefined) throw new Error('no warden');

  const emailToken = async (expiresAt: number, usedAt: number | null): Promise<string> => {
    const tokenHash = unique('mail');
    await app.db
      .insert(emailTokens)
      .values({ tokenHash, guestId: guest.id, purpose: 'reset_password', email: guest.email, createdAt: now - HOUR, expiresAt, usedAt });
    return tokenHash;
  };
  const phoneCode = async (expiresAt: number, usedAt: number | null): Promise<string> => {
    const id = unique('code');
    await app.db
      .insert(phoneCodes)
      .values({ id, guestId: guest.id, phone: '09000000000', codeHash: 'x', createdAt: expiresAt - 10 * MINUTE, expiresAt, usedAt });
    return id;
  };
  const bucket = async (windowStartedAt: number): Promise<string> => {
    const key = unique('bucket');
    await app.db.insert(rateLimitBuckets).values({ key, windowStartedAt, hits: 3 });
    return key;
  };
  const wardenSession = async (expiresAt: number, lastUsedAt = now): Promise<string> => {
    const tokenHash = unique('console');
    await app.db.insert(wardenSessions).values({ tokenHash, wardenId: warden.id, createdAt: expiresAt - 12 * HOUR, expiresAt, lastUsedAt });
    return tokenHash;
  };
  const wardenSignIn = async (expiresAt: number): Promise<string> => {
    const tokenHash = unique('ticket');
    await app.db.insert(wardenSignIns).values({ tokenHash, wardenId: warden.id, expiresAt });
    return tokenHash;
  };
  const audited = async (at: number): Promise<string> => {
    const [row] = await app.db
      .insert(wardenAudit)
      .values({ wardenId: warden.id, action: 'jail_opened', reservationId: 1, guestId: guest.id, at })
      .returning({ id: wardenAudit.id });
    return String(row?.id);
  };
  const errorLog = async (createdAt: number, guestId: number | null): Promise<string> => {
    const text = unique('error');
    await app.db.insert(errorLogs).values({ guestId, text, createdAt });
    return text;
  };
  const delivery = async (createdAt: number, status: 'pending' | 'delivered' | 'failed'): Promise<string> => {
    const id = unique('delivery');
    await app.db.insert(triggerDeliveries).values({
      id,
      guestId: guest.id,
      method: 'POST',
      url: 'https://hooks.example/done',
      body: '{}',
      status,
      attempts: status === 'pending' ? 1 : 7,
      nextAttemptAt: status === 'pending' ? now + MINUTE : null,
      createdAt,
      deliveredAt: status === 'delivered' ? createdAt + MINUTE : null,
    });
    return id;
  };

  return {
    stale: {
      emailTokens: [await emailToken(now - 1, null), await emailToken(now + HOUR, now - MINUTE), await emailToken(now, null)],
      phoneCodes: [await phoneCode(now - EXPIRED_PHONE_CODE_KEPT_MS - 1, null), await phoneCode(now + 5 * MINUTE, now - MINUTE)],
      buckets: [await bucket(now - LONGEST_RATE_WINDOW_MS), await bucket(now - 2 * LONGEST_RATE_WINDOW_MS)],
      wardenSessions: [await wardenSession(now - 1), await wardenSession(now), await wardenSession(now + HOUR, now - WARDEN_IDLE_TIMEOUT_MS)],
      wardenSignIns: [await wardenSignIn(now - 1), await wardenSignIn(now)],
      wardenAudit: [await audited(now - WARDEN_AUDIT_RETENTION_MS), await audited(now - WARDEN_AUDIT_RETENTION_MS - HOUR)],
      errorLogs: [await errorLog(now - ERROR_LOG_RETENTION_MS, guest.id), await errorLog(now - ERROR_LOG_RETENTION_MS - HOUR, null)],
      triggerDeliveries: [
        await delivery(now - TRIGGER_DELIVERY_RETENTION_MS, 'delivered'),
        await delivery(now - TRIGGER_DELIVERY_RETENTION_MS - HOUR, 'failed'),
      ],
    },
    fresh: {
      emailTokens: [await emailToken(now + MINUTE, null)],
      // An expired code stays a while, so that it still answers 'expired'.
      phoneCodes: [await phoneCode(now + 5 * MINUTE, null), await phoneCode(now - HOUR, null)],
      buckets: [await bucket(now - LONGEST_RATE_WINDOW_MS + MINUTE), await bucket(now)],
      wardenSessions: [await wardenSession(now + MINUTE), await wardenSession(now + HOUR, now - WARDEN_IDLE_TIMEOUT_MS + MINUTE)],
      wardenSignIns: [await wardenSignIn(now + MINUTE)],
      wardenAudit: [await audited(now - WARDEN_AUDIT_RETENTION_MS + MINUTE), await audited(now)],
      errorLogs: [await errorLog(now - ERROR_LOG_RETENTION_MS + MINUTE, guest.id), await errorLog(now, null)],
      // A call still being retried stays, however old its jail.
      triggerDeliveries: [
        await delivery(now - TRIGGER_DELIVERY_RETENTION_MS + MINUTE, 'delivered'),
        await delivery(now - TRIGGER_DELIVERY_RETENTION_MS + MINUTE, 'failed'),
        await delivery(now - 2 * TRIGGER_DELIVERY_RETENTION_MS, 'pending'),
      ],
    },
  };
}

/** Which of the planted rows are still there, by kind. */
async function remaining(server: TestServer, planted: Planted): Promise<Kinds> {
  const { db } = server.app;
  const all = (kind: keyof Kinds): string[] => [...planted.stale[kind], ...planted.fresh[kind]];
  const sorted = (values: string[]): string[] => [...values].sort();
  return {
    emailTokens: sorted(
      (
        await db
          .select({ id: emailTokens.tokenHash })
          .from(emailTokens)
          .where(inArray(emailTokens.tokenHash, all('emailTokens')))
      ).map((row) => row.id),
    ),
    phoneCodes: sorted(
      (
        await db
          .select({ id: phoneCodes.id })
          .from(phoneCodes)
          .where(inArray(phoneCodes.id, all('phoneCodes')))
      ).map((row) => row.id),
    ),
    buckets: sorted(
      (
        await db
          .select({ id: rateLimitBuckets.key })
          .from(rateLimitBuckets)
          .where(inArray(rateLimitBuckets.key, all('buckets')))
      ).map((row) => row.id),
    ),
    wardenSessions: sorted(
      (
        await db
          .select({ id: wardenSessions.tokenHash })
          .from(wardenSessions)
          .where(inArray(wardenSessions.tokenHash, all('wardenSessions')))
      ).map((row) => row.id),
    ),
    wardenSignIns: sorted(
      (
        await db
          .select({ id: wardenSignIns.tokenHash })
          .from(wardenSignIns)
          .where(inArray(wardenSignIns.tokenHash, all('wardenSignIns')))
      ).map((row) => row.id),
    ),
    wardenAudit: sorted(
      (
        await db
          .select({ id: wardenAudit.id })
          .from(wardenAudit)
          .where(inArray(wardenAudit.id, all('wardenAudit').map(Number)))
      ).map((row) => String(row.id)),
    ),
    errorLogs: sorted(
      (
        await db
          .select({ id: errorLogs.text })
          .from(errorLogs)
          .where(inArray(errorLogs.text, all('errorLogs')))
      ).map((row) => row.id),
    ),
    triggerDeliveries: sorted(
      (
        await db
          .select({ id: triggerDeliveries.id })
          .from(triggerDeliveries)
          .where(inArray(triggerDeliveries.id, all('triggerDeliveries')))
      ).map((row) => row.id),
    ),
  };
}

function sortedFresh(planted: Planted): Kinds {
  const sorted = (values: string[]): string[] => [...values].sort();
  const { fresh } = planted;
  return {
    emailTokens: sorted(fresh.emailTokens),
    phoneCodes: sorted(fresh.phoneCodes),
    buckets: sorted(fresh.buckets),
    wardenSessions: sorted(fresh.wardenSessions),
    wardenSignIns: sorted(fresh.wardenSignIns),
    wardenAudit: sorted(fresh.wardenAudit),
    errorLogs: sorted(fresh.errorLogs),
    triggerDeliveries: sorted(fresh.triggerDeliveries),
  };
}

describe('the scheduler purge', () => {
  const server = useTestServer();

  it('drops used or expired e-mail tokens and phone codes, ended rate-limit windows, expired or idle console sessions, expired sign-in tickets, audit entries past their year, old error logs and old finished trigger calls on a tick', async () => {
    const planted = await plant(server, server.clock.now());
    await server.app.jailScheduler.tick();
    expect(await remaining(server, planted)).toEqual(sortedFresh(planted));
  });

  it('purges at the moved time on POST /dev/clock', async () => {
    const planted = await plant(server, server.clock.now() + 2 * HOUR);
    expect((await remaining(server, planted)).emailTokens).toHaveLength(4);
    const response = await server.app.inject({ method: 'POST', url: '/dev/clock', payload: { offsetMs: server.clock.offsetMs + 2 * HOUR } });
    expect(response.statusCode).toBe(200);
    expect(await remaining(server, planted)).toEqual(sortedFresh(planted));
  });

  it('refuses a rate rule whose window is longer than the purge assumes', async () => {
    const limiter = new RateLimiter(server.app.db, server.clock);
    await expect(limiter.hit('too-long', { limit: 1, windowMs: LONGEST_RATE_WINDOW_MS + 1 })).rejects.toThrow(/longer than LONGEST_RATE_WINDOW_MS/);
  });

  it('runs every step even when one fails, and then reports the failure', async () => {
    const planted = await plant(server, server.clock.now());
    const broken: PurgeStep = {
      name: 'a broken table',
      purge: async () => {
        throw new Error('relation does not exist');
      },
    };
    await expect(purgeExpired(server.app.db, server.clock.now(), [broken, ...PURGE_STEPS])).rejects.toThrow(
      new RegExp(`purging failed: 1 of ${PURGE_STEPS.length + 1} steps`),
    );
    expect(await remaining(server, planted)).toEqual(sortedFresh(planted));
  });
});

describe('the scheduler loop', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('purges on its first pass, then hourly, and on every explicit tick', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'performance'] });
    const idle = async (): Promise<number> => 0;
    let purges = 0;
    const scheduler = new JailScheduler(
      { startDue: idle, finishDue: idle, raiseOverruns: idle, purgePatrols: idle },
      Fastify({ logger: false }).log,
      async () => {
        purges += 1;
      },
    );
    scheduler.start();
    await vi.advanceTimersByTimeAsync(SCHEDULER_INTERVAL_MS);
    expect(purges).toBe(1);
    await vi.advanceTimersByTimeAsync(PURGE_INTERVAL_MS - 2 * SCHEDULER_INTERVAL_MS);
    expect(purges).toBe(1);
    await vi.advanceTimersByTimeAsync(2 * SCHEDULER_INTERVAL_MS);
    expect(purges).toBe(2);
    await scheduler.tick();
    expect(purges).toBe(3);
    await scheduler.stop();
  });
});

describe('rate-limit windows', () => {
  it('are never longer than the purge assumes', async () => {
    const rules = [...Object.values(RATE_RULES), WEBHOOK_CALLS_PER_ADDRESS, WEBHOOK_CALLS_PER_TOKEN, FORUM_POSTS_PER_GUEST];
    for (const rule of rules) expect(rule.windowMs).toBeLessThanOrEqual(LONGEST_RATE_WINDOW_MS);
  });
});

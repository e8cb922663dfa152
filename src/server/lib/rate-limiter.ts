import { and, eq, gt, sql } from 'drizzle-orm';
import { PHONE_CODE_RESEND_WAIT_MS } from '../../shared/api/guest.ts';
import type { Database } from '../db/database.ts';
import { rateLimitBuckets } from '../db/schema/index.ts';
import type { Clock } from './clock.ts';
import { ApiFailure } from './api.ts';

/** At most `limit` hits in a fixed window of `windowMs`. */
export interface RateRule {
  limit: number;
  windowMs: number;
}

const MINUTE = 60_000;

/** No rule's window is longer: a counter this old has ended whatever its rule, and the purge drops it (services/purge.ts). */
export const LONGEST_RATE_WINDOW_MS = 60 * MINUTE;

/** The limits of the server, by what they protect. */
export const RATE_RULES = {
  /** Sign-in attempts from one address. */
  signInPerAddress: { limit: 30, windowMs: 10 * MINUTE },
  /** Failed sign-ins of one account: then 15 minutes of rest, never longer. */
  signInFailuresPerAccount: { limit: 10, windowMs: 15 * MINUTE },
  /**
   * Wrong codes of one warden's second factor: with 3 codes good at any
   * moment (a step either side), 5 tries in 15 minutes leave a guesser who
   * has the password one chance in about 67,000 a window.
   */
  secondFactorFailuresPerWarden: { limit: 5, windowMs: 15 * MINUTE },
  /** Accounts created from one address. */
  signUpPerAddress: { limit: 10, windowMs: 60 * MINUTE },
  /** A code to one number after another: not before the wait the code screen counts down. */
  phoneCodeResendWait: { limit: 1, windowMs: PHONE_CODE_RESEND_WAIT_MS },
  /** SMS codes to one number (the rule: 3 per 10 minutes). */
  phoneCodesPerNumber: { limit: 3, windowMs: 10 * MINUTE },
  /** SMS codes asked for by one guest, whatever the number. */
  phoneCodesPerGuest: { limit: 6, windowMs: 10 * MINUTE },
  /** SMS codes asked for from one address. */
  phoneCodesPerAddress: { limit: 10, windowMs: 10 * MINUTE },
  /** Mails (verification, password reset) asked for about one account or address. */
  mailsPerAccount: { limit: 3, windowMs: 10 * MINUTE },
  /** Mails asked for from one address. */
  mailsPerAddress: { limit: 10, windowMs: 10 * MINUTE },
  /** Links (verification, password reset) opened from one address. */
  linksPerAddress: { limit: 30, windowMs: 10 * MINUTE },
  /** Cards tokenised by one guest (the local provider): trying card numbers one after another is slowed down. */
  cardTokensPerGuest: { limit: 20, windowMs: 10 * MINUTE },
  /** Browsers one guest turns reminders on in (docs/reminders.md): far more than a person turns on in an hour, and twice the devices a guest may have. */
  pushDevicesPerGuest: { limit: 20, windowMs: 60 * MINUTE },
  /** Exports of one guest's data: each reads the whole account. */
  exportsPerGuest: { limit: 10, windowMs: 60 * MINUTE },
  /** Error reports from one address. */
  errorLogsPerAddress: { limit: 60, windowMs: 10 * MINUTE },
} as const satisfies Record<string, RateRule>;

/**
 * Fixed-window counters kept in the database, so that they hold across
 * restarts and across server processes. A window ends by itself: nobody is
 * locked out for longer than one window.
 */
export class RateLimiter {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  /** Counts a hit; returns whether it is within the limit. */
  async hit(key: string, rule: RateRule): Promise<boolean> {
    return (await this.count(key, rule)).hits <= rule.limit;
  }

  /** Counts a hit and fails with 'too many attempts' when it is over the limit. */
  async enforce(key: string, rule: RateRule): Promise<void> {
    if (!(await this.hit(key, rule))) throw new ApiFailure('too_many_requests');
  }

  /**
   * Runs a check whose failures are limited (a password): the attempt is
   * counted before the check, in the same single statement as every hit, so
   * parallel attempts each get a count of their own and no more than the
   * limit are ever checked in a window. Over the limit it fails with 'too
   * many attempts' without checking; a check that passes gives its count
   * back, so that only failures stay counted. Returns whether it passed.
   */
  async attempt(key: string, rule: RateRule, check: () => Promise<boolean>): Promise<boolean> {
    const counted = await this.count(key, rule);
    if (counted.hits > rule.limit) throw new ApiFailure('too_many_requests');
    const passed = await check();
    if (passed) {
      // Only within the window it was counted in: a window begun since counts from nothing already.
      await this.db
        .update(rateLimitBuckets)
        .set({ hits: sql`${rateLimitBuckets.hits} - 1` })
        .where(and(eq(rateLimitBuckets.key, key), eq(rateLimitBuckets.windowStartedAt, counted.windowStartedAt), gt(rateLimitBuckets.hits, 0)));
    }
    return passed;
  }

  /** Adds a hit to the key's window (a new window when the last has ended), in one atomic statement; answers the window's count. */
  private async count(key: string, rule: RateRule): Promise<{ hits: number; windowStartedAt: number }> {
    if (rule.windowMs > LONGEST_RATE_WINDOW_MS) throw new Error(`a rate rule's window of ${rule.windowMs} ms is longer than LONGEST_RATE_WINDOW_MS`);
    const now = this.clock.now();
    const windowStart = now - rule.windowMs;
    const [bucket] = await this.db
      .insert(rateLimitBuckets)
      .values({ key, windowStartedAt: now, hits: 1 })
      .onConflictDoUpdate({
        target: rateLimitBuckets.key,
        set: {
          hits: sql`case when ${rateLimitBuckets.windowStartedAt} <= ${windowStart} then 1 else ${rateLimitBuckets.hits} + 1 end`,
          windowStartedAt: sql`case when ${rateLimitBuckets.windowStartedAt} <= ${windowStart} then ${now} else ${rateLimitBuckets.windowStartedAt} end`,
        },
      })
      .returning({ hits: rateLimitBuckets.hits, windowStartedAt: rateLimitBuckets.windowStartedAt });
    if (bucket === undefined) throw new Error('the rate limit counter returned no row');
    return bucket;
  }
}

import { and, isNotNull, isNull, lte, ne, or, sql } from 'drizzle-orm';
import { DAY_MS } from '../../shared/durations.ts';
import type { Database } from '../db/database.ts';
import { deletedAccountContacts, emailTokens, errorLogs, phoneCodes, rateLimitBuckets, triggerDeliveries, wardenSessions } from '../db/schema/index.ts';
import { LONGEST_RATE_WINDOW_MS } from '../lib/rate-limiter.ts';
import { WARDEN_IDLE_TIMEOUT_MS } from '../../shared/api/warden.ts';
import { purgeWardenSignIns } from './second-factor.ts';
import { purgeWardenAudit } from './warden-audit.ts';

/**
 * Rows that have outlived their use, dropped by the scheduler
 * (jail/scheduler.ts: hourly, and on every `POST /dev/clock`). Each step is
 * a plain DELETE ... WHERE, so any number of servers may run it at once.
 */
export interface PurgeStep {
  /** What the step drops, for the log of a failed pass. */
  name: string;
  purge(db: Database, now: number): Promise<void>;
}

/** An expired SMS code still answers 'expired' (rather than 'wrong') for a day before it goes. */
export const EXPIRED_PHONE_CODE_KEPT_MS = 24 * 3_600_000;

/**
 * A client error report is kept this long (docs/privacy.md): long enough to
 * see a failure come back across a release or two and to answer a guest who
 * writes about one; an older report helps nobody and may still name its guest.
 */
export const ERROR_LOG_RETENTION_MS = 90 * DAY_MS;

/**
 * A trigger call that is over (delivered, or failed after its last retry,
 * which comes within a day) is kept this long after the jail that made it
 * finished: the Collaboration screen lists the last calls so that the guest
 * can see their automation work; a month of them answers that.
 */
export const TRIGGER_DELIVERY_RETENTION_MS = 30 * DAY_MS;

/** A mailed link's token, once used or expired: nothing reads it any more (services/mail-links.ts). */
async function purgeEmailTokens(db: Database, now: number): Promise<void> {
  await db.delete(emailTokens).where(or(isNotNull(emailTokens.usedAt), lte(emailTokens.expiresAt, now)));
}

/** An SMS code, once used, or a day after it expired. */
async function purgePhoneCodes(db: Database, now: number): Promise<void> {
  await db.delete(phoneCodes).where(or(isNotNull(phoneCodes.usedAt), lte(phoneCodes.expiresAt, now - EXPIRED_PHONE_CODE_KEPT_MS)));
}

/** A rate-limit counter whose window is over whatever its rule: the next hit starts a new one anyway. */
async function purgeRateLimitBuckets(db: Database, now: number): Promise<void> {
  await db.delete(rateLimitBuckets).where(lte(rateLimitBuckets.windowStartedAt, now - LONGEST_RATE_WINDOW_MS));
}

/** A console session past its 12 hours or its idle time. */
async function purgeWardenSessions(db: Database, now: number): Promise<void> {
  await db.delete(wardenSessions).where(or(lte(wardenSessions.expiresAt, now), lte(wardenSessions.lastUsedAt, now - WARDEN_IDLE_TIMEOUT_MS)));
}

/** A client error report past its time, with a guest or without. */
async function purgeErrorLogs(db: Database, now: number): Promise<void> {
  await db.delete(errorLogs).where(lte(errorLogs.createdAt, now - ERROR_LOG_RETENTION_MS));
}

/** A trigger call that is over, past its time; one still being retried stays whatever its age. */
async function purgeTriggerDeliveries(db: Database, now: number): Promise<void> {
  await db.delete(triggerDeliveries).where(and(ne(triggerDeliveries.status, 'pending'), lte(triggerDeliveries.createdAt, now - TRIGGER_DELIVERY_RETENTION_MS)));
}

/**
 * What a deleted account left under a contact (services/contacts.ts), once
 * nothing in it matters: its suspension and block are over and it has no
 * trial end (which keeps the contact from a second trial for good).
 */
async function purgeDeletedAccounts(db: Database, now: number): Promise<void> {
  await db
    .delete(deletedAccountContacts)
    .where(
      and(
        isNull(deletedAccountContacts.trialEndedAt),
        lte(sql`coalesce(${deletedAccountContacts.suspendedUntil}, 0)`, now),
        lte(sql`coalesce(${deletedAccountContacts.earlyFinishBlockUntil}, 0)`, now),
      ),
    );
}

export const PURGE_STEPS: readonly PurgeStep[] = [
  { name: 'e-mail tokens', purge: purgeEmailTokens },
  { name: 'phone codes', purge: purgePhoneCodes },
  { name: 'rate-limit buckets', purge: purgeRateLimitBuckets },
  { name: 'warden sessions', purge: purgeWardenSessions },
  { name: 'warden sign-ins', purge: purgeWardenSignIns },
  { name: 'warden audit', purge: purgeWardenAudit },
  { name: 'error logs', purge: purgeErrorLogs },
  { name: 'trigger deliveries', purge: purgeTriggerDeliveries },
  { name: 'deleted accounts', purge: purgeDeletedAccounts },
];

/** Runs every step; a step that fails does not keep the others from running, and the failures are thrown together after them. */
export async function purgeExpired(db: Database, now: number, steps: readonly PurgeStep[] = PURGE_STEPS): Promise<void> {
  const failures: unknown[] = [];
  for (const step of steps) {
    try {
      await step.purge(db, now);
    } catch (error) {
      failures.push(new Error(`purging ${step.name} failed`, { cause: error }));
    }
  }
  if (failures.length > 0) throw new AggregateError(failures, `purging failed: ${failures.length} of ${steps.length} steps`);
}

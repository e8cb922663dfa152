import { pgTable, text } from 'drizzle-orm/pg-core';
import { epochMs } from './guests.ts';

/**
 * What is kept of a deleted account, and only while it matters
 * (docs/privacy.md, Deletion): keyed by the SHA-256 of the lower-cased
 * e-mail address, never the address itself. Signing up again with that
 * address gets back a suspension or an early-finish block still running,
 * and no open trial. The purge drops a row once nothing in it matters
 * (services/account-deletion.ts).
 */
export const deletedAccounts = pgTable('deleted_accounts', {
  emailHash: text('email_hash').primaryKey(),
  /** Booking refused until then (three ignored jails or forced ends); null when none was running. */
  suspendedUntil: epochMs('suspended_until'),
  /** Booking refused until then (a jail ended early); null when none was running. */
  earlyFinishBlockUntil: epochMs('early_finish_block_until'),
  /** When the trial ended or ends; null while the account still had its open trial. */
  trialEndedAt: epochMs('trial_ended_at'),
  deletedAt: epochMs('deleted_at').notNull(),
});

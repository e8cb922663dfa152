import { integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { epochMs, guests } from './guests.ts';

/**
 * Every e-mail address and phone number a guest has verified, each only as
 * the SHA-256 of its key (services/contacts.ts): a suspension or a used
 * trial follows any of them to another account, and a deleted account
 * leaves what matters under each of them (`deleted_account_contacts`).
 * docs/privacy.md, "What is kept of a deleted account".
 */
export const verifiedContacts = pgTable(
  'verified_contacts',
  {
    guestId: integer('guest_id')
      .notNull()
      .references(() => guests.id, { onDelete: 'cascade' }),
    contactHash: text('contact_hash').notNull(),
    /** When the guest first verified it. */
    verifiedAt: epochMs('verified_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.guestId, table.contactHash] })],
);

/**
 * What outlives a deleted account, under the hash of each address and phone
 * number it verified (the contact itself is not kept), and only while it
 * matters: signing up with one of them, or verifying one, gets back a
 * suspension or an early-finish block still running, and no open trial.
 * The purge drops a row once nothing in it matters (services/purge.ts).
 */
export const deletedAccountContacts = pgTable('deleted_account_contacts', {
  contactHash: text('contact_hash').primaryKey(),
  /** Booking refused until then (three ignored jails or forced ends); null when none was running. */
  suspendedUntil: epochMs('suspended_until'),
  /** Booking refused until then (a jail ended early); null when none was running. */
  earlyFinishBlockUntil: epochMs('early_finish_block_until'),
  /** When the trial ended or ends; null while the account still had its open trial. */
  trialEndedAt: epochMs('trial_ended_at'),
  deletedAt: epochMs('deleted_at').notNull(),
});

import { and, eq, getTableColumns, sql } from 'drizzle-orm';
import { PLANS } from '../../shared/plans.ts';
import { DEFAULT_SMS_COUNTRY_CODE, type SmsConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { deletedAccountContacts, guests, verifiedContacts, type GuestRow } from '../db/schema/index.ts';
import { hashToken } from '../lib/secrets.ts';
import { internationalNumber } from '../lib/twilio-transport.ts';

/**
 * A guest's contacts: the e-mail addresses and phone numbers the guest has
 * verified, each kept only as the SHA-256 of its key (docs/privacy.md,
 * "What is kept of a deleted account"). They are how a deleted account's
 * suspension, early-finish block and used trial follow the person: a new
 * account that signs up with, or verifies, a contact of a deleted account
 * gets them back (docs/rules.md, "Suspensions and trials follow the person").
 */

/** The key of an address: lower-cased, as deleted accounts have always been kept. */
export function addressContactHash(email: string): string {
  return hashToken(email.toLowerCase());
}

/**
 * The key of a phone number: international, as the SMS goes out, so that
 * "090…" and "+8190…" are one number.
 */
export function phoneContactHash(phone: string, sms: SmsConfig): string {
  return hashToken(internationalNumber(phone, sms.provider === 'twilio' ? sms.countryCode : DEFAULT_SMS_COUNTRY_CODE));
}

/**
 * Every contact of the guest: those recorded, and the current address when
 * verified and the current phone (an account from before the record began
 * has them only there).
 */
export async function contactHashesOf(db: Database, guest: GuestRow, sms: SmsConfig): Promise<string[]> {
  const recorded = await db.select({ contactHash: verifiedContacts.contactHash }).from(verifiedContacts).where(eq(verifiedContacts.guestId, guest.id));
  const current = [...(guest.isVerified ? [addressContactHash(guest.email)] : []), ...(guest.phone === null ? [] : [phoneContactHash(guest.phone, sms)])];
  return [...new Set([...recorded.map((row) => row.contactHash), ...current])];
}

/**
 * Gives the guest what a deleted account left under this contact: a
 * suspension or an early-finish block still running (the later of the
 * guest's own and the deleted account's), and, on the trial plan, the
 * trial's end (the earlier of the two; an open trial gets the deleted
 * account's). A paid or granted plan keeps its end: when it falls back to
 * the trial, that trial has ended already. Returns the guest as it is now,
 * or null when no deleted account had the contact.
 */
export async function carryOverFromDeletedAccount(db: Database, guestId: number, contactHash: string, now: number): Promise<GuestRow | null> {
  const kept = deletedAccountContacts;
  const running = (column: typeof kept.suspendedUntil) => sql`case when ${column} > ${now} then ${column} end`;
  const [carried] = await db
    .update(guests)
    .set({
      // greatest and least pass over nulls: a side without a value leaves the other.
      suspendedUntil: sql`greatest(${guests.suspendedUntil}, ${running(kept.suspendedUntil)})`,
      earlyFinishBlockUntil: sql`greatest(${guests.earlyFinishBlockUntil}, ${running(kept.earlyFinishBlockUntil)})`,
      subscriptionExpiredAt: sql`case when ${guests.subscriptionPlan} = ${PLANS.trial.code} then least(${guests.subscriptionExpiredAt}, ${kept.trialEndedAt}) else ${guests.subscriptionExpiredAt} end`,
    })
    .from(kept)
    .where(and(eq(guests.id, guestId), eq(kept.contactHash, contactHash)))
    .returning(getTableColumns(guests));
  return carried ?? null;
}

/**
 * Keeps what matters of a deleted account under each of its contacts; a
 * contact deleted before keeps what matters of both (the later sanction,
 * the trial's end once there is one).
 */
export async function keepUnderContacts(
  db: Database,
  contactHashes: readonly string[],
  kept: Omit<typeof deletedAccountContacts.$inferInsert, 'contactHash'>,
): Promise<void> {
  if (contactHashes.length === 0) return;
  await db
    .insert(deletedAccountContacts)
    .values(contactHashes.map((contactHash) => ({ contactHash, ...kept })))
    .onConflictDoUpdate({
      target: deletedAccountContacts.contactHash,
      set: {
        suspendedUntil: sql`greatest(excluded.suspended_until, ${deletedAccountContacts.suspendedUntil})`,
        earlyFinishBlockUntil: sql`greatest(excluded.early_finish_block_until, ${deletedAccountContacts.earlyFinishBlockUntil})`,
        trialEndedAt: sql`coalesce(excluded.trial_ended_at, ${deletedAccountContacts.trialEndedAt})`,
        deletedAt: kept.deletedAt,
      },
    });
}

/**
 * The guest has just verified this contact (an address by its link, a
 * phone number by its code): it is recorded (the first time stays), and
 * what a deleted account left under it is carried over. Returns the guest
 * as it is now, or null when nothing was carried over.
 */
export async function contactVerified(db: Database, guestId: number, contactHash: string, now: number): Promise<GuestRow | null> {
  await db.insert(verifiedContacts).values({ guestId, contactHash, verifiedAt: now }).onConflictDoNothing();
  return carryOverFromDeletedAccount(db, guestId, contactHash, now);
}

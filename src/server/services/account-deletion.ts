import { eq } from 'drizzle-orm';
import { paidPlanOf } from '../../shared/plans.ts';
import type { SmsConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { errorLogs, forumMessages, guests, type deletedAccountContacts, type GuestRow } from '../db/schema/index.ts';
import type { GuestEvents } from '../jail/guest-events.ts';
import { ApiFailure } from '../lib/api.ts';
import type { Clock } from '../lib/clock.ts';
import { contactHashesOf, keepUnderContacts } from './contacts.ts';
import type { PaymentProvider } from './payments/provider.ts';
import { customerAt, trialEndAfterPaidPlan } from './payments/subscriptions.ts';
import { endGuestSessions } from './sessions.ts';

/**
 * Deleting an account (docs/privacy.md, Deletion), and what it leaves for a
 * new account with one of its verified addresses or phone numbers: a
 * suspension or an early-finish block still running, and no open trial.
 * Only that is kept, under the SHA-256 of each contact
 * (`deleted_account_contacts`, services/contacts.ts), and only while it
 * matters (the purge step of services/purge.ts).
 */

export interface AccountDeletionContext {
  db: Database;
  clock: Clock;
  provider: PaymentProvider;
  jails: Pick<GuestEvents, 'finishForAccountDeletion'>;
  /** How a phone number's key is made (its country). */
  sms: SmsConfig;
}

/** A suspension or block that has not ended at `now`, else null. */
function stillRunning(until: number | null, now: number): number | null {
  return until !== null && until > now ? until : null;
}

/**
 * When the account's trial ended or ends, so that the address gets no new
 * one: a card plan ends with the account as it would by unsubscribing (the
 * trial runs to the end of the month paid for); a trial or a granted plan
 * has its end (`subscriptionExpiredAt`); null while the trial is open.
 */
function trialEndOf(guest: GuestRow, now: number): number | null {
  if (paidPlanOf(guest.subscriptionPlan) !== null) return trialEndAfterPaidPlan(guest, now);
  return guest.subscriptionExpiredAt;
}

/** What is kept of the account at `now`: only what still matters, or null when nothing does. */
function keptOf(guest: GuestRow, now: number): Omit<typeof deletedAccountContacts.$inferInsert, 'contactHash'> | null {
  const kept = {
    suspendedUntil: stillRunning(guest.suspendedUntil, now),
    earlyFinishBlockUntil: stillRunning(guest.earlyFinishBlockUntil, now),
    trialEndedAt: trialEndOf(guest, now),
  };
  if (kept.suspendedUntil === null && kept.earlyFinishBlockUntil === null && kept.trialEndedAt === null) return null;
  return { ...kept, deletedAt: now };
}

/**
 * Deletes the guest's account, in this order: a live jail is finished (the
 * engine's early finish, so that the devices and the wardens see it end);
 * the payment provider's customer is deleted (nothing can be charged
 * afterwards; when the provider cannot be reached this fails with
 * 'payment_provider_unavailable' and nothing is deleted); then in one
 * transaction what matters of the account is kept under the hash of each
 * address and phone number it verified, the forum posts lose their author,
 * the guest's error logs go, every session ends, and the guest row goes,
 * taking everything tied to it by the foreign keys (payments stay, their
 * guest set to null). Returns the token hashes of the sessions ended, whose
 * sockets the caller ends.
 */
export async function deleteAccount(ctx: AccountDeletionContext, guestId: number): Promise<string[]> {
  await ctx.jails.finishForAccountDeletion(guestId);
  const [guest] = await ctx.db.select().from(guests).where(eq(guests.id, guestId));
  if (guest === undefined) throw new ApiFailure('authentication_failed');
  const customerId = customerAt(ctx.provider, guest);
  if (customerId !== null) await ctx.provider.deleteCustomer(customerId);
  return ctx.db.transaction(async (tx) => {
    const [current] = await tx.select().from(guests).where(eq(guests.id, guestId)).for('update');
    if (current === undefined) throw new ApiFailure('authentication_failed');
    const now = ctx.clock.now();
    const kept = keptOf(current, now);
    if (kept !== null) await keepUnderContacts(tx, await contactHashesOf(tx, current, ctx.sms), kept);
    // Posts stay in the forum without their author; the screen names them "Former member".
    await tx.update(forumMessages).set({ guestId: null, username: '' }).where(eq(forumMessages.guestId, guestId));
    await tx.delete(errorLogs).where(eq(errorLogs.guestId, guestId));
    const ended = await endGuestSessions(tx, guestId, null);
    await tx.delete(guests).where(eq(guests.id, guestId));
    return ended;
  });
}

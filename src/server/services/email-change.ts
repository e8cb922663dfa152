import { and, eq, gt, isNull, ne } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/database.ts';
import { emailTokens, guests, pushDevices, type GuestRow } from '../db/schema/index.ts';
import { ApiFailure } from '../lib/api.ts';
import { hashPassword, hashToken, newToken } from '../lib/secrets.ts';
import { addressContactHash, contactVerified } from './contacts.ts';
import { explainUniqueViolation } from './guests.ts';
import { consumeAllMailLinks, consumeMailLink, sendEmailChangedNotice, sendMailLink, type UsedMailLink } from './mail-links.ts';
import { endGuestSessions } from './sessions.ts';

/**
 * The account's e-mail address, which signs in and receives the password
 * resets (docs/sessions.md, "Changing the e-mail address"): a new one waits
 * (`pendingEmail`) until the link mailed to it is opened, the old one
 * staying in force meanwhile; a reset link works only while the address it
 * was mailed to is the account's; once the address changes, the former one
 * gets the way back (`take_back`), which gives it the account again.
 */

/**
 * Fails with 'email_taken' while the address is held for another account's
 * way back: the former address of a changed account cannot be taken by a new
 * account (or moved to by another) while its owner may still want it back.
 */
export async function assertAddressNotHeldForTakeBack(db: Database, email: string, exceptGuestId: number | null, now: number): Promise<void> {
  const [held] = await db
    .select({ guestId: emailTokens.guestId })
    .from(emailTokens)
    .where(
      and(
        eq(emailTokens.purpose, 'take_back'),
        eq(emailTokens.email, email),
        isNull(emailTokens.usedAt),
        gt(emailTokens.expiresAt, now),
        exceptGuestId === null ? undefined : ne(emailTokens.guestId, exceptGuestId),
      ),
    )
    .limit(1);
  if (held !== undefined) throw new ApiFailure('email_taken');
}

/**
 * Asks for `email`, an address the caller found free, as the account's new
 * address: it is kept pending and a link to confirm it is mailed there (an
 * earlier pending address is replaced, and its link no longer works).
 * Returns the guest as it is now.
 */
export async function askForNewAddress(app: FastifyInstance, guest: GuestRow, email: string): Promise<GuestRow> {
  const now = app.clock.now();
  const [asked] = await app.db.update(guests).set({ pendingEmail: email, updatedAt: now }).where(eq(guests.id, guest.id)).returning();
  if (asked === undefined) throw new ApiFailure('authentication_failed');
  await sendMailLink(app, asked, 'confirm_new_email', email);
  return asked;
}

/** Mails the link that verifies the address waiting to be verified: the pending one, else the account's own. */
export async function resendVerificationLink(app: FastifyInstance, guest: GuestRow): Promise<void> {
  if (guest.pendingEmail !== null) return sendMailLink(app, guest, 'confirm_new_email', guest.pendingEmail);
  if (guest.isVerified) throw new ApiFailure('already_verified');
  return sendMailLink(app, guest, 'verify_email');
}

/** Drops the pending address; its link no longer works. Returns the guest as it is now. */
export async function cancelNewAddress(db: Database, guestId: number, now: number): Promise<GuestRow> {
  const [cancelled] = await db.update(guests).set({ pendingEmail: null, updatedAt: now }).where(eq(guests.id, guestId)).returning();
  if (cancelled === undefined) throw new ApiFailure('authentication_failed');
  return cancelled;
}

/**
 * `/guest/verifyEmail`: a link proves only the address it was sent to. To
 * the account's address, it verifies it; to the pending address, the
 * account's address becomes that one, verified, and the reset links mailed
 * to the former address stop working; the former address, when it was
 * verified, is told and gets the way back. Either way the address is one
 * of the guest's contacts from then on, and what a deleted account left
 * under it is carried over (services/contacts.ts). Answers the guest's id.
 */
export async function verifyMailedAddress(app: FastifyInstance, token: string): Promise<number> {
  const link = await consumeMailLink(app, token, 'verify_email');
  if (link === null) throw new ApiFailure('link_invalid');
  const now = app.clock.now();
  const changed = await app.db.transaction(async (tx) => {
    const [guest] = await tx.select().from(guests).where(eq(guests.id, link.guestId)).for('update');
    if (guest === undefined || (guest.email !== link.email && guest.pendingEmail !== link.email)) throw new ApiFailure('link_invalid');
    if (guest.email === link.email) {
      await tx.update(guests).set({ isVerified: true, updatedAt: now }).where(eq(guests.id, guest.id));
      await contactVerified(tx, guest.id, addressContactHash(link.email), now);
      return null;
    }
    await assertAddressNotHeldForTakeBack(tx, link.email, guest.id, now);
    const [moved] = await tx
      .update(guests)
      .set({ email: link.email, pendingEmail: null, isVerified: true, updatedAt: now })
      .where(eq(guests.id, guest.id))
      .returning()
      .catch(explainUniqueViolation);
    if (moved === undefined) throw new ApiFailure('link_invalid');
    await consumeAllMailLinks(tx, guest.id, ['reset_password'], now);
    const carried = await contactVerified(tx, guest.id, addressContactHash(link.email), now);
    // An address never verified may be anyone's: it gets no way back into the account.
    return guest.isVerified ? { guest: carried ?? moved, formerEmail: guest.email } : null;
  });
  if (changed !== null) await sendEmailChangedNotice(app, changed.guest, changed.formerEmail);
  return link.guestId;
}

/** A password just set with a mailed link: the guest as it is now, and the token hashes of the sessions ended (the caller ends their sockets). */
interface PasswordSet {
  guest: GuestRow;
  ended: string[];
}

/**
 * Uses up the link, then in one transaction `change` writes the new
 * password's hash with what else the link does (the guest, or undefined
 * when the link no longer applies: 'link_invalid'), and every session of
 * the guest ends.
 */
async function setPasswordByLink(
  app: FastifyInstance,
  token: string,
  purpose: 'reset_password' | 'take_back',
  password: string,
  change: (tx: Database, link: UsedMailLink, passwordHash: string, now: number) => Promise<GuestRow | undefined>,
): Promise<PasswordSet> {
  const link = await consumeMailLink(app, token, purpose);
  if (link === null) throw new ApiFailure('link_invalid');
  const passwordHash = await hashPassword(password);
  const now = app.clock.now();
  return app.db.transaction(async (tx) => {
    const guest = await change(tx, link, passwordHash, now);
    if (guest === undefined) throw new ApiFailure('link_invalid');
    return { guest, ended: await endGuestSessions(tx, guest.id, null) };
  });
}

/**
 * `/guest/updatePassword`: sets the password with a reset link, which works
 * only while the address it was mailed to is the account's; the other reset
 * links are used up.
 */
export function resetPasswordByLink(app: FastifyInstance, token: string, password: string): Promise<PasswordSet> {
  return setPasswordByLink(app, token, 'reset_password', password, async (tx, link, passwordHash, now) => {
    const [guest] = await tx
      .update(guests)
      .set({ passwordHash, updatedAt: now })
      .where(and(eq(guests.id, link.guestId), eq(guests.email, link.email)))
      .returning();
    if (guest !== undefined) await consumeAllMailLinks(tx, guest.id, ['reset_password'], now);
    return guest;
  });
}

/**
 * `/guest/takeBack`: the former address's owner takes the account back with
 * the link of the changed-address notice and a new password. The account's
 * address is the former one again, verified, with no pending one; every
 * link mailed before stops working but the way back of an earlier change
 * (an earlier owner's); and every credential the intruder may have read or
 * made stops working: the calendar feed's and the webhook's addresses, the
 * trigger's signing secret, the reminder devices.
 */
export function takeBackAccount(app: FastifyInstance, token: string, password: string): Promise<PasswordSet> {
  return setPasswordByLink(app, token, 'take_back', password, async (tx, link, passwordHash, now) => {
    const [guest] = await tx
      .update(guests)
      .set({
        email: link.email,
        pendingEmail: null,
        isVerified: true,
        passwordHash,
        calendarFeedToken: null,
        calendarFeedTokenHint: null,
        // A webhook address nobody knows: the guest makes a new one to see it.
        webhookToken: hashToken(newToken()),
        webhookTokenHint: null,
        triggerSecret: null,
        updatedAt: now,
      })
      .where(eq(guests.id, link.guestId))
      .returning()
      .catch(explainUniqueViolation);
    if (guest === undefined) return undefined;
    await tx.delete(pushDevices).where(eq(pushDevices.guestId, guest.id));
    await consumeAllMailLinks(tx, guest.id, ['verify_email', 'reset_password'], now);
    await consumeAllMailLinks(tx, guest.id, ['take_back'], now, link.createdAt);
    return guest;
  });
}

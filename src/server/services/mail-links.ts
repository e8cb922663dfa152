import { and, eq, gt, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { message } from '../../shared/messages.ts';
import { appUrl } from '../config.ts';
import { emailTokens, type EmailTokenPurpose, type GuestRow } from '../db/schema/index.ts';
import { hashToken, newToken } from '../lib/secrets.ts';

const HOUR = 60 * 60 * 1000;

/** How long a link works: verification 24 hours, password reset 1 hour. */
export const MAIL_LINK_LIFETIME_MS: Record<EmailTokenPurpose, number> = {
  verify_email: 24 * HOUR,
  reset_password: HOUR,
};

const LINK_PATH: Record<EmailTokenPurpose, string> = {
  verify_email: '/guest/verifyEmail/',
  reset_password: '/guest/updatePassword/',
};

const MAIL_TEXTS = {
  verify_email: { subject: 'verify_email_subject', text: 'verify_email_text' },
  reset_password: { subject: 'reset_password_subject', text: 'reset_password_text' },
} as const;

/**
 * Mails the guest a single-use link (`{PUBLIC_URL}/guest/verifyEmail/{token}`
 * or `/guest/updatePassword/{token}`), in the guest's language, to the
 * guest's current address.
 */
export async function sendMailLink(app: FastifyInstance, guest: GuestRow, purpose: EmailTokenPurpose): Promise<void> {
  const token = newToken();
  const now = app.clock.now();
  await app.db.insert(emailTokens).values({
    tokenHash: hashToken(token),
    guestId: guest.id,
    purpose,
    email: guest.email,
    createdAt: now,
    expiresAt: now + MAIL_LINK_LIFETIME_MS[purpose],
  });
  const url = `${appUrl(app.config)}${LINK_PATH[purpose]}${token}`;
  const texts = MAIL_TEXTS[purpose];
  app.outbox.send({
    channel: 'email',
    to: guest.email,
    subject: message(guest.language, texts.subject),
    text: message(guest.language, texts.text, { title: guest.title, url }),
  });
}

/**
 * Tells the guest's former address that the account's e-mail address is
 * now the guest's (after an e-mail change), in the guest's language, with
 * the way back if it was not the guest: a password reset for the former
 * address.
 */
export function sendEmailChangedNotice(app: FastifyInstance, guest: GuestRow, formerEmail: string): void {
  app.outbox.send({
    channel: 'email',
    to: formerEmail,
    subject: message(guest.language, 'email_changed_subject'),
    text: message(guest.language, 'email_changed_text', { title: guest.title, email: guest.email, url: `${appUrl(app.config)}/guest/resetPasswordEmail` }),
  });
}

/**
 * Uses up a link's token: returns the guest and address it was sent for, or
 * null when the token is unknown, of another purpose, used or expired.
 */
export async function consumeMailLink(app: FastifyInstance, token: string, purpose: EmailTokenPurpose): Promise<{ guestId: number; email: string } | null> {
  const now = app.clock.now();
  const [used] = await app.db
    .update(emailTokens)
    .set({ usedAt: now })
    .where(and(eq(emailTokens.tokenHash, hashToken(token)), eq(emailTokens.purpose, purpose), isNull(emailTokens.usedAt), gt(emailTokens.expiresAt, now)))
    .returning({ guestId: emailTokens.guestId, email: emailTokens.email });
  return used ?? null;
}

/** Uses up every open link of this purpose of the guest (after a password reset). */
export async function consumeAllMailLinks(app: FastifyInstance, guestId: number, purpose: EmailTokenPurpose): Promise<void> {
  await app.db
    .update(emailTokens)
    .set({ usedAt: app.clock.now() })
    .where(and(eq(emailTokens.guestId, guestId), eq(emailTokens.purpose, purpose), isNull(emailTokens.usedAt)));
}

import { and, eq, gt, gte, inArray, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { DAY_MS, HOUR_MS, WEEK_MS } from '../../shared/durations.ts';
import { message, type MessageKey } from '../../shared/messages.ts';
import { appUrl } from '../config.ts';
import type { Database } from '../db/database.ts';
import { emailTokens, type EmailTokenPurpose, type GuestRow } from '../db/schema/index.ts';
import { hashToken, newToken } from '../lib/secrets.ts';

/**
 * How long a link works: verification 24 hours, password reset 1 hour, the
 * way back after an e-mail change 7 days (a notice may wait unread a while).
 */
export const MAIL_LINK_LIFETIME_MS: Record<EmailTokenPurpose, number> = {
  verify_email: 24 * HOUR_MS,
  reset_password: HOUR_MS,
  take_back: WEEK_MS,
};

const LINK_PATH: Record<EmailTokenPurpose, string> = {
  verify_email: '/guest/verifyEmail/',
  reset_password: '/guest/updatePassword/',
  take_back: '/guest/takeBack/',
};

/** The mails that are a link and its words: the link's purpose, the subject and the text. */
const LINK_MAILS = {
  /** After sign-up, or again for an address not yet verified. */
  verify_email: { purpose: 'verify_email', subject: 'verify_email_subject', text: 'verify_email_text' },
  /** To a new address the guest asked for (`pendingEmail`). */
  confirm_new_email: { purpose: 'verify_email', subject: 'confirm_email_subject', text: 'confirm_email_text' },
  reset_password: { purpose: 'reset_password', subject: 'reset_password_subject', text: 'reset_password_text' },
} as const satisfies Record<string, { purpose: EmailTokenPurpose; subject: MessageKey; text: MessageKey }>;

/**
 * Makes a single-use link of this purpose for the guest, for the address it
 * is mailed to, and returns its URL (`{PUBLIC_URL}/guest/verifyEmail/{token}`,
 * `/guest/updatePassword/{token}` or `/guest/takeBack/{token}`); the
 * database keeps only the token's hash.
 */
async function newMailLink(app: FastifyInstance, guestId: number, purpose: EmailTokenPurpose, email: string): Promise<string> {
  const token = newToken();
  const now = app.clock.now();
  await app.db.insert(emailTokens).values({
    tokenHash: hashToken(token),
    guestId,
    purpose,
    email,
    createdAt: now,
    expiresAt: now + MAIL_LINK_LIFETIME_MS[purpose],
  });
  return `${appUrl(app.config)}${LINK_PATH[purpose]}${token}`;
}

/** Mails the guest a link (`mail`), in the guest's language, to `to`: the account's address unless said. */
export async function sendMailLink(app: FastifyInstance, guest: GuestRow, mail: keyof typeof LINK_MAILS, to: string = guest.email): Promise<void> {
  const { purpose, subject, text } = LINK_MAILS[mail];
  const url = await newMailLink(app, guest.id, purpose, to);
  app.outbox.send({ channel: 'email', to, subject: message(guest.language, subject), text: message(guest.language, text, { title: guest.title, url }) });
}

/**
 * Tells the former address that the account's address is now `guest.email`
 * (an e-mail change was verified), in the guest's language, with the way
 * back if it was not the guest: a link that gives the account back to the
 * former address (`/guest/takeBack`, services/email-change.ts).
 */
export async function sendEmailChangedNotice(app: FastifyInstance, guest: GuestRow, formerEmail: string): Promise<void> {
  const url = await newMailLink(app, guest.id, 'take_back', formerEmail);
  app.outbox.send({
    channel: 'email',
    to: formerEmail,
    subject: message(guest.language, 'email_changed_subject'),
    text: message(guest.language, 'email_changed_text', { title: guest.title, email: guest.email, url, days: MAIL_LINK_LIFETIME_MS.take_back / DAY_MS }),
  });
}

/**
 * Tells the account's address that its password was just set through a
 * mailed link, in the guest's language, and what to do if it was not the
 * guest: whoever did it can read that mailbox.
 */
export function sendPasswordChangedNotice(app: FastifyInstance, guest: GuestRow): void {
  app.outbox.send({
    channel: 'email',
    to: guest.email,
    subject: message(guest.language, 'password_changed_subject'),
    text: message(guest.language, 'password_changed_text', { title: guest.title, url: `${appUrl(app.config)}/guest/resetPasswordEmail` }),
  });
}

/** A link that was used: the guest, the address it was sent to, and when it was made. */
export interface UsedMailLink {
  guestId: number;
  email: string;
  createdAt: number;
}

/** Uses up a link's token: the link, or null when the token is unknown, of another purpose, used or expired. */
export async function consumeMailLink(app: FastifyInstance, token: string, purpose: EmailTokenPurpose): Promise<UsedMailLink | null> {
  const now = app.clock.now();
  const [used] = await app.db
    .update(emailTokens)
    .set({ usedAt: now })
    .where(and(eq(emailTokens.tokenHash, hashToken(token)), eq(emailTokens.purpose, purpose), isNull(emailTokens.usedAt), gt(emailTokens.expiresAt, now)))
    .returning({ guestId: emailTokens.guestId, email: emailTokens.email, createdAt: emailTokens.createdAt });
  return used ?? null;
}

/** Uses up every open link of the guest of these purposes, or only those made at or after `madeFrom`. */
export async function consumeAllMailLinks(
  db: Database,
  guestId: number,
  purposes: readonly EmailTokenPurpose[],
  now: number,
  madeFrom?: number,
): Promise<void> {
  await db
    .update(emailTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(emailTokens.guestId, guestId),
        inArray(emailTokens.purpose, [...purposes]),
        isNull(emailTokens.usedAt),
        madeFrom === undefined ? undefined : gte(emailTokens.createdAt, madeFrom),
      ),
    );
}

import { and, asc, eq, ne, sql } from 'drizzle-orm';
import type { Guest } from '../../shared/api/guest.ts';
import type { Database } from '../db/database.ts';
import { guests, jails, lazyAlerts, sessions, type GuestRow } from '../db/schema/index.ts';
import { ApiFailure } from '../lib/api.ts';
import { RATE_RULES, type RateLimiter } from '../lib/rate-limiter.ts';
import { hashToken, newToken, verifyPassword } from '../lib/secrets.ts';
import type { SessionDevice } from '../lib/user-agent.ts';

/** What the guest sees of their account; `token` only when a session has just started. */
export async function publicGuest(db: Database, guest: GuestRow, token?: string): Promise<Guest> {
  const alerts = await db.select({ created: lazyAlerts.createdAt }).from(lazyAlerts).where(eq(lazyAlerts.guestId, guest.id)).orderBy(asc(lazyAlerts.createdAt));
  // The guest's status lives on the live jail's row: none outside a jail.
  const [live] = await db
    .select({ jailStatus: jails.jailStatus, statusSince: jails.statusSince })
    .from(jails)
    .where(and(eq(jails.guestId, guest.id), eq(jails.state, 'live')))
    .limit(1);
  return {
    id: guest.id,
    title: guest.title,
    email: guest.email,
    pendingEmail: guest.pendingEmail,
    isVerified: guest.isVerified,
    language: guest.language,
    timezone: guest.timezone,
    phone: guest.phone,
    subscriptionPlan: guest.subscriptionPlan,
    subscriptionCreatedAt: guest.subscriptionCreatedAt,
    subscriptionExpiredAt: guest.subscriptionExpiredAt,
    isSleeper: guest.isSleeper,
    isLimMember: guest.isLimMember,
    jailStatus: live?.jailStatus ?? null,
    jailStatusUpdated: live?.statusSince ?? null,
    lazyAlerts: alerts,
    totalDurationThisMonth: guest.totalDurationThisMonth,
    suspendedUntil: guest.suspendedUntil,
    earlyFinishBlockUntil: guest.earlyFinishBlockUntil,
    webhookEnabled: guest.webhookEnabled,
    triggerEnabled: guest.triggerEnabled,
    webhookTokenHint: guest.webhookTokenHint,
    calendarFeedHint: guest.calendarFeedTokenHint,
    triggerMethod: guest.triggerMethod,
    triggerUrl: guest.triggerUrl,
    triggerBody: guest.triggerBody,
    createdAt: guest.createdAt,
    facilitatorSignedInAt: guest.facilitatorSignedInAt,
    ...(token === undefined ? {} : { token }),
  };
}

/**
 * Starts a session for the guest and returns its token (the database keeps
 * only the hash); `device` names it in the guest's list of signed-in devices.
 */
export async function startSession(
  db: Database,
  guestId: number,
  now: number,
  wardenId: number | null = null,
  device: SessionDevice = { browser: null, os: null },
): Promise<string> {
  const token = newToken();
  await db.insert(sessions).values({ tokenHash: hashToken(token), guestId, wardenId, createdAt: now, lastSeenAt: now, ...device });
  return token;
}

/**
 * What only the account's owner may do (a new e-mail address, deleting the
 * account) takes the account's password: whoever holds only a session
 * cannot. Wrong tries count with the failed sign-ins of the account, and
 * once those are used up even the right password waits.
 */
export async function assertCurrentPassword(
  rateLimiter: RateLimiter,
  guest: Pick<GuestRow, 'id' | 'passwordHash'>,
  password: string | null | undefined,
): Promise<void> {
  const matches = await rateLimiter.attempt(`sign-in:account:${guest.id}`, RATE_RULES.signInFailuresPerAccount, async () =>
    password !== null && password !== undefined && password !== '' ? verifyPassword(guest.passwordHash, password) : false,
  );
  if (!matches) throw new ApiFailure('current_password_wrong');
}

/** The guest with this username, whatever its case. */
export async function guestByTitle(db: Database, title: string): Promise<GuestRow | undefined> {
  const [guest] = await db.select().from(guests).where(sql`lower(${guests.title}) = lower(${title})`);
  return guest;
}

/** The guest with this (lower-cased) e-mail address. */
export async function guestByEmail(db: Database, email: string): Promise<GuestRow | undefined> {
  const [guest] = await db.select().from(guests).where(eq(guests.email, email));
  return guest;
}

/**
 * Fails with 'title_taken' or 'email_taken' when another guest (not
 * `exceptGuestId`) already has the username or the e-mail address.
 */
export async function assertTitleAndEmailFree(
  db: Database,
  change: { title?: string | undefined; email?: string | undefined },
  exceptGuestId: number | null,
): Promise<void> {
  const others = exceptGuestId === null ? undefined : ne(guests.id, exceptGuestId);
  if (change.title !== undefined) {
    const [taken] = await db
      .select({ id: guests.id })
      .from(guests)
      .where(and(sql`lower(${guests.title}) = lower(${change.title})`, others));
    if (taken !== undefined) throw new ApiFailure('title_taken');
  }
  if (change.email !== undefined) {
    const [taken] = await db
      .select({ id: guests.id })
      .from(guests)
      .where(and(eq(guests.email, change.email), others));
    if (taken !== undefined) throw new ApiFailure('email_taken');
  }
}

function objectField(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null && name in value ? (value as Record<string, unknown>)[name] : undefined;
}

/**
 * Turns a unique-index violation on guests (two sign-ups racing for one
 * name) into the failure the caller would have had a moment later; any
 * other error is rethrown.
 */
export function explainUniqueViolation(error: unknown): never {
  for (const candidate of [error, objectField(error, 'cause')]) {
    if (objectField(candidate, 'code') !== '23505') continue;
    const constraint = String(objectField(candidate, 'constraint') ?? objectField(candidate, 'message') ?? '');
    if (constraint.includes('guests_title_unique')) throw new ApiFailure('title_taken');
    if (constraint.includes('guests_email_unique')) throw new ApiFailure('email_taken');
  }
  throw error;
}

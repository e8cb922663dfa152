import { sql } from 'drizzle-orm';
import { bigint, boolean, doublePrecision, index, integer, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { LANGUAGES } from '../../../shared/constants.ts';
import { PLANS } from '../../../shared/plans.ts';
import { JAIL_ENTRY_LEAD_MINUTES } from '../../../shared/reservations.ts';

/** Every time is epoch milliseconds (`bigint` read as a JavaScript number). */
export function epochMs(name: string) {
  return bigint(name, { mode: 'number' });
}

/** A guest (docs/api.md, The guest object). E-mails are stored lower-cased; titles are unique whatever their case. */
export const guests = pgTable(
  'guests',
  {
    id: serial('id').primaryKey(),
    title: text('title').notNull(),
    email: text('email').notNull(),
    /**
     * A new address the guest asked for and has not verified yet: `email`
     * stays the account's address (sign-in, mails, password resets) until the
     * link mailed here is opened (docs/sessions.md, Changing the e-mail address).
     */
    pendingEmail: text('pending_email'),
    passwordHash: text('password_hash').notNull(),
    isVerified: boolean('is_verified').notNull().default(false),
    language: text('language', { enum: LANGUAGES }).notNull(),
    /** Minutes from UTC as `getTimezoneOffset` gives them (Tokyo: -540). */
    timezone: integer('timezone').notNull(),
    phone: text('phone'),
    subscriptionPlan: integer('subscription_plan').notNull().default(PLANS.trial.code),
    subscriptionCreatedAt: epochMs('subscription_created_at'),
    subscriptionExpiredAt: epochMs('subscription_expired_at'),
    isSleeper: boolean('is_sleeper').notNull().default(false),
    isLimMember: boolean('is_lim_member').notNull().default(false),
    /** Hours of jail this calendar month (the light plan allows 15). */
    totalDurationThisMonth: doublePrecision('total_duration_this_month').notNull().default(0),
    /** Booking is refused until then: three ignored jails within a week (docs/rules.md). */
    suspendedUntil: epochMs('suspended_until'),
    /** Booking is refused until then: a session ended early blocks until its original end (docs/rules.md). */
    earlyFinishBlockUntil: epochMs('early_finish_block_until'),
    webhookEnabled: boolean('webhook_enabled').notNull().default(false),
    triggerEnabled: boolean('trigger_enabled').notNull().default(false),
    /**
     * The SHA-256 of the token in the guest's webhook address
     * (`/hooks/reservation/:webhookToken`): the token itself is shown once,
     * when it is made; afterwards only its last characters (`webhookTokenHint`).
     */
    webhookToken: text('webhook_token').notNull(),
    webhookTokenHint: text('webhook_token_hint'),
    /**
     * The SHA-256 of the token in the guest's calendar feed address
     * (`/calendar/:token.ics`, docs/calendar.md), null while there is no
     * feed; the token is shown once, when it is made, then only its last
     * characters (`calendarFeedTokenHint`).
     */
    calendarFeedToken: text('calendar_feed_token'),
    calendarFeedTokenHint: text('calendar_feed_token_hint'),
    /** How many minutes before a jail its reminder goes out (docs/reminders.md); null: no reminders. */
    reminderLeadMinutes: integer('reminder_lead_minutes').default(JAIL_ENTRY_LEAD_MINUTES),
    /** Whether a guest with no push device gets the reminder by e-mail instead. */
    remindByEmail: boolean('remind_by_email').notNull().default(false),
    /** The key that signs the guest's trigger calls (Standard Webhooks `whsec_…`); shown in the Trigger tab. */
    triggerSecret: text('trigger_secret'),
    triggerMethod: text('trigger_method', { enum: ['POST', 'GET'] })
      .notNull()
      .default('POST'),
    triggerUrl: text('trigger_url'),
    triggerBody: text('trigger_body'),
    /** Payments: the provider's customer and card on file (brand and last four digits, never the number). */
    paymentCustomerId: text('payment_customer_id'),
    cardBrand: text('card_brand'),
    cardLast4: text('card_last4'),
    /** The day of the month a monthly plan is paid on (1-28), and when it is next paid. */
    paymentDay: integer('payment_day'),
    nextPaymentAt: epochMs('next_payment_at'),
    /** When a facilitator last signed in as the guest (with a facilitator token); the account menu shows it. */
    facilitatorSignedInAt: epochMs('facilitator_signed_in_at'),
    createdAt: epochMs('created_at').notNull(),
    updatedAt: epochMs('updated_at').notNull(),
  },
  (table) => [
    uniqueIndex('guests_email_unique').on(table.email),
    uniqueIndex('guests_title_unique').on(sql`lower(${table.title})`),
    uniqueIndex('guests_webhook_token_unique').on(table.webhookToken),
    uniqueIndex('guests_calendar_feed_token_unique').on(table.calendarFeedToken),
  ],
);
export type GuestRow = typeof guests.$inferSelect;

/**
 * A signed-in session; the token is kept only as its SHA-256. It ends after
 * an idle time since `lastSeenAt` or a lifetime since `createdAt`
 * (services/sessions.ts, docs/sessions.md).
 */
export const sessions = pgTable(
  'sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    /** What the guest's list of signed-in devices names it by: never the token or its hash. */
    id: serial('id').notNull(),
    guestId: integer('guest_id')
      .notNull()
      .references(() => guests.id, { onDelete: 'cascade' }),
    /** The warden, when a facilitator signed in as the guest. */
    wardenId: integer('warden_id'),
    createdAt: epochMs('created_at').notNull(),
    /** The last call or alive check made with it, written at most about once a minute. */
    lastSeenAt: epochMs('last_seen_at').notNull(),
    /** The browser and the system that signed in, as the user agent named them (e.g. Chrome, Android); null when it named none we know. */
    browser: text('browser'),
    os: text('os'),
  },
  (table) => [index('sessions_guest_id').on(table.guestId), uniqueIndex('sessions_id_unique').on(table.id)],
);
export type SessionRow = typeof sessions.$inferSelect;

/** `take_back`: the way back mailed to the former address after an e-mail change (services/email-change.ts). */
export const EMAIL_TOKEN_PURPOSES = ['verify_email', 'reset_password', 'take_back'] as const;
export type EmailTokenPurpose = (typeof EMAIL_TOKEN_PURPOSES)[number];

/** The single-use token of a link sent by e-mail, kept as its SHA-256. */
export const emailTokens = pgTable(
  'email_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    guestId: integer('guest_id')
      .notNull()
      .references(() => guests.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: EMAIL_TOKEN_PURPOSES }).notNull(),
    /** The address the link was sent to: a verification link proves only that address. */
    email: text('email').notNull(),
    createdAt: epochMs('created_at').notNull(),
    expiresAt: epochMs('expires_at').notNull(),
    usedAt: epochMs('used_at'),
  },
  (table) => [index('email_tokens_guest_id').on(table.guestId)],
);

/** An SMS code sent to a phone number; `id` is the opaque request id the client holds. */
export const phoneCodes = pgTable(
  'phone_codes',
  {
    id: text('id').primaryKey(),
    guestId: integer('guest_id')
      .notNull()
      .references(() => guests.id, { onDelete: 'cascade' }),
    phone: text('phone').notNull(),
    codeHash: text('code_hash').notNull(),
    tries: integer('tries').notNull().default(0),
    createdAt: epochMs('created_at').notNull(),
    expiresAt: epochMs('expires_at').notNull(),
    usedAt: epochMs('used_at'),
  },
  (table) => [index('phone_codes_guest_phone').on(table.guestId, table.phone)],
);

/** An ignored jail (`lazyAlerts`, docs/rules.md); three within a week suspend the account. */
export const lazyAlerts = pgTable(
  'lazy_alerts',
  {
    id: serial('id').primaryKey(),
    guestId: integer('guest_id')
      .notNull()
      .references(() => guests.id, { onDelete: 'cascade' }),
    /** The reservation that was ignored, when known. */
    reservationId: integer('reservation_id'),
    createdAt: epochMs('created_at').notNull(),
  },
  (table) => [index('lazy_alerts_guest_id').on(table.guestId)],
);

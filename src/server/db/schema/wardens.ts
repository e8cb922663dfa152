import { bigint, index, integer, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { epochMs, guests } from './guests.ts';

/** A human monitor (docs/jail.md, Console). Created with `npm run admin -- create-warden`. */
export const wardens = pgTable(
  'wardens',
  {
    id: serial('id').primaryKey(),
    title: text('title').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    phone: text('phone'),
    createdAt: bigint('created_at', { mode: 'number' }).notNull(),
    /** The TOTP secret (base32) of the warden's authenticator app; null until enrolled (docs/sessions.md, Console sessions). Never sent back. */
    secondFactorSecret: text('second_factor_secret'),
    /** The last TOTP time step accepted: a code of that step or an earlier one is refused (no replay). */
    secondFactorLastStep: bigint('second_factor_last_step', { mode: 'number' }),
    /** Set by `npm run admin -- disable-warden`: no sign-in, no session. */
    disabledAt: epochMs('disabled_at'),
  },
  (table) => [uniqueIndex('wardens_email_unique').on(table.email), uniqueIndex('wardens_title_unique').on(table.title)],
);

/**
 * A token that lets a warden sign in as one guest (the facilitator login),
 * kept as its SHA-256, good for one sign-in; issued by `npm run admin -- facilitator-token`.
 */
export const facilitatorTokens = pgTable(
  'facilitator_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    wardenId: integer('warden_id')
      .notNull()
      .references(() => wardens.id, { onDelete: 'cascade' }),
    guestId: integer('guest_id')
      .notNull()
      .references(() => guests.id, { onDelete: 'cascade' }),
    createdAt: bigint('created_at', { mode: 'number' }).notNull(),
    expiresAt: bigint('expires_at', { mode: 'number' }).notNull(),
    /** A token works once: set when it opens a session. */
    usedAt: bigint('used_at', { mode: 'number' }),
  },
  (table) => [index('facilitator_tokens_guest_id').on(table.guestId)],
);

/**
 * A sign-in whose password was right, waiting for the code of the
 * authenticator app: its ticket is kept as its SHA-256, good for a few
 * minutes and one session. `enrolSecret` is the new secret offered to a
 * warden who has none yet, which becomes theirs with the first right code.
 */
export const wardenSignIns = pgTable(
  'warden_sign_ins',
  {
    tokenHash: text('token_hash').primaryKey(),
    wardenId: integer('warden_id')
      .notNull()
      .references(() => wardens.id, { onDelete: 'cascade' }),
    enrolSecret: text('enrol_secret'),
    expiresAt: epochMs('expires_at').notNull(),
  },
  (table) => [index('warden_sign_ins_warden').on(table.wardenId)],
);

export const WARDEN_AUDIT_ACTIONS = ['jail_opened', 'live_video_started'] as const;

/**
 * The audit trail of what a warden saw (docs/privacy.md): every jail opened
 * and every live video started. No foreign key to the jail or the guest:
 * the record outlives a deleted account until its retention ends.
 */
export const wardenAudit = pgTable(
  'warden_audit',
  {
    id: serial('id').primaryKey(),
    wardenId: integer('warden_id')
      .notNull()
      .references(() => wardens.id),
    action: text('action', { enum: WARDEN_AUDIT_ACTIONS }).notNull(),
    reservationId: integer('reservation_id').notNull(),
    guestId: integer('guest_id').notNull(),
    at: epochMs('at').notNull(),
  },
  (table) => [index('warden_audit_at').on(table.at), index('warden_audit_warden').on(table.wardenId)],
);

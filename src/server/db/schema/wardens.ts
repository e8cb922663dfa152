import { bigint, index, integer, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { guests } from './guests.ts';

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

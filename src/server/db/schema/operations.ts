import { bigint, integer, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { guests } from './guests.ts';

/** A client error report (`/errorLog/create`), with the guest when the call was signed in. */
export const errorLogs = pgTable('error_logs', {
  id: serial('id').primaryKey(),
  guestId: integer('guest_id').references(() => guests.id, { onDelete: 'set null' }),
  text: text('text').notNull(),
  createdAt: bigint('created_at', { mode: 'number' }).notNull(),
});

/** A fixed-window counter of the rate limiter, by key (e.g. `sign-in:ip:203.0.113.5`). */
export const rateLimitBuckets = pgTable('rate_limit_buckets', {
  key: text('key').primaryKey(),
  windowStartedAt: bigint('window_started_at', { mode: 'number' }).notNull(),
  hits: integer('hits').notNull(),
});

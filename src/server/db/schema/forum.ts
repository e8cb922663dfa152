import { index, integer, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { epochMs, guests } from './guests.ts';

/** A message of the community forum (docs/forum.md). */
export const forumMessages = pgTable(
  'forum_messages',
  {
    id: serial('id').primaryKey(),
    guestId: integer('guest_id').references(() => guests.id, { onDelete: 'set null' }),
    username: text('username').notNull(),
    text: text('text').notNull(),
    createdAt: epochMs('created_at').notNull(),
    /** The chat workspace's id of the mirrored message (its `ts`), when mirrored or read back from it. */
    externalId: text('external_id'),
  },
  (table) => [index('forum_messages_created_at').on(table.createdAt), uniqueIndex('forum_messages_external_id').on(table.externalId)],
);

import { desc, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { FastifyPluginAsync } from 'fastify';
import { FORUM_READ_LIMIT, forumCreateRequestSchema, forumMessageSchema, forumReadRequestSchema, type ForumMessage } from '../../../shared/api/forum.ts';
import { forumMessages } from '../../db/schema/index.ts';
import { ApiFailure, apiPost } from '../../lib/api.ts';
import type { RateRule } from '../../lib/rate-limiter.ts';
import { ForumMirror, type ForumMirrorSettings } from '../../services/forum-mirror.ts';

/** Posts of one guest: a conversation's pace, not a flood. */
export const FORUM_POSTS_PER_GUEST = { limit: 10, windowMs: 60_000 } as const satisfies RateRule;

export interface ForumOptions {
  /** The chat workspace the forum is mirrored to; null for none (the default). */
  mirror: ForumMirrorSettings | null;
}

function toForumMessage(row: typeof forumMessages.$inferSelect): ForumMessage {
  return { id: row.id, username: row.username, text: row.text, createdAt: row.createdAt };
}

/**
 * The forum calls under /api/forum (docs/forum.md): signed-in guests read
 * the latest messages and post, under their username at posting time.
 */
const forum: FastifyPluginAsync<ForumOptions> = async (app, options) => {
  const mirror = options.mirror === null ? null : new ForumMirror(options.mirror, app.db, app.clock, app.log);
  if (mirror !== null) app.addHook('onClose', () => mirror.settled());

  apiPost(app, '/read', {
    access: 'guest',
    body: forumReadRequestSchema,
    payload: { messages: forumMessageSchema.array(), hasEarlier: z.boolean() },
    async handler({ before }) {
      mirror?.syncIfDue();
      // Newest first by (time, id), one more than a page: whether older messages remain.
      const rows = await app.db
        .select()
        .from(forumMessages)
        .where(before === undefined ? undefined : sql`(${forumMessages.createdAt}, ${forumMessages.id}) < (${before.createdAt}, ${before.id})`)
        .orderBy(desc(forumMessages.createdAt), desc(forumMessages.id))
        .limit(FORUM_READ_LIMIT + 1);
      const page = rows.slice(0, FORUM_READ_LIMIT);
      return { messages: page.reverse().map(toForumMessage), hasEarlier: rows.length > FORUM_READ_LIMIT };
    },
  });

  apiPost(app, '/create', {
    access: 'guest',
    body: forumCreateRequestSchema,
    payload: { message: forumMessageSchema },
    async handler({ message: { text } }, { guest }) {
      const trimmed = text.trim();
      if (trimmed === '') throw new ApiFailure('forum_text_empty');
      await app.rateLimiter.enforce(`forum-post:${guest.id}`, FORUM_POSTS_PER_GUEST);
      const [row] = await app.db
        .insert(forumMessages)
        .values({ guestId: guest.id, username: guest.title, text: trimmed, createdAt: app.clock.now() })
        .returning();
      if (row === undefined) throw new Error('insert returned no forum message');
      mirror?.mirrorPost(row.username, row.text);
      return { message: toForumMessage(row) };
    },
  });
};

export default forum;

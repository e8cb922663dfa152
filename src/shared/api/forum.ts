import { z } from 'zod';
import { apiRequestSchema, guestCredentialsSchema } from './envelope.ts';

/**
 * The forum calls (docs/forum.md): read the latest messages, post one.
 * Texts are plain text everywhere: the server stores and returns them as
 * written, and the client shows them as text, never as markup.
 */

/** The longest message, in characters (UTF-16 code units, as the text area counts). */
export const FORUM_TEXT_MAX_LENGTH = 1000;
/** How many of the latest messages `/forum/read` answers with. */
export const FORUM_READ_LIMIT = 100;

export const forumMessageSchema = z.object({
  id: z.number().int(),
  /** The poster's username at posting time, or the chat workspace's name of its author. */
  username: z.string(),
  text: z.string(),
  /** Epoch ms. */
  createdAt: z.number(),
});
export type ForumMessage = z.infer<typeof forumMessageSchema>;

/**
 * `/forum/read`: the latest messages, oldest first; with `before` (the
 * oldest message shown), the page of messages just before it. `hasEarlier`
 * says whether older ones remain.
 */
export const forumReadRequestSchema = z.object({
  api: apiRequestSchema,
  guest: guestCredentialsSchema,
  before: z.object({ id: z.number().int().min(1).max(2_147_483_647), createdAt: z.number().int().min(0).max(8.64e15) }).optional(),
});
export type ForumReadRequest = z.input<typeof forumReadRequestSchema>;

/**
 * `/forum/create`: the text as typed. The length is checked here (the
 * message names the limit); an empty or blank text is refused by the handler.
 */
export const forumCreateRequestSchema = z.object({
  api: apiRequestSchema,
  guest: guestCredentialsSchema,
  message: z.object({
    text: z.string({ error: 'forum_text_empty' }).max(FORUM_TEXT_MAX_LENGTH, { error: 'forum_text_too_long' }),
  }),
});
export type ForumCreateRequest = z.input<typeof forumCreateRequestSchema>;

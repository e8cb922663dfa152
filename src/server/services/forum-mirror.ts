import { desc, isNotNull } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { FORUM_TEXT_MAX_LENGTH } from '../../shared/api/forum.ts';
import type { Database } from '../db/database.ts';
import { forumMessages } from '../db/schema/index.ts';
import type { Clock } from '../lib/clock.ts';

/**
 * The optional mirror of the forum in a chat workspace (docs/forum.md): a
 * post is sent to the workspace's incoming webhook (Slack-compatible), and
 * the channel's history is read back through its Web API so that what
 * people wrote there appears in the forum too.
 */

export interface ForumMirrorSettings {
  /** The incoming webhook (`FORUM_HOOK_URL`): posts go there as `{text, username}`. */
  hookUrl: string;
  /** The bot token that reads the channel's history (`FORUM_TOKEN`). */
  token: string;
  /** The channel whose history is read (`FORUM_CHANNEL`). */
  channel: string;
  /** The Web API (`FORUM_API_BASE`, https://slack.com/api by default). */
  apiBase: string;
}

export const DEFAULT_FORUM_API_BASE = 'https://slack.com/api';
/** The history is read at most this often (per server process). */
export const FORUM_SYNC_INTERVAL_MS = 60_000;
/** A call to the workspace that takes longer is given up (the post is kept all the same). */
const REQUEST_TIMEOUT_MS = 5_000;

function httpUrl(name: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`${name} must be an http or https URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`${name} must be an http or https URL`);
  return value.replace(/\/+$/, '');
}

/**
 * The mirror's settings from the environment: null (no mirror) when none of
 * `FORUM_HOOK_URL`, `FORUM_TOKEN` and `FORUM_CHANNEL` is set; an error that
 * names what is missing when only some are.
 */
export function forumMirrorSettings(env: NodeJS.ProcessEnv): ForumMirrorSettings | null {
  const values = { FORUM_HOOK_URL: env.FORUM_HOOK_URL ?? '', FORUM_TOKEN: env.FORUM_TOKEN ?? '', FORUM_CHANNEL: env.FORUM_CHANNEL ?? '' };
  const missing = Object.entries(values)
    .filter(([, value]) => value === '')
    .map(([name]) => name);
  if (missing.length === 3) return null;
  if (missing.length > 0) throw new Error(`The forum mirror needs FORUM_HOOK_URL, FORUM_TOKEN and FORUM_CHANNEL; missing: ${missing.join(', ')}`);
  return {
    hookUrl: httpUrl('FORUM_HOOK_URL', values.FORUM_HOOK_URL),
    token: values.FORUM_TOKEN,
    channel: values.FORUM_CHANNEL,
    apiBase: httpUrl('FORUM_API_BASE', env.FORUM_API_BASE === undefined || env.FORUM_API_BASE === '' ? DEFAULT_FORUM_API_BASE : env.FORUM_API_BASE),
  };
}

/** Slack reads `&`, `<` and `>` as markup (mentions, links): they are sent escaped. */
function escapeForWorkspace(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/** The plain text of a workspace message: its three escapes undone, NUL (which the database refuses) dropped. */
function plainText(text: string): string {
  return text.replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&').replaceAll('\u0000', '').slice(0, FORUM_TEXT_MAX_LENGTH);
}

const historyMessageSchema = z.object({
  ts: z.string().regex(/^\d{1,12}\.\d{1,9}$/),
  text: z.string().optional(),
  subtype: z.string().optional(),
  user: z.string().optional(),
  bot_id: z.string().optional(),
  user_profile: z.object({ display_name: z.string().optional(), real_name: z.string().optional() }).optional(),
});
type HistoryMessage = z.infer<typeof historyMessageSchema>;

const historyAnswerSchema = z.object({
  ok: z.boolean(),
  error: z.string().optional(),
  messages: z.array(z.unknown()).optional(),
});

/**
 * A message people wrote in the channel: no subtype (joins, edits and bot
 * posts have one; the mirror's own posts arrive as `bot_message`), an
 * author and some text.
 */
function isPersonMessage(message: HistoryMessage): message is HistoryMessage & { user: string; text: string } {
  return message.subtype === undefined && message.bot_id === undefined && message.user !== undefined && plainText(message.text ?? '').trim() !== '';
}

function authorName(message: HistoryMessage & { user: string }): string {
  const profile = message.user_profile;
  return [profile?.display_name, profile?.real_name].find((name) => name !== undefined && name !== '') ?? message.user;
}

export class ForumMirror {
  private lastSyncAt = Number.NEGATIVE_INFINITY;
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly settings: ForumMirrorSettings,
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Sends a post to the workspace in the background; a failure is logged, the post stays in the forum. */
  mirrorPost(username: string, text: string): void {
    this.track(this.send(username, text));
  }

  /** Starts reading the channel's history in the background, unless it was read less than a minute ago. */
  syncIfDue(): void {
    const now = this.clock.now();
    if (now - this.lastSyncAt < FORUM_SYNC_INTERVAL_MS) return;
    this.lastSyncAt = now;
    this.track(this.readHistory());
  }

  /** Resolves once the work in the background has ended (at close, and in tests). */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  private track(work: Promise<void>): void {
    const guarded = work.catch((error: unknown) => this.log.warn({ err: error }, 'forum mirror call failed'));
    this.pending.add(guarded);
    void guarded.finally(() => this.pending.delete(guarded));
  }

  private async send(username: string, text: string): Promise<void> {
    const response = await fetch(this.settings.hookUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: escapeForWorkspace(text), username }),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    if (!response.ok) throw new Error(`the forum hook answered HTTP ${response.status}`);
  }

  private async readHistory(): Promise<void> {
    const [newest] = await this.db
      .select({ externalId: forumMessages.externalId })
      .from(forumMessages)
      .where(isNotNull(forumMessages.externalId))
      .orderBy(desc(forumMessages.createdAt), desc(forumMessages.externalId))
      .limit(1);
    const query = new URLSearchParams({ channel: this.settings.channel, limit: '100' });
    if (newest?.externalId != null) query.set('oldest', newest.externalId);
    const response = await fetch(`${this.settings.apiBase}/conversations.history?${query.toString()}`, {
      headers: { authorization: `Bearer ${this.settings.token}` },
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    if (!response.ok) throw new Error(`conversations.history answered HTTP ${response.status}`);
    const answer = historyAnswerSchema.parse(await response.json());
    if (!answer.ok) throw new Error(`conversations.history failed: ${answer.error ?? 'no reason given'}`);
    const rows = (answer.messages ?? [])
      .map((item) => historyMessageSchema.safeParse(item))
      .flatMap((parsed) => (parsed.success && isPersonMessage(parsed.data) ? [parsed.data] : []))
      .map((message) => ({
        guestId: null,
        username: authorName(message).replaceAll('\u0000', ''),
        text: plainText(message.text),
        createdAt: Math.round(Number(message.ts) * 1000),
        externalId: message.ts,
      }));
    if (rows.length === 0) return;
    await this.db.insert(forumMessages).values(rows).onConflictDoNothing({ target: forumMessages.externalId });
  }
}

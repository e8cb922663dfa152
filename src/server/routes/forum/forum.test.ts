import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { FORUM_READ_LIMIT, FORUM_TEXT_MAX_LENGTH, type ForumMessage } from '../../../shared/api/forum.ts';
import { message } from '../../../shared/messages.ts';
import { forumMessages } from '../../db/schema/index.ts';
import { forumMirrorSettings } from '../../services/forum-mirror.ts';
import { apiBlock, credentials, fail, signUp, startTestServer, succeed, type TestGuest, type TestServer } from '../../test/harness.ts';
import { FORUM_POSTS_PER_GUEST } from './index.ts';

async function readForum(server: TestServer, guest: TestGuest): Promise<ForumMessage[]> {
  const answer = await succeed(server.app, '/forum/read', { api: apiBlock(), guest: credentials(guest) });
  return answer.messages as ForumMessage[];
}

async function post(server: TestServer, guest: TestGuest, text: string): Promise<ForumMessage> {
  const answer = await succeed(server.app, '/forum/create', { api: apiBlock(), guest: credentials(guest), message: { text } });
  return answer.message as ForumMessage;
}

describe('the forum without a mirror (the default)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({}, { forumMirror: null });
  });
  afterAll(async () => {
    await server.close();
  });

  it('stores a post under the username at posting time and lists the latest, oldest first', async () => {
    const first = await signUp(server.app);
    const second = await signUp(server.app);
    const hello = await post(server, first, '  Hello, everyone  ');
    expect(hello).toMatchObject({ username: first.title, text: 'Hello, everyone' });
    await succeed(server.app, '/guest/update', { api: apiBlock(), guest: { ...credentials(first), title: `${first.title}x` } });
    await post(server, second, 'Hi');
    await post(server, first, 'Renamed');
    const messages = await readForum(server, second);
    expect(messages.slice(-3).map(({ username, text }) => [username, text])).toEqual([
      [first.title, 'Hello, everyone'],
      [second.title, 'Hi'],
      [`${first.title}x`, 'Renamed'],
    ]);
  });

  it('keeps markup as text: it is stored and answered exactly as written', async () => {
    const guest = await signUp(server.app);
    const text = '<script>alert(1)</script> & <b>bold</b>';
    expect((await post(server, guest, text)).text).toBe(text);
    const response = await server.app.inject({
      method: 'POST',
      url: '/api/forum/read',
      payload: { api: apiBlock(), guest: credentials(guest) },
    });
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.json<{ messages: ForumMessage[] }>().messages.at(-1)?.text).toBe(text);
  });

  it('refuses an empty text, a blank one and one over the limit, and anyone not signed in', async () => {
    const guest = await signUp(server.app);
    const body = (text: unknown) => ({ api: apiBlock(), guest: credentials(guest), message: { text } });
    expect(await fail(server.app, '/forum/create', body(''))).toBe('Write a message before posting.');
    expect(await fail(server.app, '/forum/create', body(' \n\t '))).toBe('Write a message before posting.');
    expect(await fail(server.app, '/forum/create', body(null))).toBe('Write a message before posting.');
    expect(await fail(server.app, '/forum/create', body('x'.repeat(FORUM_TEXT_MAX_LENGTH + 1)))).toBe('A message must be at most 1,000 characters.');
    expect((await post(server, guest, 'x'.repeat(FORUM_TEXT_MAX_LENGTH))).text).toHaveLength(FORUM_TEXT_MAX_LENGTH);
    const stranger = { id: guest.id, token: 'not-the-token' };
    expect(await fail(server.app, '/forum/create', { api: apiBlock(), guest: stranger, message: { text: 'hi' } })).toBe(message('en', 'authentication_failed'));
    expect(await fail(server.app, '/forum/read', { api: apiBlock(), guest: stranger })).toBe(message('en', 'authentication_failed'));
  });

  it('limits the posts of one guest', async () => {
    const guest = await signUp(server.app);
    for (let count = 0; count < FORUM_POSTS_PER_GUEST.limit; count += 1) await post(server, guest, `message ${count}`);
    const body = { api: apiBlock(), guest: credentials(guest), message: { text: 'one more' } };
    expect(await fail(server.app, '/forum/create', body)).toBe('Too many attempts. Please wait a few minutes and try again.');
    expect(await post(server, await signUp(server.app), 'someone else may post')).toMatchObject({ text: 'someone else may post' });
  });

  it(`answers the latest ${FORUM_READ_LIMIT} messages`, async () => {
    const guest = await signUp(server.app);
    const now = server.clock.now();
    await server.app.db
      .insert(forumMessages)
      .values(Array.from({ length: FORUM_READ_LIMIT + 5 }, (_, index) => ({ username: 'old', text: `m${index}`, createdAt: now + index })));
    const messages = await readForum(server, guest);
    expect(messages).toHaveLength(FORUM_READ_LIMIT);
    expect(messages.at(-1)?.text).toBe(`m${FORUM_READ_LIMIT + 4}`);
    expect(messages[0]?.text).toBe('m5');
  });

  it('answers, before the oldest message shown, the page just before it, and whether older ones remain', async () => {
    const guest = await signUp(server.app);
    const latest = await succeed(server.app, '/forum/read', { api: apiBlock(), guest: credentials(guest) });
    expect(latest.hasEarlier).toBe(true);
    const oldest = (latest.messages as ForumMessage[])[0];
    if (oldest === undefined) throw new Error('no messages');
    const earlier = await succeed(server.app, '/forum/read', {
      api: apiBlock(),
      guest: credentials(guest),
      before: { id: oldest.id, createdAt: oldest.createdAt },
    });
    const page = earlier.messages as ForumMessage[];
    // The five left out of the latest page, in order, after whatever the other tests posted before them.
    expect(page.slice(-5).map((message) => message.text)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']);
    expect(page.every((message) => message.createdAt <= oldest.createdAt && message.id !== oldest.id)).toBe(true);
    expect(earlier.hasEarlier).toBe(false);
  });
});

describe('the mirror settings', () => {
  it('are off without FORUM_* and name what is missing when only some are set', () => {
    expect(forumMirrorSettings({})).toBeNull();
    expect(() => forumMirrorSettings({ FORUM_HOOK_URL: 'https://hooks.example/x' })).toThrow('missing: FORUM_TOKEN, FORUM_CHANNEL');
    expect(() => forumMirrorSettings({ FORUM_HOOK_URL: 'ftp://x', FORUM_TOKEN: 't', FORUM_CHANNEL: 'C1' })).toThrow(
      'FORUM_HOOK_URL must be an http or https URL',
    );
    expect(forumMirrorSettings({ FORUM_HOOK_URL: 'https://hooks.example/x', FORUM_TOKEN: 't', FORUM_CHANNEL: 'C1' })).toEqual({
      hookUrl: 'https://hooks.example/x',
      token: 't',
      channel: 'C1',
      apiBase: 'https://slack.com/api',
    });
  });
});

/** A local stand-in for the chat workspace: its incoming webhook and `conversations.history`. */
class FakeWorkspace {
  readonly hookPosts: unknown[] = [];
  readonly historyCalls: { url: string; authorization: string | undefined }[] = [];
  history: unknown[] = [];
  hookStatus = 200;
  private readonly server: Server;

  constructor() {
    this.server = createServer((request, response) => {
      void this.answer(request).then(([status, body]) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(body);
      });
    });
  }

  private async answer(request: IncomingMessage): Promise<[number, string]> {
    let body = '';
    for await (const chunk of request) body += String(chunk);
    if (request.url === '/hook') {
      this.hookPosts.push(JSON.parse(body));
      return [this.hookStatus, this.hookStatus === 200 ? 'ok' : 'invalid_payload'];
    }
    if (request.url?.startsWith('/api/conversations.history') === true) {
      this.historyCalls.push({ url: request.url, authorization: request.headers.authorization });
      return [200, JSON.stringify({ ok: true, messages: this.history })];
    }
    return [404, '{}'];
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

describe('the forum mirrored to a chat workspace', () => {
  const workspace = new FakeWorkspace();
  let server: TestServer;
  beforeAll(async () => {
    const origin = await workspace.start();
    server = await startTestServer({}, { forumMirror: { hookUrl: `${origin}/hook`, token: 'xoxb-test', channel: 'C123', apiBase: `${origin}/api` } });
  });
  afterAll(async () => {
    await server.close();
    await workspace.close();
  });

  it('posts each message to the hook as {text, username}, escaping what the workspace reads as markup', async () => {
    const guest = await signUp(server.app);
    await post(server, guest, 'Hi <!channel> & all');
    await vi.waitFor(() => expect(workspace.hookPosts).toContainEqual({ text: 'Hi &lt;!channel&gt; &amp; all', username: guest.title }));
  });

  it('keeps the post when the hook fails', async () => {
    workspace.hookStatus = 500;
    const guest = await signUp(server.app);
    await post(server, guest, 'kept anyway');
    await vi.waitFor(() => expect(workspace.hookPosts).toContainEqual({ text: 'kept anyway', username: guest.title }));
    expect((await readForum(server, guest)).map((message) => message.text)).toContain('kept anyway');
    workspace.hookStatus = 200;
  });

  it("stores the channel's messages written by people, once, at most one read of the history a minute", async () => {
    const guest = await signUp(server.app);
    workspace.history = [
      { type: 'message', ts: '1893456000.000200', user: 'U2', text: 'a &lt;b&gt;tag&lt;/b&gt; &amp; more', user_profile: { display_name: 'Kei' } },
      { type: 'message', ts: '1893456000.000100', user: 'U1', text: 'from the channel' },
      { type: 'message', subtype: 'bot_message', ts: '1893456001.000000', bot_id: 'B1', username: guest.title, text: 'our own post' },
      { type: 'message', subtype: 'channel_join', ts: '1893456002.000000', user: 'U3', text: 'joined' },
      { type: 'message', ts: 'not a ts', user: 'U4', text: 'malformed' },
    ];
    // Earlier tests read the forum already: the next read of the history is due a minute later.
    server.clock.offsetMs += 61_000;
    const callsBefore = workspace.historyCalls.length;
    await readForum(server, guest);
    await vi.waitFor(async () => {
      const texts = (await readForum(server, guest)).map((message) => `${message.username}: ${message.text}`);
      expect(texts).toEqual(expect.arrayContaining(['U1: from the channel', 'Kei: a <b>tag</b> & more']));
      expect(texts.join('\n')).not.toMatch(/our own post|joined|malformed/);
    });
    expect(workspace.historyCalls).toHaveLength(callsBefore + 1);
    expect(workspace.historyCalls.at(-1)?.authorization).toBe('Bearer xoxb-test');
    expect(workspace.historyCalls.at(-1)?.url).toContain('channel=C123');

    // A minute later the history is read again, from the newest message stored; nothing is stored twice.
    server.clock.offsetMs += 61_000;
    await readForum(server, guest);
    await vi.waitFor(() => expect(workspace.historyCalls).toHaveLength(callsBefore + 2));
    expect(workspace.historyCalls.at(-1)?.url).toContain('oldest=1893456000.000200');
    await vi.waitFor(async () => {
      const texts = (await readForum(server, guest)).map((message) => message.text);
      expect(texts.filter((text) => text === 'from the channel')).toHaveLength(1);
    });
  });
});

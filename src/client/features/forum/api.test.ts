import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ForumMessage } from '../../../shared/api/forum.ts';
import { makeStore } from '../../app/store.ts';
import { forumApi } from './api.ts';

const earlier: ForumMessage = { id: 1, username: 'bob', text: 'Hi', createdAt: 1_000 };
const posted: ForumMessage = { id: 2, username: 'alice', text: '<b>bold</b>', createdAt: 2_000 };

/** Answers each call by its path, and records what was sent. */
function stubServer(answers: Record<string, Record<string, unknown>>) {
  const calls: { url: string; body: unknown }[] = [];
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    calls.push({ url: String(url), body: JSON.parse(String(init?.body)) });
    return new Response(JSON.stringify({ api: { status: 'success' }, ...answers[String(url)] }), { status: 200 });
  });
  return calls;
}

afterEach(() => vi.unstubAllGlobals());

describe('forum calls', () => {
  it('reads with the session, posts the text, and adds the posted message to the list without reading it again', async () => {
    const calls = stubServer({ '/api/forum/read': { messages: [earlier], hasEarlier: false }, '/api/forum/create': { message: posted } });
    const store = makeStore({ preloadedState: { session: { auth: { id: 5, token: 'tok' }, authChecked: true } } });
    const read = store.dispatch(forumApi.endpoints.forumRead.initiate());
    await read;
    await store.dispatch(forumApi.endpoints.forumCreate.initiate({ text: '<b>bold</b>' }));

    expect(calls.map((call) => call.url)).toEqual(['/api/forum/read', '/api/forum/create']);
    expect(calls[0]?.body).toMatchObject({ guest: { id: 5, token: 'tok' } });
    expect(calls[1]?.body).toMatchObject({ guest: { id: 5, token: 'tok' }, message: { text: '<b>bold</b>' } });
    expect(forumApi.endpoints.forumRead.select()(store.getState()).data?.messages).toEqual([earlier, posted]);
    read.unsubscribe();
  });

  it('reads the page before the oldest message shown', async () => {
    const calls = stubServer({ '/api/forum/read': { messages: [earlier], hasEarlier: true } });
    const store = makeStore({ preloadedState: { session: { auth: { id: 5, token: 'tok' }, authChecked: true } } });
    const page = await store.dispatch(forumApi.endpoints.forumReadEarlier.initiate({ id: 2, createdAt: 2_000 })).unwrap();
    expect(calls[0]?.body).toMatchObject({ guest: { id: 5, token: 'tok' }, before: { id: 2, createdAt: 2_000 } });
    expect(page).toMatchObject({ messages: [earlier], hasEarlier: true });
  });
});

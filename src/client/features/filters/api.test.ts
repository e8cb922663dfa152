import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeStore } from '../../app/store.ts';
import { filtersApi } from './api.ts';

/** The approved-scene calls through the real store: the bodies sent, and the list read again after a removal. */
function stubServer(answers: Record<string, Record<string, unknown>>) {
  const sent: { url: string; body: unknown }[] = [];
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    sent.push({ url: String(url), body: JSON.parse(String(init?.body)) });
    return new Response(JSON.stringify({ api: { status: 'success' }, ...answers[String(url)] }), { status: 200 });
  });
  return sent;
}

const scene = { id: 3, data: 'data:image/jpeg;base64,/9j/', createdAt: 1_700_000_000_000, wardenTitle: 'Kato' };

afterEach(() => vi.unstubAllGlobals());

describe('approved scene calls', () => {
  it('reads the list and removes a scene by id with the session, then reads the list again', async () => {
    const sent = stubServer({
      '/api/featureImage/read': { featureImages: [scene] },
      '/api/featureImage/destroy': { featureImage: { id: 3 } },
    });
    const store = makeStore({ preloadedState: { session: { auth: { id: 5, token: 'tok' }, authChecked: true } } });
    const read = store.dispatch(filtersApi.endpoints.featureImageRead.initiate());
    expect((await read).data?.featureImages).toEqual([scene]);
    await store.dispatch(filtersApi.endpoints.featureImageDestroy.initiate({ id: 3 }));
    await vi.waitFor(() => expect(sent).toHaveLength(3));
    read.unsubscribe();
    expect(sent.map((call) => call.url)).toEqual(['/api/featureImage/read', '/api/featureImage/destroy', '/api/featureImage/read']);
    expect(sent[0]?.body).toEqual({ guest: { id: 5, token: 'tok' }, api: { language: 'en' } });
    expect(sent[1]?.body).toEqual({ featureImage: { id: 3 }, guest: { id: 5, token: 'tok' }, api: { language: 'en' } });
  });
});

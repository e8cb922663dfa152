import { afterEach, describe, expect, it, vi } from 'vitest';
import { api } from './api.ts';
import { errorReportText, shouldReport } from './ErrorBoundary.tsx';
import { logout, refreshGuest } from './session.ts';
import { callFailed } from './slices/network.ts';
import { accountForgotten, authRestored, loggedOut } from './slices/session.ts';
import { makeStore } from './store.ts';

afterEach(() => {
  vi.unstubAllGlobals();
});

function answer(body: unknown) {
  const calls: unknown[] = [];
  vi.stubGlobal('fetch', async (_url: string, init: RequestInit) => {
    calls.push(JSON.parse(String(init.body)));
    return new Response(JSON.stringify(body), { status: 200 });
  });
  return calls;
}

describe('the store with the API', () => {
  it('reads the guest with the session and keeps the token', async () => {
    const store = makeStore();
    store.dispatch(authRestored({ id: 5, token: 'saved' }));
    const calls = answer({ api: { status: 'success' }, guest: { id: 5, title: 'kazu' } });
    await refreshGuest(store);
    expect(calls).toEqual([{ guest: { id: 5, token: 'saved' }, api: { language: 'en' } }]);
    expect(api.endpoints.guestRead.select()(store.getState()).data?.guest).toMatchObject({ id: 5, title: 'kazu' });
    expect(store.getState().session.auth).toEqual({ id: 5, token: 'saved' });
    expect(store.getState().network.calling).toEqual([]);
    expect(store.getState().network.status).toBe('success');
  });

  it('forgets a session the server refuses and shows its message', async () => {
    const store = makeStore();
    store.dispatch(authRestored({ id: 5, token: 'old' }));
    answer({ api: { status: 'failed', errorMessage: 'You are signed out. Please sign in again.' } });
    await refreshGuest(store);
    expect(store.getState().session.auth).toBeNull();
    expect(store.getState().network.errorMessage).toBe('You are signed out. Please sign in again.');
  });

  it("signs in with guestAuthenticate, and the page takes the account's language", async () => {
    const store = makeStore();
    const calls = answer({ api: { status: 'success' }, guest: { id: 8, title: 'a', token: 'fresh', language: 'ja' } });
    await store.dispatch(api.endpoints.guestAuthenticate.initiate({ title: 'a', password: 'p' }));
    expect(calls).toEqual([{ guest: { title: 'a', password: 'p' }, api: { language: 'en' } }]);
    expect(store.getState().session.auth).toEqual({ id: 8, token: 'fresh' });
    expect(store.getState().application.language).toBe('ja');
  });

  it("keeps the page's language when a facilitator signs in as the guest, or when the sign-in is refused", async () => {
    const store = makeStore();
    answer({ api: { status: 'success' }, guest: { id: 8, title: 'a', token: 'fresh', language: 'ja' } });
    await store.dispatch(api.endpoints.guestAuthenticateAsLimFacilitator.initiate({ guestId: 8, token: 'facilitator' }));
    expect(store.getState().session.auth).toEqual({ id: 8, token: 'fresh', facilitator: true });
    expect(store.getState().application.language).toBe('en');

    const refused = makeStore();
    answer({ api: { status: 'failed', errorMessage: 'The username or password is wrong.' } });
    await refused.dispatch(api.endpoints.guestAuthenticate.initiate({ title: 'a', password: 'wrong' }));
    expect(refused.getState().application.language).toBe('en');
  });

  it('sends error reports silently', async () => {
    const store = makeStore();
    const calls = answer({ api: { status: 'success' } });
    await store.dispatch(api.endpoints.errorLogCreate.initiate({ text: 'boom' }));
    expect(calls).toEqual([{ errorLog: 'boom', api: { language: 'en' } }]);
    expect(store.getState().network.status).toBe('idle');
  });
});

describe('logout', () => {
  it('ends the session on the server with its credentials, forgets it here and clears the message', async () => {
    const store = makeStore();
    store.dispatch(authRestored({ id: 5, token: 'tok' }));
    const calls = answer({ api: { status: 'success' } });
    store.dispatch(callFailed({ kind: '/a', message: 'm' }));
    logout(store);
    expect(store.getState().session.auth).toBeNull();
    expect(store.getState().session.returning).toBe(true);
    expect(store.getState().network.errorMessage).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(calls).toEqual([{ guest: { id: 5, token: 'tok' }, api: { language: 'en' } }]);
  });
});

describe('a returning guest', () => {
  it("is not made by a facilitator's logout, and is forgotten with a deleted account", () => {
    const store = makeStore();
    store.dispatch(authRestored({ id: 5, token: 'tok', facilitator: true }));
    store.dispatch(loggedOut());
    expect(store.getState().session.returning).toBeUndefined();
    store.dispatch(authRestored({ id: 5, token: 'tok' }));
    store.dispatch(loggedOut());
    expect(store.getState().session.returning).toBe(true);
    store.dispatch(accountForgotten());
    expect(store.getState().session.returning).toBe(false);
  });
});

describe('error reports', () => {
  it("reports render errors except those containing 'NotFoundError'", () => {
    expect(shouldReport('TypeError: x is undefined')).toBe(true);
    expect(shouldReport('NotFoundError: Requested device not found')).toBe(false);
    const error = new Error('broken');
    expect(errorReportText(error, '\n    at Screen')).toContain('Error: broken');
    expect(errorReportText(error, '\n    at Screen')).toContain('at Screen');
    expect(errorReportText('x'.repeat(20_000)).length).toBe(10_000);
  });
});

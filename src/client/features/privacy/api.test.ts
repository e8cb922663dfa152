import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { api } from '../../app/api.ts';
import { AUTH_ID, RETURNING_ID, getLocal, putLocal } from '../../app/localDb.ts';
import { restoreSession } from '../../app/deviceSession.ts';
import { authRestored } from '../../app/slices/session.ts';
import { makeStore } from '../../app/store.ts';
import { fakeServer, settle } from '../../test/fake-server.ts';
import { privacyApi } from './api.ts';
import { forgetDeletedAccount } from './deleted.ts';

/**
 * Deleting the account from the client: the call with the session and the
 * password, a failure left to the banner with the session kept, the device
 * forgetting the account afterwards, and a facilitator's session known as
 * such across a reload (the screen then offers no deletion).
 */

afterEach(() => vi.unstubAllGlobals());

describe('the deletion call', () => {
  it('sends the password with the session to /guest/delete', async () => {
    const server = fakeServer();
    const store = makeStore({ preloadedState: { session: { auth: { id: 5, token: 'tok' }, authChecked: true } } });
    const result = await store.dispatch(privacyApi.endpoints.guestDelete.initiate({ password: 'my password' }));
    expect('data' in result).toBe(true);
    expect(server.sent).toEqual([{ path: '/guest/delete', body: { password: 'my password', guest: { id: 5, token: 'tok' }, api: { language: 'en' } } }]);
  });

  it('leaves a refusal to the banner and keeps the session', async () => {
    const message = 'The current password is wrong. Enter the password of your account.';
    vi.stubGlobal('fetch', async () => new Response(JSON.stringify({ api: { status: 'failed', errorMessage: message } }), { status: 200 }));
    const store = makeStore({ preloadedState: { session: { auth: { id: 5, token: 'tok' }, authChecked: true } } });
    const result = await store.dispatch(privacyApi.endpoints.guestDelete.initiate({ password: 'wrong' }));
    expect(result).toMatchObject({ error: { status: 'FAILED', message } });
    expect(store.getState().network.errorMessage).toBe(message);
    expect(store.getState().session.auth).toEqual({ id: 5, token: 'tok' });
  });
});

describe('after the account is deleted', () => {
  it('the device forgets the session, the server state and the guest’s remembered works and jail status', async () => {
    fakeServer({ '/guest/read': { guest: { id: 5, title: 'kazu' } } });
    const store = makeStore({ persist: true });
    store.dispatch(authRestored({ id: 5, token: 'tok' }));
    await putLocal('auth', AUTH_ID, { id: 5, token: 'tok' });
    await putLocal('rememberedWorks', 'list', ['Write the chapter']);
    await putLocal('jailStatus', 'status', { jailStatus: 'breaking' });
    await store.dispatch(api.endpoints.guestRead.initiate(undefined, { subscribe: false }));

    await forgetDeletedAccount(store);
    await settle();

    // Not a returning guest's device any more: the next visit starts at the intro.
    expect(store.getState().session).toEqual({ auth: null, authChecked: true, returning: false });
    expect(api.endpoints.guestRead.select()(store.getState()).data).toBeUndefined();
    await vi.waitFor(async () => expect(await getLocal('auth', AUTH_ID)).toBeNull());
    await vi.waitFor(async () => expect(await getLocal('auth', RETURNING_ID)).toBeNull());
    expect(await getLocal('rememberedWorks', 'list')).toBeNull();
    expect(await getLocal('jailStatus', 'status')).toBeNull();
  });
});

describe('a facilitator’s session', () => {
  it('is marked when the facilitator link signs in, and still after a reload', async () => {
    fakeServer({
      '/guest/authenticateAsLimFacilitator': { guest: { id: 7, title: 'kazu', token: 'facilitated' } },
      '/guest/read': { guest: { id: 7, title: 'kazu' } },
    });
    const store = makeStore({ persist: true });
    await store.dispatch(api.endpoints.guestAuthenticateAsLimFacilitator.initiate({ guestId: 7, token: 'link' }));
    expect(store.getState().session.auth).toEqual({ id: 7, token: 'facilitated', facilitator: true });
    await vi.waitFor(async () => expect(await getLocal('auth', AUTH_ID)).toEqual({ id: 7, token: 'facilitated', facilitator: true }));

    const reloaded = makeStore({ persist: true });
    await restoreSession(reloaded);
    expect(reloaded.getState().session.auth).toEqual({ id: 7, token: 'facilitated', facilitator: true });

    // The guest's own sign-in on the device is not a facilitator's.
    await putLocal('auth', AUTH_ID, { id: 7, token: 'own' });
    const own = makeStore({ persist: true });
    await restoreSession(own);
    expect(own.getState().session.auth).toEqual({ id: 7, token: 'own' });
  });
});

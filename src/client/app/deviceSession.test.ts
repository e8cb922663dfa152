import { afterEach, describe, expect, it, vi } from 'vitest';
import { reservationApi } from '../features/reservations/api.ts';
import { fakeServer } from '../test/fake-server.ts';
import { type FirstScreen, restoreSession } from './deviceSession.ts';
import { makeStore } from './store.ts';

/**
 * The session's restore at start-up: the guest's read and the first screen's
 * own call go out with the saved session at once, while the screens of the
 * session wait until the first screen is ready (App.tsx, preloadFirstScreen).
 */

afterEach(() => vi.unstubAllGlobals());

const SAVED = { language: null, auth: { id: 5, token: 'tok' }, returning: true };

/** The list as the first screen, whose code and texts load when the test says. */
function listFirst(): { screen: Promise<FirstScreen>; load: () => void } {
  let load = () => {};
  const ready = new Promise<void>((resolve) => {
    load = resolve;
  });
  const screen = Promise.resolve<FirstScreen>({
    call: (store) => store.dispatch(reservationApi.endpoints.reservationReadList.initiate(undefined, { subscribe: false })),
    ready,
  });
  return { screen, load };
}

describe('restoring the saved session', () => {
  it('makes both calls with the session before the first screen is ready, and tells the access rules once it is', async () => {
    const server = fakeServer({ '/guest/read': { guest: { id: 5, title: 'kazu' } }, '/reservation/read_list': { reservations: [] } });
    const store = makeStore();
    const { screen, load } = listFirst();
    const restoring = restoreSession(store, Promise.resolve(SAVED), screen);

    await vi.waitFor(() => expect(server.sent.map((call) => call.path)).toEqual(['/guest/read', '/reservation/read_list']));
    for (const call of server.sent) expect(call.body.guest).toEqual({ id: 5, token: 'tok' });
    // The calls are answered, yet the screens of the session wait for the first screen's code and texts.
    await vi.waitFor(() => expect(reservationApi.endpoints.reservationReadList.select()(store.getState()).data?.reservations).toEqual([]));
    expect(store.getState().session).toEqual({ auth: { id: 5, token: 'tok' }, authChecked: false, returning: true });

    load();
    await restoring;
    expect(store.getState().session).toEqual({ auth: { id: 5, token: 'tok' }, authChecked: true, returning: true });
  });

  it('keeps a session the server refused while the first screen loaded forgotten, with the server’s message', async () => {
    const message = 'You are signed out. Please sign in again.';
    vi.stubGlobal('fetch', async (url: string) =>
      String(url).endsWith('/guest/read')
        ? new Response(JSON.stringify({ api: { status: 'failed', errorMessage: message } }), { status: 200 })
        : new Response(JSON.stringify({ api: { status: 'success' }, reservations: [] }), { status: 200 }),
    );
    const store = makeStore();
    const { screen, load } = listFirst();
    const restoring = restoreSession(store, Promise.resolve(SAVED), screen);

    await vi.waitFor(() => expect(store.getState().session).toEqual({ auth: null, authChecked: true, returning: true }));
    load();
    await restoring;
    expect(store.getState().session).toEqual({ auth: null, authChecked: true, returning: true });
    expect(store.getState().network).toMatchObject({ errorMessage: message, displayError: true });
  });

  it('tells the access rules at once when nobody is signed in on the device', async () => {
    const server = fakeServer();
    const store = makeStore();
    await restoreSession(store, Promise.resolve({ language: null, auth: null, returning: false }), listFirst().screen);
    expect(store.getState().session).toEqual({ auth: null, authChecked: true });
    expect(server.sent).toEqual([]);
  });

  it('tells the access rules that a guest signed out on this device, so that they send it to sign in', async () => {
    fakeServer();
    const store = makeStore();
    await restoreSession(store, Promise.resolve({ language: null, auth: null, returning: true }), listFirst().screen);
    expect(store.getState().session).toEqual({ auth: null, authChecked: true, returning: true });
  });
});

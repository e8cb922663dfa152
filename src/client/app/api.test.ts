import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Guest } from '../../shared/api/guest.ts';
import type { Subscription } from '../../shared/api/payments.ts';
import { accountApi } from '../features/account/api.ts';
import { subscriptionApi } from '../features/subscription/api.ts';
import { fakeServer, settle } from '../test/fake-server.ts';
import { api } from './api.ts';
import { logout } from './session.ts';
import { authRestored } from './slices/session.ts';
import { makeStore, type AppStore } from './store.ts';

/**
 * The guest is the `guestRead` cache entry, the session (id and token) the
 * session slice: their rules (docs/client.md, State), with a real store against a fake
 * server. Sign-up and sign-in start a session; every answer that carries the
 * guest replaces it and keeps the session's token; logout resets both.
 */

const guest = (changes: Partial<Guest> = {}): Guest => ({
  id: 1,
  title: 'kazu',
  email: 'kazu@example.com',
  pendingEmail: null,
  isVerified: true,
  language: 'en',
  timezone: -540,
  phone: null,
  subscriptionPlan: 1,
  subscriptionCreatedAt: null,
  subscriptionExpiredAt: null,
  isSleeper: false,
  isLimMember: false,
  jailStatus: null,
  jailStatusUpdated: null,
  lazyAlerts: [],
  totalDurationThisMonth: 0,
  suspendedUntil: null,
  earlyFinishBlockUntil: null,
  webhookEnabled: false,
  triggerEnabled: false,
  webhookTokenHint: 'abcd',
  calendarFeedHint: null,
  triggerMethod: 'POST',
  triggerUrl: null,
  triggerBody: null,
  createdAt: 0,
  facilitatorSignedInAt: null,
  ...changes,
});

const subscription: Subscription = { plan: 2, paymentDay: null, nextPaymentAt: null, expiredAt: null, card: null };

afterEach(() => vi.unstubAllGlobals());

const cachedGuest = (store: AppStore) => api.endpoints.guestRead.select()(store.getState()).data?.guest;

type Call = (store: AppStore) => PromiseLike<unknown>;

/** The calls that start a session: name, path, and a way to make it. */
const SESSION_CALLS: [string, string, Call][] = [
  [
    'guestCreate',
    '/guest/create',
    (store) =>
      store.dispatch(
        api.endpoints.guestCreate.initiate({ title: 'kazu', email: 'kazu@example.com', password: 'long password', timezone: -540, language: 'en' }),
      ),
  ],
  ['guestAuthenticate', '/guest/authenticate', (store) => store.dispatch(api.endpoints.guestAuthenticate.initiate({ title: 'kazu', password: 'p' }))],
  [
    'guestAuthenticateAsLimFacilitator',
    '/guest/authenticateAsLimFacilitator',
    (store) => store.dispatch(api.endpoints.guestAuthenticateAsLimFacilitator.initiate({ guestId: 1, token: 'facilitator' })),
  ],
];

/** The calls whose answer carries the guest without starting a session. */
const GUEST_CALLS: [string, string, Call][] = [
  ['guestRead', '/guest/read', (store) => store.dispatch(api.endpoints.guestRead.initiate(undefined, { subscribe: false, forceRefetch: true }))],
  ['guestUpdate', '/guest/update', (store) => store.dispatch(accountApi.endpoints.guestUpdate.initiate({ title: 'renamed' }))],
  ['guestSubscribe', '/guest/subscribe', (store) => store.dispatch(subscriptionApi.endpoints.guestSubscribe.initiate({ plan: 2, token: 'card' }))],
  ['guestUnsubscribe', '/guest/unsubscribe', (store) => store.dispatch(subscriptionApi.endpoints.guestUnsubscribe.initiate())],
  ['guestUpdateCard', '/guest/updateCard', (store) => store.dispatch(subscriptionApi.endpoints.guestUpdateCard.initiate({ token: 'card' }))],
];

describe('the session and the guest', () => {
  it('starts signed out and unchecked', () => {
    expect(makeStore().getState().session).toEqual({ auth: null, authChecked: false });
  });

  it('restores the saved session', () => {
    const store = makeStore();
    store.dispatch(authRestored({ id: 4, token: 't' }));
    expect(store.getState().session).toEqual({ auth: { id: 4, token: 't' }, authChecked: true });
    store.dispatch(authRestored(null));
    expect(store.getState().session).toEqual({ auth: null, authChecked: true });
  });

  for (const [name, path, call] of SESSION_CALLS) {
    it(`starts a session on ${name}, and the guest is the one answered`, async () => {
      fakeServer({ [path]: { guest: guest({ token: 'new' }) } });
      const store = makeStore();
      await call(store);
      // A facilitator's session is marked as such (docs/sessions.md): the screens refuse what only the guest may do.
      const facilitator = name === 'guestAuthenticateAsLimFacilitator' ? { facilitator: true } : {};
      expect(store.getState().session).toEqual({ auth: { id: 1, token: 'new', ...facilitator }, authChecked: true });
      await settle();
      expect(cachedGuest(store)?.title).toBe('kazu');
    });
  }

  for (const [name, path, call] of GUEST_CALLS) {
    it(`replaces the guest and keeps the session's token on ${name}`, async () => {
      const server = fakeServer({ [path]: { guest: guest({ title: 'renamed', token: 'not a session' }), subscription, clientSecret: null } });
      const store = makeStore();
      store.dispatch(authRestored({ id: 1, token: 'kept' }));
      await call(store);
      await settle();
      expect(server.sent[0]?.path).toBe(path);
      expect(cachedGuest(store)?.title).toBe('renamed');
      expect(store.getState().session.auth).toEqual({ id: 1, token: 'kept' });
    });
  }

  it('a call that is not a session call starts none, whatever its answer holds', async () => {
    fakeServer({ '/guest/verifyEmail': { guest: guest({ token: 'no' }) } });
    const store = makeStore();
    await store.dispatch(accountApi.endpoints.guestVerifyEmail.initiate({ token: 'link' }));
    await settle();
    expect(store.getState().session.auth).toBeNull();
  });

  it('a refused guest call does not read the guest again, and leaves its refusal to the form (no banner)', async () => {
    const server = fakeServer({ '/guest/read': { guest: guest() } });
    const store = makeStore();
    store.dispatch(authRestored({ id: 1, token: 'kept' }));
    const screen = store.dispatch(api.endpoints.guestRead.initiate());
    await screen;
    vi.stubGlobal('fetch', async (url: string) => {
      server.sent.push({ path: String(url), body: {} });
      return new Response(JSON.stringify({ api: { status: 'failed', errorMessage: 'Wrong password.', errorCode: 'current_password_wrong' } }), {
        status: 200,
      });
    });
    const refused = await store.dispatch(accountApi.endpoints.guestUpdate.initiate({ email: 'new@example.com', currentPassword: 'wrong' }));
    await settle();
    expect(server.sent.map((call) => call.path)).toEqual(['/guest/read', '/api/guest/update']);
    expect(refused.error).toEqual({ status: 'FAILED', message: 'Wrong password.', code: 'current_password_wrong' });
    expect(store.getState().network).toMatchObject({ calling: [], displayError: false });
    expect(cachedGuest(store)?.title).toBe('kazu');
    screen.unsubscribe();
  });

  it('resets the guest and the session at logout', async () => {
    fakeServer({ '/guest/authenticate': { guest: guest({ token: 't' }) } });
    const store = makeStore();
    await store.dispatch(api.endpoints.guestAuthenticate.initiate({ title: 'kazu', password: 'p' }));
    await settle();
    expect(cachedGuest(store)).toBeDefined();
    logout(store);
    expect(store.getState().session).toEqual({ auth: null, authChecked: true, returning: true });
    expect(cachedGuest(store)).toBeUndefined();
  });
});

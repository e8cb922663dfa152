import { api } from './api.ts';
import type { CallError } from './baseQuery.ts';
import { callFailed, errorCleared } from './slices/network.ts';
import { AUTH_ID, getLocal, LANGUAGE_ID, type AuthRecord } from './localDb.ts';
import { languageChanged } from './slices/application.ts';
import { authRestored, loggedOut } from './slices/session.ts';
import type { AppStore } from './store.ts';
import { isLanguage } from '../i18n.ts';

/**
 * At start-up: the session and the language saved on this device. A device
 * whose database cannot be opened (the alert was shown) starts signed out.
 */
export async function restoreSession(store: AppStore): Promise<void> {
  let auth: AuthRecord | null = null;
  try {
    const language = await getLocal<string>('language', LANGUAGE_ID);
    if (isLanguage(language) && language !== store.getState().application.language) store.dispatch(languageChanged(language));
    const saved = await getLocal<AuthRecord>('auth', AUTH_ID);
    if (saved !== null && typeof saved.id === 'number' && typeof saved.token === 'string') {
      auth = { id: saved.id, token: saved.token, ...(saved.facilitator === true ? { facilitator: true } : {}) };
    }
  } catch {
    auth = null;
  }
  store.dispatch(authRestored(auth));
  if (auth !== null) await refreshGuest(store);
}

/**
 * Reads the signed-in guest (`/guest/read`). A session the server refuses
 * (signed out elsewhere, password reset) is forgotten here too, and its
 * message stays in the banner; no internet or a server failure keeps it.
 */
export async function refreshGuest(store: Pick<AppStore, 'dispatch'>): Promise<void> {
  const result = await store.dispatch(api.endpoints.guestRead.initiate(undefined, { subscribe: false, forceRefetch: true }));
  const error = result.error as CallError | undefined;
  if (error?.status === 'FAILED') {
    forgetSession(store);
    store.dispatch(callFailed({ kind: '/guest/read', message: error.message }));
  }
}

/** Logout (docs/client.md, Form rules): ends the session on the server (not waited for) and forgets it here. */
export function logout(store: Pick<AppStore, 'dispatch'>): void {
  void store.dispatch(api.endpoints.guestLogout.initiate());
  forgetSession(store);
}

/**
 * Forgets the session, the server state read with it (logout resets the guest
 * and the reservations: docs/client.md, State) and the banner's message. Also
 * for a session the server has already ended, such as by a password reset.
 */
export function forgetSession(store: Pick<AppStore, 'dispatch'>): void {
  store.dispatch(loggedOut());
  store.dispatch(api.util.resetApiState());
  store.dispatch(errorCleared());
}

/** The channel the app's tabs tell each other on that the guest changed (an e-mail verified in the tab the mail opened). */
const GUEST_CHANNEL = 'warden-guest';
const GUEST_CHANGED = 'guest-changed';

/** Tells this browser's other tabs of the app to read the guest again. */
export function announceGuestChanged(): void {
  if (typeof BroadcastChannel === 'undefined') return;
  const channel = new BroadcastChannel(GUEST_CHANNEL);
  channel.postMessage(GUEST_CHANGED);
  channel.close();
}

/** Reads the guest again when another tab says it changed, so the list learns it without a reload. */
export function followGuestChanges(store: AppStore): void {
  if (typeof BroadcastChannel === 'undefined') return;
  new BroadcastChannel(GUEST_CHANNEL).addEventListener('message', (event: MessageEvent) => {
    if (event.data === GUEST_CHANGED && store.getState().session.auth !== null) void refreshGuest(store);
  });
}

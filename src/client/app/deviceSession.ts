// The session saved on this device: restored at start-up and followed across
// the app's tabs. The guest is read through app/session.ts, loaded only when
// there is a session, so that a visitor's first screen comes without the API.
import { isLanguage } from '../i18n.ts';
import { AUTH_ID, getLocal, LANGUAGE_ID, type AuthRecord } from './localDb.ts';
import { languageChanged } from './slices/application.ts';
import { authRestored } from './slices/session.ts';
import type { AppStore } from './store.ts';

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
  if (auth === null) {
    store.dispatch(authRestored(null));
    return;
  }
  // Loaded before the session is told, so that the guest is read before any screen of the session asks for it.
  const { refreshGuest } = await import('./session.ts');
  store.dispatch(authRestored(auth));
  await refreshGuest(store);
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
    if (event.data === GUEST_CHANGED && store.getState().session.auth !== null) void import('./session.ts').then(({ refreshGuest }) => refreshGuest(store));
  });
}

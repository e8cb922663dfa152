import { api } from './api.ts';
import { AUTH_ID, getLocal, LANGUAGE_ID, type AuthRecord } from './localDb.ts';
import { languageChanged } from './slices/application.ts';
import { authRestored, loggedOut } from './slices/guest.ts';
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
    if (saved !== null && typeof saved.id === 'number' && typeof saved.token === 'string') auth = saved;
  } catch {
    auth = null;
  }
  store.dispatch(authRestored(auth));
}

/** Logout (SPEC §4): ends the session on the server (not waited for), forgets it here, resets the guest and the cache. */
export function logout(store: Pick<AppStore, 'dispatch'>): void {
  void store.dispatch(api.endpoints.guestLogout.initiate());
  store.dispatch(loggedOut());
  store.dispatch(api.util.resetApiState());
}

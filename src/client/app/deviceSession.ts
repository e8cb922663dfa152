// The session saved on this device: restored at start-up and followed across
// the app's tabs. The guest is read through app/session.ts.
import { refreshGuest } from './session.ts';
import { languageChanged } from './slices/application.ts';
import { authFound, authRestored, returningFound } from './slices/session.ts';
import { readSavedDevice, type SavedDevice } from './savedDevice.ts';
import type { AppStore } from './store.ts';

/**
 * The first screen (App.tsx, `preloadFirstScreen`): its own call, started at
 * start-up beside the guest's read, and its code and texts, loaded before the
 * screens of the session render.
 */
export interface FirstScreen {
  call: (store: AppStore) => unknown;
  /** Settles once the screen's code and texts are loaded, or failed to load (the screen then loads them itself). */
  ready: Promise<void>;
}

/**
 * At start-up: tells the store the language and the session saved on this
 * device (read by main.tsx), then reads the guest and, in the same breath,
 * makes the first screen's own call (`firstScreen`, once its code is
 * loaded), so that the screen does not wait for one call before the other.
 * The screens of the session render once the first screen is ready, so that
 * it shows without a "Loading" first.
 */
export async function restoreSession(
  store: AppStore,
  saved: Promise<SavedDevice> = readSavedDevice(),
  firstScreen: Promise<FirstScreen | undefined> = Promise.resolve(undefined),
): Promise<void> {
  const { language, auth, returning } = await saved;
  if (language !== null && language !== store.getState().application.language) store.dispatch(languageChanged(language));
  if (returning) store.dispatch(returningFound());
  if (auth === null) {
    store.dispatch(authRestored(null));
    return;
  }
  // A first screen whose call fails to load makes its call itself when it renders.
  const screen = await firstScreen.catch(() => undefined);
  store.dispatch(authFound(auth));
  const guest = refreshGuest(store);
  screen?.call(store);
  await screen?.ready;
  // Unless the server has refused the session meanwhile (it is then forgotten, and the access rules have been told).
  if (!store.getState().session.authChecked) store.dispatch(authRestored(auth));
  await guest;
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

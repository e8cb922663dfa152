import type { Guest } from '../../shared/api/guest.ts';
import { api } from './api.ts';
import type { CallError } from './baseQuery.ts';
import { useAppDispatch, useIsLoggedIn } from './hooks.ts';
import { callFailed, errorCleared } from './slices/network.ts';
import { loggedOut } from './slices/session.ts';
import type { AppStore } from './store.ts';

/** The signed-in guest's calls and hooks; they bring the API (app/api.ts), which the intro does without. */

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

/**
 * The signed-in guest, from the `guestRead` cache entry (read once if the
 * cache has none yet); null while signed out or until it is read.
 */
export function useGuest(): Guest | null {
  const loggedIn = useIsLoggedIn();
  const { data } = api.useGuestReadQuery(undefined, { skip: !loggedIn });
  return loggedIn ? (data?.guest ?? null) : null;
}

/** Logout for a button: ends the session (docs/client.md, State); the access rules then send the page to /. */
export function useLogout(): () => void {
  const dispatch = useAppDispatch();
  return () => logout({ dispatch });
}

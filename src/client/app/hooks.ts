import { useDispatch, useSelector, useStore } from 'react-redux';
import type { Guest } from '../../shared/api/guest.ts';
import { api } from './api.ts';
import { logout } from './session.ts';
import type { AppDispatch, AppStore, RootState } from './store.ts';

/** `useDispatch` and `useSelector` typed for this store. */
export const useAppDispatch = useDispatch.withTypes<AppDispatch>();
export const useAppSelector = useSelector.withTypes<RootState>();
export const useAppStore = useStore.withTypes<AppStore>();

/** Whether a guest is signed in on this device. */
export function useIsLoggedIn(): boolean {
  return useAppSelector((state) => state.session.auth !== null);
}

/** Whether the session of this device was opened by a facilitator, who may not do what only the guest may (docs/sessions.md). */
export function useIsFacilitatorSession(): boolean {
  return useAppSelector((state) => state.session.auth?.facilitator === true);
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

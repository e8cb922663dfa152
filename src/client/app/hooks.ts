import { useDispatch, useSelector, useStore } from 'react-redux';
import { logout } from './session.ts';
import type { AppDispatch, AppStore, RootState } from './store.ts';

/** `useDispatch` and `useSelector` typed for this store. */
export const useAppDispatch = useDispatch.withTypes<AppDispatch>();
export const useAppSelector = useSelector.withTypes<RootState>();
export const useAppStore = useStore.withTypes<AppStore>();

/** Whether a guest is signed in on this device. */
export function useIsLoggedIn(): boolean {
  return useAppSelector((state) => state.guest.auth !== null);
}

/** Logout for a button: ends the session (SPEC §4); the access rules then send the page to /. */
export function useLogout(): () => void {
  const dispatch = useAppDispatch();
  return () => logout({ dispatch });
}

import { useDispatch, useSelector, useStore } from 'react-redux';
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

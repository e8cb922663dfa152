import { combineReducers, configureStore, createListenerMiddleware, isAnyOf } from '@reduxjs/toolkit';
import { setupListeners } from '@reduxjs/toolkit/query';
import { api } from './api.ts';
import { AUTH_ID, clearLocal, LANGUAGE_ID, putLocal } from './localDb.ts';
import { applicationSlice, languageChanged } from './slices/application.ts';
import { commandSlice } from './slices/command.ts';
import { dialogSlice } from './slices/dialog.ts';
import { facePositionSlice } from './slices/facePosition.ts';
import { featureImageSlice } from './slices/featureImage.ts';
import { forumSlice } from './slices/forum.ts';
import { guestSlice, loggedIn, loggedOut, SESSION_ENDPOINTS } from './slices/guest.ts';
import { endpointFulfilled } from './slices/matchers.ts';
import { networkSlice } from './slices/network.ts';
import { reservationsSlice } from './slices/reservations.ts';
import { wardenSlice } from './slices/warden.ts';
import { jailSessionSlice } from '../features/jail/sessionSlice.ts';

/** The client state groups of SPEC §3, plus the API cache. */
export const rootReducer = combineReducers({
  application: applicationSlice.reducer,
  command: commandSlice.reducer,
  featureImage: featureImageSlice.reducer,
  dialog: dialogSlice.reducer,
  facePosition: facePositionSlice.reducer,
  guest: guestSlice.reducer,
  warden: wardenSlice.reducer,
  network: networkSlice.reducer,
  reservations: reservationsSlice.reducer,
  forum: forumSlice.reducer,
  jailSession: jailSessionSlice.reducer,
  [api.reducerPath]: api.reducer,
});

export type RootState = ReturnType<typeof rootReducer>;

export interface StoreOptions {
  preloadedState?: Partial<RootState>;
  /** Keeps the session and the language in the local database (off in unit tests). */
  persist?: boolean;
}

/** Builds a store; the page has one (`store` in main.tsx), tests make their own. */
export function makeStore({ preloadedState, persist = false }: StoreOptions = {}) {
  const listener = createListenerMiddleware();
  if (persist) {
    // The session: saved when it starts, forgotten at logout.
    listener.startListening({
      matcher: isAnyOf(loggedIn, endpointFulfilled(...SESSION_ENDPOINTS)),
      effect: async (_action, { getState }) => {
        const auth = (getState() as RootState).guest.auth;
        if (auth !== null) await putLocal('auth', AUTH_ID, auth).catch(() => undefined);
      },
    });
    listener.startListening({
      actionCreator: loggedOut,
      effect: async () => {
        await clearLocal('auth').catch(() => undefined);
      },
    });
    listener.startListening({
      actionCreator: languageChanged,
      effect: async (action) => {
        await putLocal('language', LANGUAGE_ID, action.payload).catch(() => undefined);
      },
    });
  }
  const store = configureStore({
    reducer: rootReducer,
    preloadedState: preloadedState as RootState | undefined,
    middleware: (getDefault) => getDefault().prepend(listener.middleware).concat(api.middleware),
  });
  setupListeners(store.dispatch);
  return store;
}

export type AppStore = ReturnType<typeof makeStore>;
export type AppDispatch = AppStore['dispatch'];

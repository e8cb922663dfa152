import { combineReducers, configureStore, createListenerMiddleware } from '@reduxjs/toolkit';
import { setupListeners } from '@reduxjs/toolkit/query';
import { api } from './api.ts';
import { AUTH_ID, clearLocal, LANGUAGE_ID, putLocal } from './localDb.ts';
import { applicationSlice, languageChanged } from './slices/application.ts';
import { networkSlice } from './slices/network.ts';
import { loggedOut, sessionSlice, sessionStarted } from './slices/session.ts';
import { commandSlice } from '../features/jail/commandSlice.ts';
import { dialogSlice } from '../features/jail/dialogSlice.ts';
import { jailSessionSlice } from '../features/jail/sessionSlice.ts';

/**
 * The client's state: server state in the API cache (`api`), and the
 * client-only groups beside it (docs/client.md, State): the app's (language, network,
 * session) and the live jail's (docs/client.md, "State").
 */
export const rootReducer = combineReducers({
  application: applicationSlice.reducer,
  network: networkSlice.reducer,
  session: sessionSlice.reducer,
  command: commandSlice.reducer,
  dialog: dialogSlice.reducer,
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
      matcher: sessionStarted,
      effect: async (_action, { getState }) => {
        const auth = (getState() as RootState).session.auth;
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

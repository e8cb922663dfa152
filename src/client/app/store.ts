import { combineSlices, configureStore, createDynamicMiddleware, createListenerMiddleware, type Reducer, type WithSlice } from '@reduxjs/toolkit';
import type { api } from './api.ts';
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
 * session) and the live jail's (docs/client.md, "State"). The API (RTK Query
 * and the calls) joins when app/api.ts is first loaded: the intro, the first
 * screen of a visitor, calls nothing and comes without it.
 */
const lazyRootReducer = combineSlices(applicationSlice, networkSlice, sessionSlice, commandSlice, dialogSlice, jailSessionSlice).withLazyLoadedSlices<
  WithSlice<typeof api>
>();

/** The state, the API's part included: the code that reads that part has loaded app/api.ts, which injects it first. */
export type RootState = Required<ReturnType<typeof lazyRootReducer>>;
export const rootReducer = lazyRootReducer as Reducer<RootState>;

/** The API's middleware, added to every store (made before or after) by `attachApi`. */
const apiMiddleware = createDynamicMiddleware();

/** Adds the API's reducer and middleware; app/api.ts calls it once when it is loaded. */
export function attachApi(loaded: typeof api): void {
  lazyRootReducer.inject(loaded);
  apiMiddleware.addMiddleware(loaded.middleware);
}

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
    middleware: (getDefault) => getDefault().prepend(listener.middleware).concat(apiMiddleware.middleware),
  });
  return store;
}

export type AppStore = ReturnType<typeof makeStore>;
export type AppDispatch = AppStore['dispatch'];

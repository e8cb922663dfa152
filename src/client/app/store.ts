import { combineSlices, configureStore, createDynamicMiddleware, isAction, type Middleware, type Reducer, type WithSlice } from '@reduxjs/toolkit';
import type { api } from './api.ts';
import { AUTH_ID, clearLocal, putLocal } from './localDb.ts';
import { saveLanguage } from './savedDevice.ts';
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

/**
 * Keeps the session and the language in the local database as they change: the
 * session saved when it starts and forgotten at logout. (A plain middleware:
 * RTK's listener middleware would bring its whole machinery to the first
 * screen for these three writes.)
 */
const persistToDevice: Middleware<object, RootState> = (store) => (next) => (action) => {
  const result = next(action);
  if (!isAction(action)) return result;
  if (sessionStarted(action)) {
    const auth = store.getState().session.auth;
    if (auth !== null) void putLocal('auth', AUTH_ID, auth).catch(() => undefined);
  } else if (loggedOut.match(action)) {
    void clearLocal('auth').catch(() => undefined);
  } else if (languageChanged.match(action)) {
    void saveLanguage(action.payload);
  }
  return result;
};

/** Builds a store; the page has one (made by app/start.tsx), tests make their own. */
export function makeStore({ preloadedState, persist = false }: StoreOptions = {}) {
  return configureStore({
    reducer: rootReducer,
    preloadedState: preloadedState as RootState | undefined,
    middleware: (getDefault) => {
      const middleware = getDefault().concat(apiMiddleware.middleware);
      return persist ? middleware.prepend(persistToDevice) : middleware;
    },
  });
}

export type AppStore = ReturnType<typeof makeStore>;
export type AppDispatch = AppStore['dispatch'];

import { configureStore, isAction, type Middleware, type Reducer, type WithSlice } from '@reduxjs/toolkit';
import type { api } from './api.ts';
import { AUTH_ID, clearLocal, deleteLocal, putLocal, RETURNING_ID } from './localDb.ts';
import { saveLanguage } from './savedDevice.ts';
import { accountForgotten, loggedOut, sessionStarted } from './slices/session.ts';
import { apiMiddleware, rootReducer } from './storeRoot.ts';
import type { commandSlice } from '../features/jail/commandSlice.ts';
import type { dialogSlice } from '../features/jail/dialogSlice.ts';
import type { facePositionSlice } from '../features/jail/facePositionSlice.ts';
import type { jailSessionSlice } from '../features/jail/sessionSlice.ts';

/** The live jail's groups (command, dialog, facePosition, jailSession): they join the store with the live jail's code. */
type LiveJailSlices = WithSlice<typeof commandSlice> & WithSlice<typeof dialogSlice> & WithSlice<typeof facePositionSlice> & WithSlice<typeof jailSessionSlice>;

/** The root reducer with the parts that join later named (app/storeRoot.ts says when each joins). */
const lazyReducer = rootReducer.withLazyLoadedSlices<WithSlice<typeof api> & LiveJailSlices>();
type LazyState = ReturnType<typeof lazyReducer>;

/**
 * The state (docs/client.md, State): server state in the API cache (`api`),
 * and the client-only groups beside it, the app's (language, network,
 * session) and the live jail's. The API's part is always there for the code
 * that reads it: that code has loaded app/api.ts, which injects it first.
 * The live jail's parts may not be there yet (a group injected is in the
 * state only from the next action on): read them through their injected
 * slice's `selectSlice`, which answers the initial state until then.
 */
export type RootState = Omit<LazyState, 'api'> & Required<Pick<LazyState, 'api'>>;
const storeReducer = lazyReducer as Reducer<RootState>;

export interface StoreOptions {
  preloadedState?: Partial<RootState>;
  /** Keeps the session and the language in the local database (off in unit tests). */
  persist?: boolean;
}

/**
 * Keeps the session and the language in the local database as they change: the
 * session saved when it starts and forgotten at logout (which leaves the
 * mark of a returning guest, forgotten with a deleted account). (A plain middleware:
 * RTK's listener middleware would bring its whole machinery to the first
 * screen for these few writes.)
 */
const persistToDevice: Middleware<object, RootState> = (store) => {
  // The session's writes, one after another in the order of their actions: a deleted account's clearing comes after its logout's.
  let sessionWrites = Promise.resolve();
  const writeSession = (write: () => Promise<unknown>) => {
    sessionWrites = sessionWrites.then(write).then(
      () => undefined,
      () => undefined,
    );
  };
  return (next) => (action) => {
    const languageBefore = store.getState().application.language;
    const result = next(action);
    if (!isAction(action)) return result;
    if (sessionStarted(action)) {
      const auth = store.getState().session.auth;
      if (auth !== null) writeSession(() => putLocal('auth', AUTH_ID, auth));
    } else if (loggedOut.match(action)) {
      // The session goes; that a guest signed out here stays, so the next visit lands on the sign-in screen.
      const { returning } = store.getState().session;
      writeSession(() => deleteLocal('auth', AUTH_ID));
      if (returning === true) writeSession(() => putLocal('auth', RETURNING_ID, true));
    } else if (accountForgotten.match(action)) {
      writeSession(() => clearLocal('auth'));
    }
    // Chosen, or taken from the account at sign-in: the device remembers it.
    const language = store.getState().application.language;
    if (language !== languageBefore) void saveLanguage(language);
    return result;
  };
};

/** Builds a store; the page has one (made by app/start.tsx), tests make their own. */
export function makeStore({ preloadedState, persist = false }: StoreOptions = {}) {
  return configureStore({
    reducer: storeReducer,
    preloadedState: preloadedState as RootState | undefined,
    middleware: (getDefault) => {
      const middleware = getDefault().concat(apiMiddleware.middleware);
      return persist ? middleware.prepend(persistToDevice) : middleware;
    },
  });
}

export type AppStore = ReturnType<typeof makeStore>;
export type AppDispatch = AppStore['dispatch'];

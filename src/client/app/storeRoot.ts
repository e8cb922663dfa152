import { combineSlices, createDynamicMiddleware, type Middleware, type Reducer } from '@reduxjs/toolkit';
import { applicationSlice } from './slices/application.ts';
import { networkSlice } from './slices/network.ts';
import { sessionSlice } from './slices/session.ts';

/**
 * The root every part of the store joins (docs/client.md, State): the app's
 * groups from the start (language, network, session); the API when
 * app/api.ts is first loaded, since the intro, the first screen of a
 * visitor, calls nothing and comes without it; the live jail's groups when
 * their modules are first loaded (`slice.injectInto(rootReducer)`), since no
 * other screen needs them. The parts import this room and this room imports
 * none of them, so no import runs back; app/store.ts names the whole state.
 */
export const rootReducer = combineSlices(applicationSlice, networkSlice, sessionSlice);

/** The API's middleware, added to every store (made before or after) by `attachApi`. */
export const apiMiddleware = createDynamicMiddleware();

/** Adds the API's reducer and middleware; app/api.ts calls it once when it is loaded. */
export function attachApi(loaded: { reducerPath: string; reducer: Reducer; middleware: Middleware }): void {
  rootReducer.inject(loaded);
  apiMiddleware.addMiddleware(loaded.middleware);
}

import { combineReducers, configureStore } from '@reduxjs/toolkit';
import { useDispatch, useSelector, useStore } from 'react-redux';
import { consoleSlice } from './consoleSlice.ts';
import { sessionSlice, type SessionState } from './sessionSlice.ts';

/** The console's own store: the session and what the relay streams. */
const rootReducer = combineReducers({ session: sessionSlice.reducer, console: consoleSlice.reducer });

export type ConsoleRootState = ReturnType<typeof rootReducer>;

export function makeConsoleStore(session?: SessionState) {
  return configureStore({ reducer: rootReducer, preloadedState: session === undefined ? undefined : { session } });
}

export type ConsoleStore = ReturnType<typeof makeConsoleStore>;
export type ConsoleDispatch = ConsoleStore['dispatch'];

export const useConsoleDispatch = useDispatch.withTypes<ConsoleDispatch>();
export const useConsoleSelector = useSelector.withTypes<ConsoleRootState>();
export const useConsoleStore = useStore.withTypes<ConsoleStore>();

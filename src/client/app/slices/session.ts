import { createSlice, isFulfilled, type PayloadAction, type UnknownAction } from '@reduxjs/toolkit';
import type { Guest } from '../../../shared/api/guest.ts';
import type { AuthRecord } from '../localDb.ts';

/**
 * The session (docs/client.md, State): the guest id and token
 * that sign-up or sign-in gave (and whether a facilitator signed in), kept
 * in the local database. Logged in =
 * `auth` is set. `authChecked` turns true once the local database was read
 * at start-up, so that the access rules wait for it. The guest itself is
 * server state: the `guestRead` cache entry (app/api.ts).
 */
export interface SessionState {
  auth: AuthRecord | null;
  authChecked: boolean;
  /** A guest has signed out on this device: signed out, it lands on the sign-in screen rather than the intro. */
  returning?: boolean;
}

const initialState: SessionState = { auth: null, authChecked: false };

/** The API's reducerPath (app/api.ts), which its actions' types start with. */
export const API_REDUCER_PATH = 'api';

/** The calls of app/api.ts whose answers start a session; the last one is a facilitator's. */
const SESSION_ENDPOINTS = ['guestCreate', 'guestAuthenticate', 'guestAuthenticateAsLimFacilitator'] as const;
const FACILITATOR_ENDPOINT: (typeof SESSION_ENDPOINTS)[number] = 'guestAuthenticateAsLimFacilitator';

type SessionAnswer = PayloadAction<{ guest: Guest }, string, { arg: { endpointName: string } }>;

/**
 * An answer that starts a session: its `guest` carries the new token. Told by
 * the action's type and endpoint (as RTK Query's `matchFulfilled` does)
 * rather than with the API's matchers, so that the store does not need the
 * API, which the first screen loads without (app/store.ts).
 */
export function sessionStarted(action: UnknownAction): action is SessionAnswer {
  if (!isFulfilled(action) || action.type !== `${API_REDUCER_PATH}/executeMutation/fulfilled`) return false;
  const endpoint = (action.meta as { arg?: { endpointName?: unknown } }).arg?.endpointName;
  return SESSION_ENDPOINTS.some((name) => name === endpoint);
}

/**
 * A guest's own sign-in (by username or e-mail): its answer names the account's
 * language, which the page then takes (slices/application.ts). Sign-up sent the
 * page's language; a facilitator's sign-in keeps the facilitator's.
 */
export function guestSignedIn(action: UnknownAction): action is SessionAnswer {
  return sessionStarted(action) && action.meta.arg.endpointName === 'guestAuthenticate';
}

export const sessionSlice = createSlice({
  name: 'session',
  initialState,
  reducers: {
    /**
     * The session saved on this device, found at start-up: the first calls go
     * out with it while the first screen loads; the access rules still wait
     * for `authRestored`.
     */
    authFound(state, action: PayloadAction<AuthRecord>) {
      state.auth = action.payload;
    },
    /** The local database was read at start-up: the saved session, or null. */
    authRestored(state, action: PayloadAction<AuthRecord | null>) {
      state.auth = action.payload;
      state.authChecked = true;
    },
    /** The device remembers that a guest signed out on it (app/savedDevice.ts), read at start-up. */
    returningFound(state) {
      state.returning = true;
    },
    /**
     * Logout forgets the session (docs/client.md, State); the shell resets the API cache with it.
     * A guest's own session (not a facilitator's) makes the device a returning guest's.
     */
    loggedOut(state) {
      if (state.auth !== null && state.auth.facilitator !== true) state.returning = true;
      state.auth = null;
      state.authChecked = true;
    },
    /** The account was deleted: the device is no longer a returning guest's. */
    accountForgotten(state) {
      state.returning = false;
    },
  },
  extraReducers(builder) {
    builder.addMatcher(sessionStarted, (state, action) => {
      const { guest } = action.payload;
      // A facilitator's session may not do what only the guest may (docs/sessions.md): the screens say so.
      const facilitator = action.meta.arg.endpointName === FACILITATOR_ENDPOINT;
      if (guest.token !== undefined) state.auth = { id: guest.id, token: guest.token, ...(facilitator ? { facilitator: true } : {}) };
      state.authChecked = true;
    });
  },
});

export const { accountForgotten, authFound, authRestored, loggedOut, returningFound } = sessionSlice.actions;

import { createSlice, isAnyOf, type PayloadAction } from '@reduxjs/toolkit';
import { api } from '../api.ts';
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
}

const initialState: SessionState = { auth: null, authChecked: false };

/** The answers that start a session: their `guest` carries the new token. */
export const sessionStarted = isAnyOf(
  api.endpoints.guestCreate.matchFulfilled,
  api.endpoints.guestAuthenticate.matchFulfilled,
  api.endpoints.guestAuthenticateAsLimFacilitator.matchFulfilled,
);

export const sessionSlice = createSlice({
  name: 'session',
  initialState,
  reducers: {
    /** The local database was read at start-up: the saved session, or null. */
    authRestored(state, action: PayloadAction<AuthRecord | null>) {
      state.auth = action.payload;
      state.authChecked = true;
    },
    /** Logout forgets the session (docs/client.md, State); the shell resets the API cache with it. */
    loggedOut(state) {
      state.auth = null;
      state.authChecked = true;
    },
  },
  extraReducers(builder) {
    builder.addMatcher(sessionStarted, (state, action) => {
      const { guest } = action.payload;
      // A facilitator's session may not do what only the guest may (docs/sessions.md): the screens say so.
      const facilitator = api.endpoints.guestAuthenticateAsLimFacilitator.matchFulfilled(action);
      if (guest.token !== undefined) state.auth = { id: guest.id, token: guest.token, ...(facilitator ? { facilitator: true } : {}) };
      state.authChecked = true;
    });
  },
});

export const { authRestored, loggedOut } = sessionSlice.actions;

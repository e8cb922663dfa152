import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { Guest } from '../../../shared/api/guest.ts';
import type { AuthRecord } from '../localDb.ts';
import { endpointFulfilled } from './matchers.ts';

/**
 * Guest (SPEC §3): the signed-in guest and the session (`auth`: guest id and
 * token from `/guest/authenticate`, kept in the local database). Logged in =
 * `auth` is set. `authChecked` turns true once the local database was read at
 * start-up, so that the access rules wait for it.
 */
export interface GuestState {
  guest: Guest | null;
  auth: AuthRecord | null;
  authChecked: boolean;
}

const initialState: GuestState = { guest: null, auth: null, authChecked: false };

/** Calls whose answer starts a session: `guest` carries the new token. */
export const SESSION_ENDPOINTS = ['guestCreate', 'guestAuthenticate', 'guestAuthenticateAsLimFacilitator'];
/** Calls whose answer replaces the guest and keeps the current token (SPEC §4). */
export const GUEST_ENDPOINTS = ['guestRead', 'guestUpdate', 'guestSubscribe', 'guestUnsubscribe', 'guestUpdateCard'];

function signIn(state: GuestState, guest: Guest) {
  state.guest = guest;
  if (guest.token !== undefined) state.auth = { id: guest.id, token: guest.token };
  state.authChecked = true;
}

function keepToken(state: GuestState, guest: Guest) {
  const token = state.auth?.token ?? state.guest?.token;
  state.guest = token === undefined ? { ...guest } : { ...guest, token };
}

export const guestSlice = createSlice({
  name: 'guest',
  initialState,
  reducers: {
    /** A session started (sign-up, sign-in, facilitator sign-in). */
    loggedIn(state, action: PayloadAction<Guest>) {
      signIn(state, action.payload);
    },
    /** The local database was read at start-up: the saved session, or null. */
    authRestored(state, action: PayloadAction<AuthRecord | null>) {
      state.auth = action.payload;
      state.authChecked = true;
    },
    /** A new copy of the guest; the current token is kept. */
    guestReceived(state, action: PayloadAction<Guest>) {
      keepToken(state, action.payload);
    },
    /** Logout resets the guest (SPEC §4). */
    loggedOut(state) {
      state.guest = null;
      state.auth = null;
      state.authChecked = true;
    },
  },
  extraReducers(builder) {
    builder
      .addMatcher(endpointFulfilled(...SESSION_ENDPOINTS), (state, action) => {
        const guest = action.payload.guest as Guest | undefined;
        if (guest !== undefined) signIn(state, guest);
      })
      .addMatcher(endpointFulfilled(...GUEST_ENDPOINTS), (state, action) => {
        const guest = action.payload.guest as Guest | undefined;
        if (guest !== undefined) keepToken(state, guest);
      });
  },
});

export const { loggedIn, authRestored, guestReceived, loggedOut } = guestSlice.actions;

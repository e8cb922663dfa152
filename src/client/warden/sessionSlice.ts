import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { Language } from '../../shared/constants.ts';
import type { Warden, WardenSignInTicket } from '../../shared/api/warden.ts';

/**
 * Who is at the console: `checking` while a saved token is read back at
 * start-up, then signed out, asked for the code of the second factor (the
 * password was right: `pendingSignIn`, with an enrolment for a warden who
 * has none yet), or signed in (the warden and the session token; the live
 * video's ICE servers come with each call, docs/jail.md).
 */
export interface SessionState {
  phase: 'checking' | 'signedOut' | 'secondFactor' | 'signedIn';
  warden: Warden | null;
  token: string | null;
  pendingSignIn: WardenSignInTicket | null;
  language: Language;
  /** Why the last sign-in or session check failed, shown on the sign-in form. */
  signInError: string | null;
  /** When the console last used its session (a call or a relay event), for the idle warning. */
  lastUsedAt: number;
}

export function initialSessionState(language: Language, hasSavedToken: boolean): SessionState {
  return {
    phase: hasSavedToken ? 'checking' : 'signedOut',
    warden: null,
    token: null,
    pendingSignIn: null,
    language,
    signInError: null,
    lastUsedAt: 0,
  };
}

export const sessionSlice = createSlice({
  name: 'session',
  initialState: initialSessionState('en', false),
  reducers: {
    /** The password was right: the code is asked next. */
    secondFactorAsked(state, action: PayloadAction<WardenSignInTicket>) {
      state.phase = 'secondFactor';
      state.pendingSignIn = action.payload;
      state.signInError = null;
    },
    signedIn(state, action: PayloadAction<{ warden: Warden; token: string; at: number }>) {
      state.phase = 'signedIn';
      state.warden = action.payload.warden;
      state.token = action.payload.token;
      state.pendingSignIn = null;
      state.signInError = null;
      state.lastUsedAt = action.payload.at;
    },
    /** The session ended, or a sign-in was given up: by sign-out, or refused (`reason` then says why). */
    signedOut(state, action: PayloadAction<{ reason: string | null }>) {
      state.phase = 'signedOut';
      state.warden = null;
      state.token = null;
      state.pendingSignIn = null;
      state.signInError = action.payload.reason;
    },
    signInFailed(state, action: PayloadAction<string>) {
      state.signInError = action.payload;
    },
    /** The server took a call or an event of this session: its idle time starts again. */
    sessionUsed(state, action: PayloadAction<number>) {
      state.lastUsedAt = Math.max(state.lastUsedAt, action.payload);
    },
    languageChanged(state, action: PayloadAction<Language>) {
      state.language = action.payload;
    },
  },
});

export const { secondFactorAsked, signedIn, signedOut, signInFailed, sessionUsed, languageChanged } = sessionSlice.actions;

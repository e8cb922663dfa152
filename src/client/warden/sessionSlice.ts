import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { Language } from '../../shared/constants.ts';
import type { Warden } from '../../shared/api/warden.ts';

/**
 * Who is at the console: `checking` while a saved token is read back at
 * start-up, then signed out or signed in (the warden and the session token;
 * the live video's ICE servers come with each call, docs/jail.md).
 */
export interface SessionState {
  phase: 'checking' | 'signedOut' | 'signedIn';
  warden: Warden | null;
  token: string | null;
  language: Language;
  /** Why the last sign-in or session check failed, shown on the sign-in form. */
  signInError: string | null;
}

export function initialSessionState(language: Language, hasSavedToken: boolean): SessionState {
  return { phase: hasSavedToken ? 'checking' : 'signedOut', warden: null, token: null, language, signInError: null };
}

export const sessionSlice = createSlice({
  name: 'session',
  initialState: initialSessionState('en', false),
  reducers: {
    signedIn(state, action: PayloadAction<{ warden: Warden; token: string }>) {
      state.phase = 'signedIn';
      state.warden = action.payload.warden;
      state.token = action.payload.token;
      state.signInError = null;
    },
    /** The session ended: by sign-out, or refused (`reason` then says why). */
    signedOut(state, action: PayloadAction<{ reason: string | null }>) {
      state.phase = 'signedOut';
      state.warden = null;
      state.token = null;
      state.signInError = action.payload.reason;
    },
    signInFailed(state, action: PayloadAction<string>) {
      state.signInError = action.payload;
    },
    languageChanged(state, action: PayloadAction<Language>) {
      state.language = action.payload;
    },
  },
});

export const { signedIn, signedOut, signInFailed, languageChanged } = sessionSlice.actions;

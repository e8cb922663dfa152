import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { DEFAULT_LANGUAGE, type Language } from '../../../shared/constants.ts';
import { guestSignedIn } from './session.ts';

/**
 * Application (docs/client.md, State): the interface language. (The phone code of the last
 * code request is the answer of `guestRequestPhoneCode`, kept by its mutation.)
 */
export interface ApplicationState {
  language: Language;
}

const initialState: ApplicationState = { language: DEFAULT_LANGUAGE };

export const applicationSlice = createSlice({
  name: 'application',
  initialState,
  reducers: {
    languageChanged(state, action: PayloadAction<Language>) {
      state.language = action.payload;
    },
  },
  extraReducers(builder) {
    // Signed in, the page speaks the account's language, as the Warden, mail and reminders do (docs/client.md, Texts).
    builder.addMatcher(guestSignedIn, (state, action) => {
      state.language = action.payload.guest.language;
    });
  },
});

export const { languageChanged } = applicationSlice.actions;

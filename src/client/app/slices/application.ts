import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { DEFAULT_LANGUAGE, type Language } from '../../../shared/constants.ts';

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
});

export const { languageChanged } = applicationSlice.actions;

import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { DEFAULT_LANGUAGE, type Language } from '../../../shared/constants.ts';
import { endpointFulfilled } from './matchers.ts';

/** Application (SPEC §3): the interface language and the phone code of the last code request. */
export interface ApplicationState {
  language: Language;
  /** What `/guest/requestPhoneCode` answered (an opaque id of the request), or null. */
  phoneCode: string | null;
}

const initialState: ApplicationState = { language: DEFAULT_LANGUAGE, phoneCode: null };

export const applicationSlice = createSlice({
  name: 'application',
  initialState,
  reducers: {
    languageChanged(state, action: PayloadAction<Language>) {
      state.language = action.payload;
    },
    phoneCodeReceived(state, action: PayloadAction<string | null>) {
      state.phoneCode = action.payload;
    },
  },
  extraReducers(builder) {
    builder.addMatcher(endpointFulfilled('guestRequestPhoneCode'), (state, action) => {
      const code = action.payload.phoneCode;
      state.phoneCode = typeof code === 'string' ? code : null;
    });
  },
});

export const { languageChanged, phoneCodeReceived } = applicationSlice.actions;

import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

/** The text a server-error action stores (docs/client.md, Failures the guest sees): 'a server error occurred'. */
export const SERVER_ERROR_MESSAGE = 'サーバーエラーが発生しました';

/**
 * Network (docs/client.md, State): the calls running (by kind, the API path), whether
 * the internet is reachable, the last error and whether to display it.
 */
export interface NetworkState {
  calling: string[];
  isInternetAvailable: boolean;
  errorMessage: string | null;
  status: 'idle' | 'loading' | 'success' | 'failed';
  displayError: boolean;
}

const initialState: NetworkState = {
  calling: [],
  isInternetAvailable: true,
  errorMessage: null,
  status: 'idle',
  displayError: false,
};

function remove(state: NetworkState, kind: string) {
  const index = state.calling.indexOf(kind);
  if (index !== -1) state.calling.splice(index, 1);
}

function clear(state: NetworkState) {
  state.errorMessage = null;
  state.displayError = false;
}

export const networkSlice = createSlice({
  name: 'network',
  initialState,
  reducers: {
    /** A call starts: it joins the list and the error is cleared. */
    callStarted(state, action: PayloadAction<string>) {
      state.calling.push(action.payload);
      state.status = 'loading';
      clear(state);
    },
    /** A call succeeded: it leaves the list. */
    callFinished(state, action: PayloadAction<string>) {
      remove(state, action.payload);
      state.status = 'success';
    },
    /** A call failed: it leaves the list and its message is stored and displayed. */
    callFailed(state, action: PayloadAction<{ kind: string; message: string }>) {
      remove(state, action.payload.kind);
      state.status = 'failed';
      state.errorMessage = action.payload.message;
      state.displayError = true;
    },
    /**
     * A server error (the server answered 5xx): the call, when named, leaves
     * the list and 'a server error occurred' is displayed: the Japanese text
     * above unless a translation is given.
     */
    serverError(state, action: PayloadAction<{ kind: string; message: string } | undefined>) {
      if (action.payload !== undefined) remove(state, action.payload.kind);
      state.status = 'failed';
      state.errorMessage = action.payload?.message ?? SERVER_ERROR_MESSAGE;
      state.displayError = true;
    },
    /** A form's refusal that concerns none of its fields (app/fieldErrors.ts): the banner shows it. */
    refusalShown(state, action: PayloadAction<string>) {
      state.status = 'failed';
      state.errorMessage = action.payload;
      state.displayError = true;
    },
    /** No internet connection (docs/client.md, Failures the guest sees): the banner says so. */
    noInternet(state, action: PayloadAction<string>) {
      state.isInternetAvailable = false;
      state.status = 'failed';
      state.errorMessage = action.payload;
      state.displayError = true;
    },
    internetAvailable(state) {
      state.isInternetAvailable = true;
    },
    /** The banner's OK, and logout (app/session.ts). */
    errorCleared(state) {
      clear(state);
    },
  },
});

export const { callStarted, callFinished, callFailed, serverError, refusalShown, noInternet, internetAvailable, errorCleared } = networkSlice.actions;

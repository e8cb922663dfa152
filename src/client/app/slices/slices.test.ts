import { describe, expect, it } from 'vitest';
import { applicationSlice, languageChanged } from './application.ts';
import {
  callFailed,
  callFinished,
  callStarted,
  errorCleared,
  internetAvailable,
  networkSlice,
  noInternet,
  SERVER_ERROR_MESSAGE,
  serverError,
} from './network.ts';

/**
 * The app-wide client-only slices. The session's and the server state's
 * rules are tested where they live: app/api.test.ts (the guest and the
 * session), features/reservations/api.test.ts (the reservation list).
 */

describe('application', () => {
  const reduce = applicationSlice.reducer;
  it('starts in English', () => {
    expect(reduce(undefined, { type: 'init' })).toEqual({ language: 'en' });
  });
  it('changes the language', () => {
    expect(reduce(undefined, languageChanged('ja')).language).toBe('ja');
  });
});

describe('network', () => {
  const reduce = networkSlice.reducer;
  it('starts idle and online', () => {
    expect(reduce(undefined, { type: 'init' })).toEqual({
      calling: [],
      isInternetAvailable: true,
      errorMessage: null,
      status: 'idle',
      displayError: false,
    });
  });
  it('call start adds to the list and clears the error', () => {
    let state = reduce(undefined, callFailed({ kind: '/x', message: 'bad' }));
    state = reduce(state, callStarted('/guest/read'));
    expect(state.calling).toEqual(['/guest/read']);
    expect(state.errorMessage).toBeNull();
    expect(state.status).toBe('loading');
  });
  it('finish removes it (success)', () => {
    let state = reduce(undefined, callStarted('/a'));
    state = reduce(state, callStarted('/b'));
    state = reduce(state, callFinished('/a'));
    expect(state.calling).toEqual(['/b']);
    expect(state.status).toBe('success');
  });
  it('fail removes it and stores the message', () => {
    let state = reduce(undefined, callStarted('/a'));
    state = reduce(state, callFailed({ kind: '/a', message: 'The username or password is wrong.' }));
    expect(state.calling).toEqual([]);
    expect(state.errorMessage).toBe('The username or password is wrong.');
    expect(state.displayError).toBe(true);
    expect(state.status).toBe('failed');
  });
  it('a server error stores the Japanese message', () => {
    expect(SERVER_ERROR_MESSAGE).toBe('サーバーエラーが発生しました');
    expect(reduce(undefined, serverError()).errorMessage).toBe('サーバーエラーが発生しました');
  });
  it('a server error of a call takes the call off the list and stores the translation given', () => {
    const calling = reduce(undefined, callStarted('/guest/read'));
    const failed = reduce(calling, serverError({ kind: '/guest/read', message: 'A server error occurred.' }));
    expect(failed).toMatchObject({ calling: [], status: 'failed', errorMessage: 'A server error occurred.', displayError: true });
  });
  it('clear-error clears the message (logout clears it too: app/store.test.ts)', () => {
    const failed = reduce(undefined, callFailed({ kind: '/a', message: 'm' }));
    expect(reduce(failed, errorCleared()).errorMessage).toBeNull();
    expect(reduce(failed, errorCleared()).displayError).toBe(false);
  });
  it('no internet is recorded and shown until the internet is back', () => {
    let state = reduce(undefined, noInternet('No internet'));
    expect(state.isInternetAvailable).toBe(false);
    expect(state.errorMessage).toBe('No internet');
    state = reduce(state, internetAvailable());
    expect(state.isInternetAvailable).toBe(true);
  });
});

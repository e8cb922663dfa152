import { describe, expect, it } from 'vitest';
import type { Guest } from '../../../shared/api/guest.ts';
import type { Reservation } from '../../../shared/api/reservation.ts';
import { applicationSlice, languageChanged, phoneCodeReceived } from './application.ts';
import { availableCommandsChanged, availableCommandsReset, commandSlice, commandsReceived, speechChanged } from './command.ts';
import { dialogAdded, dialogSlice, dialogsCleared } from './dialog.ts';
import { facePositionChanged, facePositionSlice } from './facePosition.ts';
import { featureImageSlice, featureImagesUpdated } from './featureImage.ts';
import { forumMessagePosted, forumMessagesReceived, forumSlice } from './forum.ts';
import { authRestored, guestReceived, guestSlice, loggedIn, loggedOut } from './guest.ts';
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
import {
  reservationAppended,
  reservationRemoved,
  reservationsReplaced,
  reservationsSlice,
  reservationUpserted,
} from './reservations.ts';
import { wardenChanged, wardenSlice } from './warden.ts';

/** What RTK Query dispatches when an endpoint's call succeeds. */
function fulfilled(endpointName: string, payload: Record<string, unknown>, kind: 'Query' | 'Mutation' = 'Mutation') {
  return { type: `api/execute${kind}/fulfilled`, payload, meta: { arg: { endpointName }, requestId: 'r' } };
}

const guest = (changes: Partial<Guest> = {}): Guest => ({
  id: 1,
  title: 'kazu',
  email: 'kazu@example.com',
  isVerified: true,
  language: 'en',
  timezone: -540,
  phone: null,
  subscriptionPlan: 1,
  subscriptionCreatedAt: null,
  subscriptionExpiredAt: null,
  isSleeper: false,
  isLimMember: false,
  jailStatus: null,
  jailStatusUpdated: null,
  lazyAlerts: [],
  totalDurationThisMonth: 0,
  suspendedUntil: null,
  earlyFinishBlockUntil: null,
  webhookEnabled: false,
  triggerEnabled: false,
  webhookTokenHint: 'abcd',
  triggerMethod: 'POST',
  triggerUrl: null,
  triggerBody: null,
  createdAt: 0,
  facilitatorSignedInAt: null,
  ...changes,
});

const reservation = (id: number, changes: Partial<Reservation> = {}): Reservation => ({
  id,
  work: `work ${id}`,
  startTime: id * 1000,
  endTime: id * 1000 + 3_600_000,
  duration: 1,
  isFinished: false,
  repeatType: 'none',
  dailyRepeatSettings: [0, 1, 2, 3, 4, 5, 6],
  schedules: [],
  activityLogs: [],
  logsPending: false,
  status: 'upcoming',
  ...changes,
});

describe('application', () => {
  const reduce = applicationSlice.reducer;
  it('starts in English without a phone code', () => {
    expect(reduce(undefined, { type: 'init' })).toEqual({ language: 'en', phoneCode: null });
  });
  it('changes the language and keeps the phone code', () => {
    let state = reduce(undefined, languageChanged('ja'));
    expect(state.language).toBe('ja');
    state = reduce(state, phoneCodeReceived('abc'));
    expect(state.phoneCode).toBe('abc');
    state = reduce(state, fulfilled('guestRequestPhoneCode', { phoneCode: 'def' }));
    expect(state.phoneCode).toBe('def');
  });
});

describe('command', () => {
  const reduce = commandSlice.reducer;
  it('has commands 1, 2, 3, 4 available by default', () => {
    expect(reduce(undefined, { type: 'init' })).toEqual({ commands: [], onSpeech: false, availableCommands: [1, 2, 3, 4] });
  });
  it('changes and resets the available commands, the speech flag and the commands', () => {
    let state = reduce(undefined, availableCommandsChanged([5]));
    expect(state.availableCommands).toEqual([5]);
    state = reduce(state, availableCommandsReset());
    expect(state.availableCommands).toEqual([1, 2, 3, 4]);
    state = reduce(state, speechChanged(true));
    expect(state.onSpeech).toBe(true);
    const command = { id: 1, keywords: ['one'], speech: 's', subtitle: 't', response: 'r' };
    expect(reduce(state, commandsReceived([command])).commands).toEqual([command]);
  });
});

describe('featureImage, dialog, facePosition, warden, forum', () => {
  it('replaces the whitelist', () => {
    expect(featureImageSlice.reducer(undefined, featureImagesUpdated(['a', 'b'])).whitelist).toEqual(['a', 'b']);
  });
  it('adds and clears dialog entries', () => {
    const entry = { id: 1, text: 'hi', time: 5, type: 1 as const };
    let state = dialogSlice.reducer(undefined, dialogAdded(entry));
    state = dialogSlice.reducer(state, dialogAdded({ ...entry, id: 2 }));
    expect(state.entries.map((item) => item.id)).toEqual([1, 2]);
    expect(dialogSlice.reducer(state, dialogsCleared()).entries).toEqual([]);
  });
  it('sets the face position', () => {
    const position = { radian: 1, radius: 2, left: 3, top: 4, guestId: 1, wardenId: null, time: 9 };
    expect(facePositionSlice.reducer(undefined, facePositionChanged(position)).position).toEqual(position);
  });
  it('sets the warden', () => {
    expect(wardenSlice.reducer(undefined, wardenChanged({ id: 3, title: 'w' })).warden).toEqual({ id: 3, title: 'w' });
  });
  it('replaces and appends forum messages', () => {
    const message = { username: 'u', text: 't', time: 1 };
    let state = forumSlice.reducer(undefined, forumMessagesReceived([message]));
    state = forumSlice.reducer(state, forumMessagePosted({ ...message, time: 2 }));
    expect(state.messages.map((item) => item.time)).toEqual([1, 2]);
  });
});

describe('guest', () => {
  const reduce = guestSlice.reducer;
  it('starts signed out and unchecked', () => {
    expect(reduce(undefined, { type: 'init' })).toEqual({ guest: null, auth: null, authChecked: false });
  });
  it('restores the saved session', () => {
    expect(reduce(undefined, authRestored({ id: 4, token: 't' }))).toEqual({ guest: null, auth: { id: 4, token: 't' }, authChecked: true });
    expect(reduce(undefined, authRestored(null)).authChecked).toBe(true);
  });
  for (const endpoint of ['guestCreate', 'guestAuthenticate', 'guestAuthenticateAsLimFacilitator']) {
    it(`starts a session on ${endpoint}`, () => {
      const state = reduce(undefined, fulfilled(endpoint, { api: { status: 'success' }, guest: guest({ token: 'new' }) }));
      expect(state.auth).toEqual({ id: 1, token: 'new' });
      expect(state.guest?.token).toBe('new');
    });
  }
  it('starts a session on loggedIn', () => {
    expect(reduce(undefined, loggedIn(guest({ id: 9, token: 'x' }))).auth).toEqual({ id: 9, token: 'x' });
  });
  for (const endpoint of ['guestRead', 'guestUpdate', 'guestSubscribe', 'guestUnsubscribe', 'guestUpdateCard']) {
    it(`keeps the current token on ${endpoint}`, () => {
      let state = reduce(undefined, loggedIn(guest({ token: 'kept' })));
      state = reduce(state, fulfilled(endpoint, { api: { status: 'success' }, guest: guest({ title: 'renamed' }) }));
      expect(state.guest?.title).toBe('renamed');
      expect(state.guest?.token).toBe('kept');
      expect(state.auth?.token).toBe('kept');
    });
  }
  it('keeps the token of a restored session on guestReceived', () => {
    let state = reduce(undefined, authRestored({ id: 1, token: 'saved' }));
    state = reduce(state, guestReceived(guest()));
    expect(state.guest?.token).toBe('saved');
  });
  it('resets the guest at logout', () => {
    let state = reduce(undefined, loggedIn(guest({ token: 't' })));
    state = reduce(state, loggedOut());
    expect(state).toEqual({ guest: null, auth: null, authChecked: true });
  });
  it('ignores other endpoints', () => {
    const state = reduce(undefined, fulfilled('somethingElse', { guest: guest({ token: 'no' }) }));
    expect(state.auth).toBeNull();
  });
});

describe('reservations', () => {
  const reduce = reservationsSlice.reducer;
  const ids = (state: { list: Reservation[] }) => state.list.map((item) => item.id);
  it('create appends', () => {
    let state = reduce(undefined, reservationsReplaced([reservation(1)]));
    state = reduce(state, fulfilled('reservationCreate', { reservation: reservation(2) }));
    expect(ids(state)).toEqual([1, 2]);
    expect(ids(reduce(state, reservationAppended(reservation(3))))).toEqual([1, 2, 3]);
  });
  it('read list replaces the list', () => {
    let state = reduce(undefined, reservationsReplaced([reservation(1), reservation(2)]));
    state = reduce(state, fulfilled('reservationReadList', { reservations: [reservation(3)] }, 'Query'));
    expect(ids(state)).toEqual([3]);
  });
  for (const endpoint of ['reservationRead', 'reservationUpdate']) {
    it(`${endpoint} replaces by id or adds`, () => {
      let state = reduce(undefined, reservationsReplaced([reservation(1), reservation(2)]));
      state = reduce(state, fulfilled(endpoint, { reservation: reservation(2, { work: 'changed' }) }));
      expect(ids(state)).toEqual([1, 2]);
      expect(state.list[1]?.work).toBe('changed');
      state = reduce(state, fulfilled(endpoint, { reservation: reservation(5) }));
      expect(ids(state)).toEqual([1, 2, 5]);
    });
  }
  it('skip replaces the skipped one and adds the next', () => {
    let state = reduce(undefined, reservationsReplaced([reservation(1)]));
    state = reduce(state, fulfilled('reservationSkip', { reservation: reservation(1, { isFinished: true, status: 'skipped' }), nextReservation: reservation(2) }));
    expect(ids(state)).toEqual([1, 2]);
    expect(state.list[0]?.status).toBe('skipped');
  });
  it('destroy removes', () => {
    let state = reduce(undefined, reservationsReplaced([reservation(1), reservation(2)]));
    state = reduce(state, fulfilled('reservationDestroy', { reservation: reservation(1) }));
    expect(ids(state)).toEqual([2]);
    expect(ids(reduce(state, reservationRemoved(2)))).toEqual([]);
  });
  it('upserts by action and empties at logout', () => {
    let state = reduce(undefined, reservationUpserted(reservation(1)));
    state = reduce(state, reservationUpserted(reservation(1, { work: 'w' })));
    expect(state.list).toHaveLength(1);
    expect(reduce(state, loggedOut()).list).toEqual([]);
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
  it('clear-error and logout clear the message', () => {
    const failed = reduce(undefined, callFailed({ kind: '/a', message: 'm' }));
    expect(reduce(failed, errorCleared()).errorMessage).toBeNull();
    expect(reduce(failed, errorCleared()).displayError).toBe(false);
    expect(reduce(failed, loggedOut()).errorMessage).toBeNull();
  });
  it('no internet is recorded and shown until the internet is back', () => {
    let state = reduce(undefined, noInternet('No internet'));
    expect(state.isInternetAvailable).toBe(false);
    expect(state.errorMessage).toBe('No internet');
    state = reduce(state, internetAvailable());
    expect(state.isInternetAvailable).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import type { GuestJail } from '../../../shared/relay.ts';
import {
  finishAnnounced,
  jailFinished,
  jailResumed,
  jailSessionSlice,
  jailStarted,
  jailUpdated,
  sessionLeft,
  shouldAnnounceFinish,
  statusChosen,
  type JailSessionState,
} from './sessionSlice.ts';

const reduce = jailSessionSlice.reducer;
const jail: GuestJail = {
  reservationId: 7,
  work: 'Chapter 3',
  startTime: 1_000,
  endTime: 3_601_000,
  jailStatus: 'injail',
  statusSince: 1_000,
  commands: [1, 2, 3, 4],
};
const warden = { id: 2, title: 'Warden Sato' };

function started(): JailSessionState {
  return reduce(undefined, jailStarted({ jail, warden }));
}

describe('the live session', () => {
  it('starts with the jail and its warden, the eye awake, in the jail', () => {
    const state = started();
    expect(state).toMatchObject({ jail, warden, eyeAwake: true, status: 'injail', finish: null });
  });

  it('takes the status the guest chose at once, from that moment; the same status again keeps its start', () => {
    let state = reduce(started(), statusChosen({ status: 'leaving', now: 5_000 }));
    expect(state).toMatchObject({ status: 'leaving', statusSince: 5_000 });
    expect(reduce(state, statusChosen({ status: 'leaving', now: 5_500 }))).toEqual(state);
    state = reduce(state, statusChosen({ status: 'injail', now: 6_000 }));
    expect(state).toMatchObject({ status: 'injail', statusSince: 6_000 });
    state = reduce(state, statusChosen({ status: 'breaking', now: 7_000 }));
    expect(state).toMatchObject({ status: 'breaking', statusSince: 7_000 });
  });

  it('applies the server: a resume restores leaving or breaking, an update overrides', () => {
    const resumed = reduce(undefined, jailResumed({ guest: { jailStatus: 'breaking', statusSince: 2_000 }, jail, warden }));
    expect(resumed).toMatchObject({ status: 'breaking', statusSince: 2_000 });
    const updated = reduce(resumed, jailUpdated({ guest: { jailStatus: 'injail', statusSince: 3_000 }, warden: null }));
    expect(updated).toMatchObject({ status: 'injail', warden: null });
  });

  it('announces the finish once, keeping the first reason', () => {
    let state = reduce(started(), jailFinished('early'));
    state = reduce(state, jailFinished('ended'));
    expect(state.finish).toBe('early');
    expect(shouldAnnounceFinish(state)).toBe(true);
    state = reduce(state, finishAnnounced());
    expect(shouldAnnounceFinish(state)).toBe(false);
    expect(reduce(state, sessionLeft()).jail).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import type { GuestJail } from '../../../shared/relay.ts';
import {
  commandGiven,
  commandsUpdated,
  finishAnnounced,
  jailFinished,
  jailResumed,
  jailSessionSlice,
  jailStarted,
  jailUpdated,
  sessionLeft,
  shouldAnnounceFinish,
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
  it('starts with the jail and its warden, the eye awake, commands 1-4', () => {
    const state = started();
    expect(state).toMatchObject({ jail, warden, eyeAwake: true, status: 'injail', normalCommands: [1, 2, 3, 4], finish: null });
  });

  it('leaves the seat and comes back, takes a break and ends it', () => {
    let state = reduce(started(), commandGiven({ command: 1, now: 5_000 }));
    expect(state).toMatchObject({ status: 'leaving', statusSince: 5_000 });
    state = reduce(state, commandGiven({ command: 5, now: 6_000 }));
    expect(state).toMatchObject({ status: 'injail', statusSince: 6_000 });
    state = reduce(state, commandGiven({ command: 2, now: 7_000 }));
    expect(state).toMatchObject({ status: 'breaking' });
    // A command not on offer changes nothing.
    expect(reduce(state, commandGiven({ command: 1, now: 8_000 }))).toEqual(state);
    state = reduce(state, commandGiven({ command: 6, now: 9_000 }));
    expect(state).toMatchObject({ status: 'injail', statusSince: 9_000 });
  });

  it('applies the server: a resume restores leaving or breaking, an update overrides, a warden sets the commands', () => {
    const resumed = reduce(undefined, jailResumed({ guest: { jailStatus: 'breaking', statusSince: 2_000 }, jail, warden }));
    expect(resumed).toMatchObject({ status: 'breaking', statusSince: 2_000 });
    const updated = reduce(resumed, jailUpdated({ guest: { jailStatus: 'injail', statusSince: 3_000 }, warden: null }));
    expect(updated).toMatchObject({ status: 'injail', warden: null });
    const limited = reduce(updated, commandsUpdated([1, 3]));
    expect(limited.normalCommands).toEqual([1, 3]);
    // Command 2 is no longer a normal one: it changes nothing.
    expect(reduce(limited, commandGiven({ command: 2, now: 4_000 })).status).toBe('injail');
    expect(reduce(limited, commandGiven({ command: 1, now: 4_000 })).status).toBe('leaving');
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

import { describe, expect, it, vi } from 'vitest';
import { makeStore } from '../../app/store.ts';
import type { GuestJail } from '../../../shared/relay.ts';
import { commandGroup, commandsUpdated, selectAvailableCommands, speechChanged } from './commandSlice.ts';
import { dialogAdded, dialogGroup } from './dialogSlice.ts';
import { jailResumed, jailStarted, sessionLeft, statusChosen } from './sessionSlice.ts';

const jail: GuestJail = {
  reservationId: 7,
  work: 'Chapter 3',
  startTime: 1_000,
  endTime: 3_601_000,
  jailStatus: 'injail',
  statusSince: 1_000,
  commands: [1, 2, 3],
};

describe('command', () => {
  it('offers commands 1, 2, 3, 4 by default and follows the session: away from the seat only 5, on a break only 6', () => {
    const store = makeStore();
    expect(selectAvailableCommands(store.getState())).toEqual([1, 2, 3, 4]);
    store.dispatch(statusChosen({ status: 'leaving', now: 1_000 }));
    expect(selectAvailableCommands(store.getState())).toEqual([5]);
    store.dispatch(statusChosen({ status: 'breaking', now: 2_000 }));
    expect(selectAvailableCommands(store.getState())).toEqual([6]);
  });
  it("takes the jail's normal commands, then a warden's, and forgets them when the guest leaves the session", () => {
    const store = makeStore();
    store.dispatch(jailStarted({ jail, warden: null }));
    expect(selectAvailableCommands(store.getState())).toEqual([1, 2, 3]);
    store.dispatch(commandsUpdated([1, 3]));
    expect(commandGroup.selectSlice(store.getState()).commands).toEqual([1, 3]);
    expect(selectAvailableCommands(store.getState())).toEqual([1, 3]);
    // Away from the seat, coming back is offered whatever the normal ones are.
    store.dispatch(statusChosen({ status: 'leaving', now: 3_000 }));
    expect(selectAvailableCommands(store.getState())).toEqual([5]);
    store.dispatch(sessionLeft());
    expect(selectAvailableCommands(store.getState())).toEqual([1, 2, 3, 4]);
    // Back mid-jail, the jail's own normal commands again.
    store.dispatch(jailResumed({ guest: { jailStatus: 'injail', statusSince: 4_000 }, jail: { ...jail, commands: [2, 4] }, warden: null }));
    expect(selectAvailableCommands(store.getState())).toEqual([2, 4]);
  });
  it('keeps whether the Warden is listening', () => {
    const store = makeStore();
    expect(commandGroup.selectSlice(store.getState()).onSpeech).toBe(false);
    store.dispatch(speechChanged(true));
    expect(commandGroup.selectSlice(store.getState()).onSpeech).toBe(true);
  });
});

describe('dialog', () => {
  it('adds the lines of the conversation in order, and forgets them when the guest leaves the session', () => {
    const store = makeStore();
    store.dispatch(dialogAdded({ text: 'Are you there?', type: 1 }, 5));
    store.dispatch(dialogAdded({ text: 'Yes', type: 0 }, 6));
    const entries = dialogGroup.selectSlice(store.getState()).entries;
    expect(entries.map(({ text, type, time }) => ({ text, type, time }))).toEqual([
      { text: 'Are you there?', type: 1, time: 5 },
      { text: 'Yes', type: 0, time: 6 },
    ]);
    expect(new Set(entries.map((entry) => entry.id)).size).toBe(2);
    store.dispatch(sessionLeft());
    expect(dialogGroup.selectSlice(store.getState()).entries).toEqual([]);
  });
});

describe("the live jail's groups join a store made before them", () => {
  it('read as their initial state until the next action, then kept by the store', async () => {
    vi.resetModules();
    const { makeStore: makeFreshStore } = await import('../../app/store.ts');
    const store = makeFreshStore();
    expect(Object.keys(store.getState())).not.toContain('jailSession');
    // As when the live jail's code loads after the app started (App.tsx loads it with the screen).
    const { jailSessionGroup, screenEntered } = await import('./sessionSlice.ts');
    const { commandGroup: freshCommandGroup, selectAvailableCommands: freshAvailableCommands } = await import('./commandSlice.ts');
    expect(jailSessionGroup.selectSlice(store.getState()).status).toBe('injail');
    expect(freshCommandGroup.selectSlice(store.getState()).onSpeech).toBe(false);
    expect(freshAvailableCommands(store.getState())).toEqual([1, 2, 3, 4]);
    store.dispatch(screenEntered(jailSessionGroup.getInitialState().screen));
    expect(Object.keys(store.getState())).toEqual(expect.arrayContaining(['jailSession', 'command']));
  });
});

import { describe, expect, it, vi } from 'vitest';
import { makeStore } from '../../app/store.ts';
import { commandGroup, selectAvailableCommands, speechChanged } from './commandSlice.ts';
import { dialogAdded, dialogGroup } from './dialogSlice.ts';
import { commandGiven, sessionLeft } from './sessionSlice.ts';

describe('command', () => {
  it('offers commands 1, 2, 3, 4 by default and follows the session: away from the seat, only 5', () => {
    const store = makeStore();
    expect(selectAvailableCommands(store.getState())).toEqual([1, 2, 3, 4]);
    store.dispatch(commandGiven({ command: 1, now: 1_000 }));
    expect(selectAvailableCommands(store.getState())).toEqual([5]);
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

import { describe, expect, it } from 'vitest';
import { makeStore } from '../../app/store.ts';
import { selectAvailableCommands, speechChanged } from './commandSlice.ts';
import { dialogAdded } from './dialogSlice.ts';
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
    expect(store.getState().command.onSpeech).toBe(false);
    store.dispatch(speechChanged(true));
    expect(store.getState().command.onSpeech).toBe(true);
  });
});

describe('dialog', () => {
  it('adds the lines of the conversation in order, and forgets them when the guest leaves the session', () => {
    const store = makeStore();
    store.dispatch(dialogAdded({ text: 'Are you there?', type: 1 }, 5));
    store.dispatch(dialogAdded({ text: 'Yes', type: 0 }, 6));
    const entries = store.getState().dialog.entries;
    expect(entries.map(({ text, type, time }) => ({ text, type, time }))).toEqual([
      { text: 'Are you there?', type: 1, time: 5 },
      { text: 'Yes', type: 0, time: 6 },
    ]);
    expect(new Set(entries.map((entry) => entry.id)).size).toBe(2);
    store.dispatch(sessionLeft());
    expect(store.getState().dialog.entries).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { availableCommandsChanged, availableCommandsReset, commandSlice, commandsReceived, speechChanged } from './commandSlice.ts';
import { dialogAdded, dialogSlice, dialogsCleared } from './dialogSlice.ts';

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

describe('dialog', () => {
  it('adds and clears dialog entries', () => {
    const entry = { id: 1, text: 'hi', time: 5, type: 1 as const };
    let state = dialogSlice.reducer(undefined, dialogAdded(entry));
    state = dialogSlice.reducer(state, dialogAdded({ ...entry, id: 2 }));
    expect(state.entries.map((item) => item.id)).toEqual([1, 2]);
    expect(dialogSlice.reducer(state, dialogsCleared()).entries).toEqual([]);
  });
});

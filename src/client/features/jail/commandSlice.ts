import { createSelector, createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { availableCommands } from './session-rules.ts';
import { rootReducer, type RootState } from '../../app/store.ts';
import { jailSessionGroup } from './sessionSlice.ts';

/**
 * The Command group (docs/client.md, State): whether the Warden is listening
 * for a spoken command now. The commands themselves are data (`COMMANDS`),
 * and the ones on offer follow from the session (`selectAvailableCommands`),
 * so neither is copied here.
 */
export interface CommandState {
  onSpeech: boolean;
}

const initialState: CommandState = { onSpeech: false };

export const commandSlice = createSlice({
  name: 'command',
  initialState,
  reducers: {
    speechChanged: (state, { payload: listening }: PayloadAction<boolean>) => {
      state.onSpeech = listening;
    },
  },
});

/** The group in every store, from when this module loads (app/store.ts); read it with `commandGroup.selectSlice`. */
export const commandGroup = commandSlice.injectInto(rootReducer);

export const { speechChanged } = commandSlice.actions;

/** The command ids the guest may give now (1, 2, 3, 4 by default), from the session's status. */
export const selectAvailableCommands = createSelector(
  [(state: RootState) => jailSessionGroup.selectSlice(state).status, (state: RootState) => jailSessionGroup.selectSlice(state).normalCommands],
  (status, normal) => availableCommands(status, normal),
);

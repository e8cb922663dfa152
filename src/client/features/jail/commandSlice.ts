import { createSelector, createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { DEFAULT_COMMANDS } from '../../../shared/constants.ts';
import { availableCommands } from './session-rules.ts';
import { rootReducer } from '../../app/storeRoot.ts';
import { jailResumed, jailSessionGroup, jailStarted, sessionLeft } from './sessionSlice.ts';

/**
 * The Command group (docs/client.md, State): the commands a warden made the
 * normal ones (1-4 by default), and whether the Warden is listening for a
 * spoken command now. What each command says and does is data (`COMMANDS`,
 * session-rules.ts), and the ones on offer follow from the session's status
 * (`selectAvailableCommands`), so neither is copied here.
 */
export interface CommandState {
  /** The normal commands: what a warden set (`update_commands_to_guest`), else the jail's own. */
  commands: number[];
  onSpeech: boolean;
}

const initialState: CommandState = { commands: [...DEFAULT_COMMANDS], onSpeech: false };

export const commandSlice = createSlice({
  name: 'command',
  initialState,
  reducers: {
    /** `update_commands_to_guest`: a warden set the normal commands. */
    commandsUpdated(state, { payload: commands }: PayloadAction<number[]>) {
      state.commands = commands;
    },
    speechChanged(state, { payload: listening }: PayloadAction<boolean>) {
      state.onSpeech = listening;
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(jailStarted, (state, { payload }) => {
        state.commands = payload.jail.commands;
      })
      .addCase(jailResumed, (state, { payload }) => {
        state.commands = payload.jail.commands;
      })
      .addCase(sessionLeft, () => initialState);
  },
});

/** The group in every store, from when this module loads (app/store.ts); read it with `commandGroup.selectSlice`. */
export const commandGroup = commandSlice.injectInto(rootReducer);

export const { commandsUpdated, speechChanged } = commandSlice.actions;

/** What the command ids on offer are read from: the session's part and the commands', each there or not yet. */
type CommandsOnOfferState = Parameters<typeof jailSessionGroup.selectSlice>[0] & Parameters<typeof commandGroup.selectSlice>[0];

/** The command ids the guest may give now (1, 2, 3, 4 by default), from the session's status and the normal commands. */
export const selectAvailableCommands = createSelector(
  [(state: CommandsOnOfferState) => jailSessionGroup.selectSlice(state).status, (state: CommandsOnOfferState) => commandGroup.selectSlice(state).commands],
  (status, normal) => availableCommands(status, normal),
);

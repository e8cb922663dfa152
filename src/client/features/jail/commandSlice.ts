import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { DEFAULT_COMMANDS } from '../../../shared/constants.ts';

/** A command of the live session (docs/jail.md, Commands). */
export interface Command {
  id: number;
  keywords: string[];
  speech: string;
  subtitle: string;
  response: string;
}

export interface CommandState {
  commands: Command[];
  onSpeech: boolean;
  /** The command ids the guest may use now; 1, 2, 3, 4 by default. */
  availableCommands: number[];
}

const initialState: CommandState = { commands: [], onSpeech: false, availableCommands: [...DEFAULT_COMMANDS] };

export const commandSlice = createSlice({
  name: 'command',
  initialState,
  reducers: {
    commandsReceived(state, action: PayloadAction<Command[]>) {
      state.commands = action.payload;
    },
    speechChanged(state, action: PayloadAction<boolean>) {
      state.onSpeech = action.payload;
    },
    availableCommandsChanged(state, action: PayloadAction<number[]>) {
      state.availableCommands = action.payload;
    },
    availableCommandsReset(state) {
      state.availableCommands = [...DEFAULT_COMMANDS];
    },
  },
});

export const { commandsReceived, speechChanged, availableCommandsChanged, availableCommandsReset } = commandSlice.actions;

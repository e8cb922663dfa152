import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

/** A dialog entry (docs/jail.md, Console); type 0 guest, 1 warden, 2 snitch. */
export interface DialogEntry {
  id: number | string;
  text: string;
  time: number;
  type: 0 | 1 | 2;
}

export interface DialogState {
  entries: DialogEntry[];
}

const initialState: DialogState = { entries: [] };

export const dialogSlice = createSlice({
  name: 'dialog',
  initialState,
  reducers: {
    dialogAdded(state, action: PayloadAction<DialogEntry>) {
      state.entries.push(action.payload);
    },
    dialogsCleared(state) {
      state.entries = [];
    },
  },
});

export const { dialogAdded, dialogsCleared } = dialogSlice.actions;

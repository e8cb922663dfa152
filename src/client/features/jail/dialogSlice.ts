import { createSlice, nanoid, type PayloadAction } from '@reduxjs/toolkit';
import type { Speaker } from '../../../shared/api/reservation.ts';
import { rootReducer } from '../../app/store.ts';
import { sessionLeft } from './sessionSlice.ts';

/** A line of the conversation (docs/jail.md, Console): type 0 the guest's, 1 a warden's, `by` the virtual Warden or a human warden. */
export interface DialogEntry {
  id: string;
  text: string;
  time: number;
  type: 0 | 1;
  by?: Speaker;
}

/** The Dialog group (docs/client.md, State): the conversation of the live jail, shown on its screen until the guest leaves it. */
export interface DialogState {
  entries: DialogEntry[];
}

const initialState: DialogState = { entries: [] };

export const dialogSlice = createSlice({
  name: 'dialog',
  initialState,
  reducers: {
    dialogAdded: {
      reducer(state, action: PayloadAction<DialogEntry>) {
        state.entries.push(action.payload);
      },
      prepare(line: Pick<DialogEntry, 'text' | 'type' | 'by'>, time = Date.now()) {
        return { payload: { ...line, time, id: nanoid() } };
      },
    },
  },
  extraReducers: (builder) => {
    builder.addCase(sessionLeft, () => initialState);
  },
});

/** The group in every store, from when this module loads (app/store.ts); read it with `dialogGroup.selectSlice`. */
export const dialogGroup = dialogSlice.injectInto(rootReducer);

export const { dialogAdded } = dialogSlice.actions;

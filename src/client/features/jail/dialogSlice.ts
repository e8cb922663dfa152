import { createSlice, nanoid, type PayloadAction } from '@reduxjs/toolkit';
import type { ActivityLog } from '../../../shared/api/reservation.ts';
import { rootReducer } from '../../app/storeRoot.ts';
import { sessionLeft } from './sessionSlice.ts';
import type { Speaker } from '../../../shared/jail-vocabulary.ts';

/** A line of the conversation (docs/jail.md, Console): type 0 the guest's, 1 a warden's, `by` the virtual Warden or a human warden. */
export interface DialogEntry {
  id: string;
  text: string;
  time: number;
  type: 0 | 1;
  by?: Speaker;
  /**
   * A line read back from the server's logs (`conversationRestored`) that the
   * relay may still be delivering live: the live copy is not shown twice.
   */
  awaitingLive?: boolean;
}

/** How far before the newest line read back a line may still be on its way live (the greeting, the welcome back). */
const IN_FLIGHT_MS = 10_000;

function sameLine(a: Pick<DialogEntry, 'type' | 'text'>, b: Pick<DialogEntry, 'type' | 'text'>): boolean {
  return a.type === b.type && a.text === b.text;
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
        const readBack = state.entries.find((entry) => entry.awaitingLive === true && sameLine(entry, action.payload));
        if (readBack !== undefined) readBack.awaitingLive = false;
        else state.entries.push(action.payload);
      },
      prepare(line: Pick<DialogEntry, 'text' | 'type' | 'by'>, time = Date.now()) {
        return { payload: { ...line, time, id: nanoid() } };
      },
    },
    /**
     * The conversation so far as the server logged it, read when the guest
     * comes back to a running jail: put before what this screen has heard
     * since, leaving out the lines it has already (the same speaker and words).
     */
    conversationRestored(state, action: PayloadAction<Omit<DialogEntry, 'id'>[]>) {
      const newest = Math.max(...action.payload.map((line) => line.time));
      const earlier = action.payload
        .filter((line) => !state.entries.some((entry) => sameLine(entry, line)))
        .map((line) => ({ ...line, id: nanoid(), awaitingLive: line.time >= newest - IN_FLIGHT_MS }));
      state.entries = [...earlier, ...state.entries];
    },
  },
  extraReducers: (builder) => {
    builder.addCase(sessionLeft, () => initialState);
  },
});

/** The group in every store, from when this module loads (app/store.ts); read it with `dialogGroup.selectSlice`. */
export const dialogGroup = dialogSlice.injectInto(rootReducer);

export const { dialogAdded, conversationRestored } = dialogSlice.actions;

/** The lines of a conversation in a jail's logs: the guest's and the wardens' (a report from someone else is not part of it). */
export function conversationOf(logs: readonly ActivityLog[]): Omit<DialogEntry, 'id'>[] {
  return logs.flatMap((log) => {
    if (log.type === 'callup') return [{ type: 1 as const, text: log.callup.text, time: log.time, by: 'human' as const }];
    if (log.type !== 'dialog' || log.dialog.type === 2) return [];
    return [{ type: log.dialog.type, text: log.dialog.text, time: log.time, by: log.dialog.by }];
  });
}

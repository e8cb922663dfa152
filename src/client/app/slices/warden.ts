import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

/** A human warden (SPEC §3), as the relay sends it. */
export interface Warden {
  id: number;
  title: string;
  email?: string;
  socketId?: string;
  phone?: string | null;
}

export interface WardenState {
  warden: Warden | null;
}

const initialState: WardenState = { warden: null };

export const wardenSlice = createSlice({
  name: 'warden',
  initialState,
  reducers: {
    wardenChanged(state, action: PayloadAction<Warden | null>) {
      state.warden = action.payload;
    },
  },
});

export const { wardenChanged } = wardenSlice.actions;

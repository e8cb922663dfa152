import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

/** Face position (SPEC §3): where the eye looks. */
export interface FacePosition {
  radian: number;
  radius: number;
  left: number;
  top: number;
  guestId: number | null;
  wardenId: number | null;
  time: number;
}

export interface FacePositionState {
  position: FacePosition | null;
}

const initialState: FacePositionState = { position: null };

export const facePositionSlice = createSlice({
  name: 'facePosition',
  initialState,
  reducers: {
    facePositionChanged(state, action: PayloadAction<FacePosition | null>) {
      state.position = action.payload;
    },
  },
});

export const { facePositionChanged } = facePositionSlice.actions;

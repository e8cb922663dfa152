import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { rootReducer } from '../../app/storeRoot.ts';
import type { FrameFace } from '../../vision/analyser.ts';
import { gazeToward, isNotableTurn } from './gaze.ts';
import { sessionLeft } from './sessionSlice.ts';

/**
 * The Face position (docs/client.md, State): where the guest's face is in
 * the picture, as the preview shows it (`left`, `top`: fractions of the
 * frame, mirrored for the front camera), and the Warden's gaze toward it
 * (`radian`, `radius`, gaze.ts); `time` is when the camera saw it there.
 * On the guest's device `wardenId` is null.
 */
export interface FacePosition {
  left: number;
  top: number;
  radian: number;
  radius: number;
  guestId: number;
  wardenId: number | null;
  time: number;
}

/** The FacePosition group: the guest's face as last seen, or null while no face is seen (none yet, gone, the camera closed, or no detector). */
export type FacePositionState = FacePosition | null;

const initialState = null as FacePositionState;

/** A fraction kept within the frame. */
function withinFrame(value: number): number {
  return Math.min(1, Math.max(0, value));
}

export const facePositionSlice = createSlice({
  name: 'facePosition',
  initialState,
  reducers: {
    /** The camera saw the face (the worker tells when it appears or moves notably); a turn of the gaze within the dead zone keeps the position shown. */
    faceSeen: {
      reducer(state, action: PayloadAction<FacePosition>) {
        return state === null || isNotableTurn(state, action.payload) ? action.payload : state;
      },
      prepare(face: FrameFace, seen: { time: number; mirrored: boolean; guestId: number }) {
        const left = withinFrame(seen.mirrored ? 1 - face.x : face.x);
        const top = withinFrame(face.y);
        return { payload: { left, top, ...gazeToward(left, top), guestId: seen.guestId, wardenId: null, time: seen.time } };
      },
    },
    /** No face now: it left the picture, or the camera closed. */
    faceLost() {
      return null;
    },
  },
  extraReducers: (builder) => {
    builder.addCase(sessionLeft, () => null);
  },
});

/** The group in every store, from when this module loads (app/store.ts); read it with `facePositionGroup.selectSlice`. */
export const facePositionGroup = facePositionSlice.injectInto(rootReducer);

export const { faceSeen, faceLost } = facePositionSlice.actions;

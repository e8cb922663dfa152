import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

/** FeatureImage (SPEC §3): the whitelist of feature images sent by the wardens. */
export interface FeatureImageState {
  whitelist: string[];
}

const initialState: FeatureImageState = { whitelist: [] };

export const featureImageSlice = createSlice({
  name: 'featureImage',
  initialState,
  reducers: {
    featureImagesUpdated(state, action: PayloadAction<string[]>) {
      state.whitelist = action.payload;
    },
  },
});

export const { featureImagesUpdated } = featureImageSlice.actions;

import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

/** A forum message (SPEC §3). */
export interface ForumMessage {
  username: string;
  text: string;
  /** Epoch ms. */
  time: number;
}

export interface ForumState {
  messages: ForumMessage[];
}

const initialState: ForumState = { messages: [] };

export const forumSlice = createSlice({
  name: 'forum',
  initialState,
  reducers: {
    forumMessagesReceived(state, action: PayloadAction<ForumMessage[]>) {
      state.messages = action.payload;
    },
    forumMessagePosted(state, action: PayloadAction<ForumMessage>) {
      state.messages.push(action.payload);
    },
  },
});

export const { forumMessagesReceived, forumMessagePosted } = forumSlice.actions;

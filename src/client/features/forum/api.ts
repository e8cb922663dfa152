import type { ForumCreateRequest, ForumMessage, ForumReadRequest } from '../../../shared/api/forum.ts';
import { api } from '../../app/api.ts';

/** The forum calls (docs/forum.md). */
export const forumApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** `/forum/read`: the latest messages, oldest first. */
    forumRead: build.query<{ messages: ForumMessage[]; hasEarlier: boolean }, void>({
      query: () => ({ path: '/forum/read', body: {}, auth: true }),
    }),
    /** `/forum/read` with `before`: the page of messages before the oldest one shown. */
    forumReadEarlier: build.query<{ messages: ForumMessage[]; hasEarlier: boolean }, NonNullable<ForumReadRequest['before']>>({
      query: (before) => ({ path: '/forum/read', body: { before }, auth: true }),
    }),
    /** `/forum/create`: the posted message is added to the list read already, without reading it again. */
    forumCreate: build.mutation<{ message: ForumMessage }, ForumCreateRequest['message']>({
      query: (message) => ({ path: '/forum/create', body: { message }, auth: true, refusalsBesideFields: true }),
      async onQueryStarted(_message, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled;
        dispatch(
          forumApi.util.updateQueryData('forumRead', undefined, (draft) => {
            draft.messages.push(data.message);
          }),
        );
      },
    }),
  }),
});

export const { useForumReadQuery, useLazyForumReadEarlierQuery, useForumCreateMutation } = forumApi;

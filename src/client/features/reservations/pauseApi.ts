import { api } from '../../app/api.ts';
import type { Pause, PauseCreateRequest } from '../../../shared/api/pause.ts';

/**
 * The pause calls (docs/api.md, Pauses). A pause changes which occurrences
 * the list shows as held, so every write invalidates the reservations (the
 * list and the pauses are read again).
 */
export const pauseApi = api.injectEndpoints({
  endpoints: (build) => ({
    pauseReadList: build.query<{ pauses: Pause[] }, void>({
      query: () => ({ path: '/pause/read_list', body: {}, auth: true }),
      providesTags: ['Reservation'],
    }),
    pauseCreate: build.mutation<{ pause: Pause }, PauseCreateRequest['pause']>({
      query: (pause) => ({ path: '/pause/create', body: { pause }, auth: true, refusalsBesideFields: true }),
      invalidatesTags: ['Reservation'],
    }),
    pauseEnd: build.mutation<{ pause: Pause | null }, { id: number }>({
      query: ({ id }) => ({ path: '/pause/end', body: { pause: { id } }, auth: true }),
      invalidatesTags: ['Reservation'],
    }),
  }),
});

export const { usePauseReadListQuery, usePauseCreateMutation, usePauseEndMutation } = pauseApi;

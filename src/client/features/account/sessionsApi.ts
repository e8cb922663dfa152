import type { SignedInDevice } from '../../../shared/api/sessions.ts';
import { api } from '../../app/api.ts';

/** The signed-in devices' calls (docs/sessions.md, "Signed-in devices"). */
const sessionsApi = api.enhanceEndpoints({ addTagTypes: ['Sessions'] }).injectEndpoints({
  endpoints: (build) => ({
    guestReadSessions: build.query<{ sessions: SignedInDevice[] }, void>({
      query: () => ({ path: '/guest/readSessions', body: {}, auth: true }),
      providesTags: ['Sessions'],
    }),
    guestLogoutSession: build.mutation<{ sessions: SignedInDevice[] }, { id: number }>({
      query: (session) => ({ path: '/guest/logoutSession', body: { session }, auth: true }),
      invalidatesTags: ['Sessions'],
    }),
    guestLogoutEverywhere: build.mutation<Record<string, never>, void>({
      query: () => ({ path: '/guest/logoutEverywhere', body: {}, auth: true }),
    }),
  }),
});

export const { useGuestReadSessionsQuery, useGuestLogoutSessionMutation, useGuestLogoutEverywhereMutation } = sessionsApi;

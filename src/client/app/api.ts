import { createApi } from '@reduxjs/toolkit/query/react';
import type { Guest } from '../../shared/api/guest.ts';
import { i18n } from '../i18n.ts';
import { envelopeBaseQuery } from './baseQuery.ts';

/**
 * The one API of the client. Features add their calls with
 * `api.injectEndpoints` (docs/client.md); the shell defines the session calls
 * it needs itself (sign-in state, logout, error reports). An endpoint's
 * result is the whole answer (`{api, guest}`, `{api, reservations}`…).
 *
 * Tags: 'Guest', 'Reservation'.
 */
export const api = createApi({
  reducerPath: 'api',
  baseQuery: envelopeBaseQuery({ translate: (key) => i18n.t(key, { ns: 'common' }) }),
  tagTypes: ['Guest', 'Reservation'],
  endpoints: (build) => ({
    /** `/guest/authenticate`: sign in by username or e-mail; the guest slice keeps the session. */
    guestAuthenticate: build.mutation<{ guest: Guest }, { title: string; password: string }>({
      query: (guest) => ({ path: '/guest/authenticate', body: { guest } }),
      invalidatesTags: ['Guest', 'Reservation'],
    }),
    /** `/guest/authenticateAsLimFacilitator`. */
    guestAuthenticateAsLimFacilitator: build.mutation<{ guest: Guest }, { guestId: number | string; token: string }>({
      query: ({ guestId, token }) => ({
        path: '/guest/authenticateAsLimFacilitator',
        body: { guest: { id: guestId }, facilitator: { token } },
      }),
      invalidatesTags: ['Guest', 'Reservation'],
    }),
    /** `/guest/read`: the signed-in guest. */
    guestRead: build.query<{ guest: Guest }, void>({
      query: () => ({ path: '/guest/read', body: {}, auth: true }),
      providesTags: ['Guest'],
    }),
    /** `/guest/logout`: ends the session on the server (the shell's `logout` also forgets it here). */
    guestLogout: build.mutation<Record<string, unknown>, void>({
      query: () => ({ path: '/guest/logout', body: {}, auth: true, silent: true }),
    }),
    /** `/errorLog/create`: fire and forget. */
    errorLogCreate: build.mutation<Record<string, unknown>, { text: string }>({
      query: ({ text }) => ({ path: '/errorLog/create', body: { errorLog: text.slice(0, 10_000) }, auth: true, silent: true }),
    }),
  }),
});

import { createApi, type TypedMutationOnQueryStarted } from '@reduxjs/toolkit/query/react';
import type { Guest } from '../../shared/api/guest.ts';
import type { Language } from '../../shared/constants.ts';
import { i18n } from '../i18n.ts';
import { envelopeBaseQuery, type EnvelopeBaseQuery } from './baseQuery.ts';
import { API_REDUCER_PATH } from './slices/session.ts';
import { attachApi } from './storeRoot.ts';

/**
 * `onQueryStarted` of every call that answers the guest (sign-up and sign-in,
 * update, the plan and card calls): the answer replaces the guest read, so
 * that screens show it at once. The session's token is not the guest's: it
 * stays in the session slice, which only a new session changes (docs/client.md, State:
 * guest reads keep the token).
 */
export const cacheAnsweredGuest: TypedMutationOnQueryStarted<{ guest: Guest }, unknown, EnvelopeBaseQuery, typeof API_REDUCER_PATH> = async (
  _arg,
  { dispatch, queryFulfilled },
) => {
  const answer = await answerOf(queryFulfilled);
  if (answer !== undefined) await dispatch(api.util.upsertQueryData('guestRead', undefined, { guest: answer.guest }));
};

/**
 * The one API of the client, and the one home of the client's server state
 * (docs/client.md, "State"). Features add their calls with
 * `api.injectEndpoints`; the shell defines the session calls itself (sign-up,
 * sign-in, the guest, logout, error reports), since the session slice starts
 * a session from their answers. An endpoint's result is the whole answer
 * (`{api, guest}`, `{api, reservations}`…).
 *
 * Tags: 'Guest', 'Reservation'.
 */
export const api = createApi({
  reducerPath: API_REDUCER_PATH,
  baseQuery: envelopeBaseQuery({ translate: (key) => i18n.t(key, { ns: 'common' }) }),
  tagTypes: ['Guest', 'Reservation'],
  // Back online, every query a screen shows is asked again (the store's listeners: app/start.tsx).
  refetchOnReconnect: true,
  endpoints: (build) => ({
    /** `/guest/create`: sign-up; the answer's guest carries the new session's token. */
    guestCreate: build.mutation<{ guest: Guest }, { title: string; email: string; password: string; timezone: number; language: Language }>({
      query: (guest) => ({ path: '/guest/create', body: { guest }, refusalsBesideFields: true }),
      invalidatesTags: ['Guest', 'Reservation'],
      onQueryStarted: cacheAnsweredGuest,
    }),
    /** `/guest/authenticate`: sign in by username or e-mail; the session slice keeps the session. */
    guestAuthenticate: build.mutation<{ guest: Guest }, { title: string; password: string }>({
      query: (guest) => ({ path: '/guest/authenticate', body: { guest }, refusalsBesideFields: true }),
      invalidatesTags: ['Guest', 'Reservation'],
      onQueryStarted: cacheAnsweredGuest,
    }),
    /** `/guest/authenticateAsLimFacilitator`. */
    guestAuthenticateAsLimFacilitator: build.mutation<{ guest: Guest }, { guestId: number | string; token: string }>({
      query: ({ guestId, token }) => ({
        path: '/guest/authenticateAsLimFacilitator',
        body: { guest: { id: guestId }, facilitator: { token } },
      }),
      invalidatesTags: ['Guest', 'Reservation'],
      onQueryStarted: cacheAnsweredGuest,
    }),
    /** `/guest/read`: the signed-in guest. Its cache entry is the client's copy of the guest. */
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
      query: ({ text }) => ({ path: '/errorLog/create', body: { errorLog: text.slice(0, 10_000) }, auth: 'if-signed-in', silent: true }),
    }),
  }),
});

// Every store (the page's, and the tests') gets the API's reducer and middleware once this module is loaded.
attachApi(api);

/**
 * `invalidatesTags` of a call that changes the guest: only an answer
 * refreshes it. A failed call invalidating it would start a re-read of the
 * guest on screen, and a call starting clears the banner that shows the failure.
 */
export function guestChanged(result: unknown): 'Guest'[] {
  return result === undefined ? [] : ['Guest'];
}

/** A call's answer in `onQueryStarted`, or undefined when it failed: a failed call changes no cache (its form or the network banner says why). */
export async function answerOf<T>(queryFulfilled: Promise<{ data: T }>): Promise<T | undefined> {
  try {
    return (await queryFulfilled).data;
  } catch {
    return undefined;
  }
}

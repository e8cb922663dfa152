import { api, cacheAnsweredGuest, guestChanged } from '../../app/api.ts';
import type { Guest } from '../../../shared/api/guest.ts';

/** The account calls (docs/api.md); endpoint names as docs/client.md fixes them. Sign-up and sign-in are the shell's (app/api.ts). */
export const accountApi = api.injectEndpoints({
  endpoints: (build) => ({
    guestUpdate: build.mutation<
      { guest: Guest },
      Partial<Pick<Guest, 'title' | 'email' | 'phone' | 'language' | 'webhookEnabled' | 'triggerEnabled' | 'triggerMethod' | 'triggerUrl' | 'triggerBody'>> & {
        phoneCode?: string;
        /** Needed with a new `email`. */
        currentPassword?: string;
      }
    >({
      query: (guest) => ({ path: '/guest/update', body: { guest }, auth: true, refusalsBesideFields: true }),
      invalidatesTags: guestChanged,
      onQueryStarted: cacheAnsweredGuest,
    }),
    guestRequestPhoneCode: build.mutation<{ phoneCode: string }, { phone: string }>({
      query: ({ phone }) => ({ path: '/guest/requestPhoneCode', body: { guest: { phone } }, auth: true, refusalsBesideFields: true }),
    }),
    guestVerifyEmail: build.mutation<Record<string, unknown>, { token: string }>({
      query: ({ token }) => ({ path: '/guest/verifyEmail', body: { guest: { token } } }),
      invalidatesTags: guestChanged,
    }),
    guestUpdatePasswordEmail: build.mutation<Record<string, unknown>, { email: string }>({
      query: ({ email }) => ({ path: '/guest/updatePasswordEmail', body: { guest: { email } }, refusalsBesideFields: true }),
    }),
    guestUpdatePassword: build.mutation<Record<string, unknown>, { token: string; password: string }>({
      query: ({ token, password }) => ({ path: '/guest/updatePassword', body: { guest: { token, password } }, refusalsBesideFields: true }),
    }),
    guestTakeBack: build.mutation<Record<string, unknown>, { token: string; password: string }>({
      query: ({ token, password }) => ({ path: '/guest/takeBack', body: { guest: { token, password } }, refusalsBesideFields: true }),
    }),
    guestCancelEmailChange: build.mutation<{ guest: Guest }, void>({
      query: () => ({ path: '/guest/cancelEmailChange', body: {}, auth: true }),
      invalidatesTags: guestChanged,
      onQueryStarted: cacheAnsweredGuest,
    }),
  }),
});

export const {
  useGuestUpdateMutation,
  useGuestRequestPhoneCodeMutation,
  useGuestVerifyEmailMutation,
  useGuestUpdatePasswordEmailMutation,
  useGuestUpdatePasswordMutation,
  useGuestTakeBackMutation,
  useGuestCancelEmailChangeMutation,
} = accountApi;
export const { useGuestCreateMutation, useGuestAuthenticateMutation, useGuestAuthenticateAsLimFacilitatorMutation, useGuestReadQuery } = api;

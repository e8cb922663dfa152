import { api } from '../../app/api.ts';

/** The calls of "Your data" (docs/api.md, `/guest/export` and `/guest/delete`). */
export const privacyApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** `/guest/export`: saves the archive to the browser's downloads; answers its file name. */
    guestExport: build.mutation<{ fileName: string }, void>({
      query: () => ({ path: '/guest/export', body: {}, auth: true, download: true }),
    }),
    /**
     * `/guest/delete` with the account's password: the account is deleted and
     * every session ends; the screen then forgets the session on this device
     * (`forgetDeletedAccount`). A failure is shown by the network banner.
     */
    guestDelete: build.mutation<Record<string, unknown>, { password: string }>({
      query: ({ password }) => ({ path: '/guest/delete', body: { password }, auth: true }),
    }),
    /**
     * `/guest/delete` with `passwordCheckOnly`: the form's first step, which
     * deletes nothing. Silent, since whatever stops it (a wrong password, too
     * many tries, no internet) is said beside the password field.
     */
    guestDeletePasswordCheck: build.mutation<Record<string, unknown>, { password: string }>({
      query: ({ password }) => ({ path: '/guest/delete', body: { password, passwordCheckOnly: true }, auth: true, silent: true }),
    }),
  }),
});

export const { useGuestExportMutation, useGuestDeleteMutation, useGuestDeletePasswordCheckMutation } = privacyApi;

import { api } from '../../app/api.ts';
import type { Reservation } from '../../../shared/api/reservation.ts';

/**
 * The reservation list's calls (docs/api.md); endpoint names as docs/client.md
 * fixes them. The list is the `reservationReadList` cache entry, and the data
 * rules keep it in step with every write (bookingApi.ts): read list replaces
 * it, create appends, read one, update and skip replace or add by id, destroy
 * removes. (The writes also invalidate the list, which is then read again.)
 * The calls on one booking live apart, so that the guest's home, which makes
 * none of them, loads without them.
 */
export const reservationApi = api.injectEndpoints({
  endpoints: (build) => ({
    reservationReadList: build.query<{ reservations: Reservation[] }, void>({
      query: () => ({ path: '/reservation/read_list', body: {}, auth: true }),
      providesTags: ['Reservation'],
    }),
    guestResendVerifyEmail: build.mutation<Record<string, unknown>, void>({
      query: () => ({ path: '/guest/resendVerifyEmail', body: {}, auth: true }),
    }),
  }),
});

export const { useReservationReadListQuery, useGuestResendVerifyEmailMutation } = reservationApi;

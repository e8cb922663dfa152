import type { Reservation, ReservationTryRequest } from '../../../shared/api/reservation.ts';
import { api } from '../../app/api.ts';

/** `/reservation/try` (docs/api.md): a trial jail that starts now. */
export const tryAnywayApi = api.injectEndpoints({
  endpoints: (build) => ({
    reservationTry: build.mutation<{ reservation: Reservation }, ReservationTryRequest['reservation']>({
      query: (reservation) => ({ path: '/reservation/try', body: { reservation }, auth: true }),
      invalidatesTags: ['Reservation'],
    }),
  }),
});

export const { useReservationTryMutation } = tryAnywayApi;

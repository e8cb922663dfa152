import { api } from '../../app/api.ts';
import type { Reservation, ReservationCreateRequest, ReservationUpdateRequest } from '../../../shared/api/reservation.ts';

/** The reservation calls (docs/api.md); endpoint names as docs/client.md fixes them. */
export const reservationApi = api.injectEndpoints({
  endpoints: (build) => ({
    reservationReadList: build.query<{ reservations: Reservation[] }, void>({
      query: () => ({ path: '/reservation/read_list', body: {}, auth: true }),
      providesTags: ['Reservation'],
    }),
    reservationRead: build.mutation<{ reservation: Reservation }, { id: number }>({
      query: ({ id }) => ({ path: '/reservation/read', body: { reservation: { id } }, auth: true }),
    }),
    reservationCreate: build.mutation<{ reservation: Reservation }, ReservationCreateRequest['reservation']>({
      query: (reservation) => ({ path: '/reservation/create', body: { reservation }, auth: true }),
      invalidatesTags: ['Reservation'],
    }),
    reservationUpdate: build.mutation<{ reservation: Reservation }, ReservationUpdateRequest['reservation']>({
      query: (reservation) => ({ path: '/reservation/update', body: { reservation }, auth: true }),
      invalidatesTags: ['Reservation'],
    }),
    reservationSkip: build.mutation<{ reservation: Reservation; nextReservation: Reservation }, { id: number }>({
      query: ({ id }) => ({ path: '/reservation/skip', body: { reservation: { id } }, auth: true }),
      invalidatesTags: ['Reservation'],
    }),
    reservationDestroy: build.mutation<{ reservation: Reservation }, { id: number }>({
      query: ({ id }) => ({ path: '/reservation/destroy', body: { reservation: { id } }, auth: true }),
      invalidatesTags: ['Reservation'],
    }),
    guestResendVerifyEmail: build.mutation<Record<string, unknown>, void>({
      query: () => ({ path: '/guest/resendVerifyEmail', body: {}, auth: true }),
    }),
  }),
});

export const {
  useReservationReadListQuery,
  useReservationReadMutation,
  useReservationCreateMutation,
  useReservationUpdateMutation,
  useReservationSkipMutation,
  useReservationDestroyMutation,
  useGuestResendVerifyEmailMutation,
} = reservationApi;

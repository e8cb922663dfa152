import { answerOf } from '../../app/api.ts';
import type { Reservation, ReservationCreateRequest, ReservationUpdateRequest } from '../../../shared/api/reservation.ts';
import { reservationApi } from './api.ts';

/**
 * The calls on one booking (docs/api.md): read, create, update, skip and
 * destroy, each keeping the list read in step (api.ts). Endpoint names as
 * docs/client.md fixes them.
 */
export const bookingApi = reservationApi.injectEndpoints({
  endpoints: (build) => ({
    reservationRead: build.mutation<{ reservation: Reservation }, { id: number }>({
      query: ({ id }) => ({ path: '/reservation/read', body: { reservation: { id } }, auth: true }),
      onQueryStarted: inStepWithList((list, answer) => upsert(list, answer.reservation)),
    }),
    reservationCreate: build.mutation<{ reservation: Reservation }, ReservationCreateRequest['reservation']>({
      query: (reservation) => ({ path: '/reservation/create', body: { reservation }, auth: true, refusalsBesideFields: true }),
      invalidatesTags: ['Reservation'],
      onQueryStarted: inStepWithList((list, answer) => void list.push(answer.reservation)),
    }),
    reservationUpdate: build.mutation<{ reservation: Reservation }, ReservationUpdateRequest['reservation']>({
      query: (reservation) => ({ path: '/reservation/update', body: { reservation }, auth: true, refusalsBesideFields: true }),
      invalidatesTags: ['Reservation'],
      onQueryStarted: inStepWithList((list, answer) => upsert(list, answer.reservation)),
    }),
    reservationSkip: build.mutation<{ reservation: Reservation; nextReservation: Reservation }, { id: number }>({
      query: ({ id }) => ({ path: '/reservation/skip', body: { reservation: { id } }, auth: true }),
      invalidatesTags: ['Reservation'],
      onQueryStarted: inStepWithList((list, answer) => {
        upsert(list, answer.reservation);
        upsert(list, answer.nextReservation);
      }),
    }),
    reservationDestroy: build.mutation<{ reservation: Reservation }, { id: number }>({
      query: ({ id }) => ({ path: '/reservation/destroy', body: { reservation: { id } }, auth: true }),
      invalidatesTags: ['Reservation'],
      onQueryStarted: inStepWithList((list, answer) => {
        const index = list.findIndex((item) => item.id === answer.reservation.id);
        if (index !== -1) list.splice(index, 1);
      }),
    }),
  }),
});

/** Applies `change` to the list read, when it has been read (a list not read yet is read whole when a screen needs it). */
function updateList(change: (list: Reservation[]) => void) {
  return reservationApi.util.updateQueryData('reservationReadList', undefined, (draft) => change(draft.reservations));
}

/** A call's `onQueryStarted` that applies its answer to the list read (`updateList`); a failed call changes nothing. */
function inStepWithList<Answer>(change: (list: Reservation[], answer: Answer) => void) {
  return async (
    _arg: unknown,
    { dispatch, queryFulfilled }: { dispatch: (update: ReturnType<typeof updateList>) => unknown; queryFulfilled: Promise<{ data: Answer }> },
  ) => {
    const answer = await answerOf(queryFulfilled);
    if (answer !== undefined) dispatch(updateList((list) => change(list, answer)));
  };
}

/** Replaces the reservation with the same id, or adds it. */
function upsert(list: Reservation[], reservation: Reservation): void {
  const index = list.findIndex((item) => item.id === reservation.id);
  if (index === -1) list.push(reservation);
  else list[index] = reservation;
}

export const {
  useReservationReadMutation,
  useReservationCreateMutation,
  useReservationUpdateMutation,
  useReservationSkipMutation,
  useReservationDestroyMutation,
} = bookingApi;

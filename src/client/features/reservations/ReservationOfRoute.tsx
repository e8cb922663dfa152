import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import type { Reservation } from '../../../shared/api/reservation.ts';
import { useReservationReadListQuery } from './api.ts';

/**
 * The reservation that the route's `:id` names, from the list (read again
 * on entry), for /reservation/:id, /reservation/edit/:id and
 * /reservation/remove/:id.
 */
export function useReservationOfRoute(): { id: number; reservation: Reservation | null; isFetching: boolean; isRead: boolean } {
  const id = Number(useParams().id);
  const { data, isFetching, isSuccess } = useReservationReadListQuery();
  const reservation = data?.reservations.find((item) => item.id === id) ?? null;
  // `isRead`: the list has come from the server since the screen opened (a missing reservation is really missing).
  return { id, reservation, isFetching, isRead: isSuccess && !isFetching };
}

/** What a reservation screen shows until its reservation is there: loading, or not found once the list has come. */
export function ReservationPending({ title, isFetching }: { title: string; isFetching: boolean }) {
  const { t } = useTranslation('reservations');
  return (
    <div className="screen reservations-screen">
      <h1>{title}</h1>
      <p role={isFetching ? 'status' : 'alert'}>{isFetching ? t('loading') : t('not_found')}</p>
    </div>
  );
}

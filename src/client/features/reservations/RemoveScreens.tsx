import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { isChangeAllowed } from '../../../shared/reservations.ts';
import { useReservationDestroyMutation } from './api.ts';
import { ReservationPending, useReservationOfRoute } from './ReservationOfRoute.tsx';
import { dateWithWeekday, timeRange, useLanguage, useTimeZone } from './common.ts';

/** `/reservation/remove/:id`: the cancel confirmation (docs/client.md, Screens and routes). */
export function ReservationRemoveScreen() {
  const { t } = useTranslation('reservations');
  const navigate = useNavigate();
  const language = useLanguage();
  const timeZone = useTimeZone();
  const { id, reservation, isFetching } = useReservationOfRoute();
  const [destroy] = useReservationDestroyMutation();
  const [now] = useState(() => Date.now());
  const [problem, setProblem] = useState(false);
  if (reservation === null) return <ReservationPending title={t('remove_title')} isFetching={isFetching} />;
  const allowed = isChangeAllowed(reservation.startTime, now) && !reservation.isFinished;
  const cancel = () => {
    if (!isChangeAllowed(reservation.startTime, Date.now())) {
      setProblem(true);
      return;
    }
    destroy({ id })
      .unwrap()
      .then(() => void navigate('/reservation/removed'))
      .catch(() => undefined);
  };
  return (
    <div className="reservations-screen">
      <h1>{t('remove_title')}</h1>
      <p>{t('remove_confirm')}</p>
      <dl className="detail">
        <dt>{t('date')}</dt>
        <dd>{dateWithWeekday(reservation.startTime, timeZone, language)}</dd>
        <dt>{t('time')}</dt>
        <dd>{timeRange(reservation.startTime, reservation.endTime, timeZone)}</dd>
        <dt>{t('work')}</dt>
        <dd>{reservation.work === '' ? t('no_work') : reservation.work}</dd>
      </dl>
      {reservation.repeatType !== 'none' ? <p className="note">{t('remove_repeat_note')}</p> : null}
      {allowed ? (
        <button type="button" className="button danger" onClick={cancel}>
          {t('remove_button')}
        </button>
      ) : (
        <p role="alert">{t('no_change_6h')}</p>
      )}
      {problem ? <p role="alert">{t('no_change_6h')}</p> : null}
    </div>
  );
}

/** `/reservation/removed`. */
export function ReservationRemovedScreen() {
  const { t } = useTranslation('reservations');
  return (
    <div className="reservations-screen">
      <h1>{t('removed_title')}</h1>
      <p>{t('removed_text')}</p>
      <Link className="button" to="/reservations">
        {t('back_to_list')}
      </Link>
    </div>
  );
}

/** `/reservation/added`: explanation and the link to the rules. */
export function ReservationAddedScreen() {
  const { t } = useTranslation('reservations');
  return (
    <div className="reservations-screen">
      <h1>{t('added_title')}</h1>
      <p>{t('added_text')}</p>
      <Link className="button" to="/rules">
        {t('see_rules')}
      </Link>{' '}
      <Link className="button secondary" to="/reservations">
        {t('back_to_list')}
      </Link>
    </div>
  );
}

/** `/reservation/edited/:id`: 'changes saved' and the way back. */
export function ReservationEditedScreen() {
  const { t } = useTranslation('reservations');
  const id = useParams().id ?? '';
  return (
    <div className="reservations-screen">
      <h1>{t('edited_title')}</h1>
      <Link className="button" to={`/reservation/${id}`}>
        {t('back_to_detail')}
      </Link>
    </div>
  );
}

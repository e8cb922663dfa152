import ArrowLeft from 'lucide-react/icons/arrow-left';
import BookOpen from 'lucide-react/icons/book-open';
import CalendarCheck from 'lucide-react/icons/calendar-check';
import CalendarX from 'lucide-react/icons/calendar-x';
import CircleCheck from 'lucide-react/icons/circle-check';
import List from 'lucide-react/icons/list';
import Trash2 from 'lucide-react/icons/trash-2';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ReminderOffer } from '../reminders/ReminderOffer.tsx';
import { useNavigate, useParams } from 'react-router-dom';
import { Button, ButtonLink } from '../../ui/Button.tsx';
import { isChangeAllowed } from '../../../shared/reservations.ts';
import { useReservationDestroyMutation } from './bookingApi.ts';
import { ReservationPending, useReservationOfRoute } from './ReservationOfRoute.tsx';
import { dateWithWeekday, timeRange, useLanguage, useTimeZone } from './common.ts';

/** `/reservation/remove/:id`: the cancel confirmation (docs/client.md, Screens and routes). */
export function ReservationRemoveScreen() {
  const { t } = useTranslation(['reservations', 'reservations/list']);
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
    <div className="screen reservations-screen">
      <h1>{t('remove_title')}</h1>
      <p>{t('remove_confirm')}</p>
      <dl className="detail detail-card">
        <dt>{t('date')}</dt>
        <dd>{dateWithWeekday(reservation.startTime, timeZone, language)}</dd>
        <dt>{t('time')}</dt>
        <dd>{timeRange(reservation.startTime, reservation.endTime, timeZone)}</dd>
        <dt>{t('work')}</dt>
        <dd>{reservation.work === '' ? t('reservations/list:no_work') : reservation.work}</dd>
      </dl>
      {reservation.repeatType !== 'none' ? <p className="note">{t('remove_repeat_note')}</p> : null}
      {allowed ? (
        <div className="detail-actions">
          <Button variant="danger" icon={Trash2} onClick={cancel}>
            {t('remove_button')}
          </Button>
          <ButtonLink variant="secondary" icon={ArrowLeft} to={`/reservation/${id}`}>
            {t('remove_keep')}
          </ButtonLink>
        </div>
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
    <div className="screen reservations-screen reservation-done">
      <span className="icon-badge" aria-hidden="true">
        <CalendarX size={40} strokeWidth={1.75} focusable="false" />
      </span>
      <h1>{t('removed_title')}</h1>
      <p>{t('removed_text')}</p>
      <div className="detail-actions">
        <ButtonLink icon={List} to="/reservations">
          {t('back_to_list')}
        </ButtonLink>
      </div>
    </div>
  );
}

/** `/reservation/added`: explanation and the link to the rules. */
export function ReservationAddedScreen() {
  const { t } = useTranslation('reservations');
  return (
    <div className="screen reservations-screen reservation-done">
      <span className="icon-badge" aria-hidden="true">
        <CalendarCheck size={40} strokeWidth={1.75} focusable="false" />
      </span>
      <h1>{t('added_title')}</h1>
      <p>{t('added_text')}</p>
      <ReminderOffer />
      <div className="detail-actions">
        <ButtonLink icon={BookOpen} to="/rules">
          {t('see_rules')}
        </ButtonLink>
        <ButtonLink variant="secondary" icon={List} to="/reservations">
          {t('back_to_list')}
        </ButtonLink>
      </div>
    </div>
  );
}

/** `/reservation/edited/:id`: 'changes saved' and the way back. */
export function ReservationEditedScreen() {
  const { t } = useTranslation('reservations');
  const id = useParams().id ?? '';
  return (
    <div className="screen reservations-screen reservation-done">
      <span className="icon-badge" aria-hidden="true">
        <CircleCheck size={40} strokeWidth={1.75} focusable="false" />
      </span>
      <h1>{t('edited_title')}</h1>
      <div className="detail-actions">
        <ButtonLink icon={ArrowLeft} to={`/reservation/${id}`}>
          {t('back_to_detail')}
        </ButtonLink>
      </div>
    </div>
  );
}

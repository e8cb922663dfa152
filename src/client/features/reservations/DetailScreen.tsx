import CalendarArrowDown from 'lucide-react/icons/calendar-arrow-down';
import Clock from 'lucide-react/icons/clock';
import ListChecks from 'lucide-react/icons/list-checks';
import Lock from 'lucide-react/icons/lock';
import NotebookPen from 'lucide-react/icons/notebook-pen';
import Pencil from 'lucide-react/icons/pencil';
import Repeat from 'lucide-react/icons/repeat';
import ScanFace from 'lucide-react/icons/scan-face';
import SkipForward from 'lucide-react/icons/skip-forward';
import Timer from 'lucide-react/icons/timer';
import Trash2 from 'lucide-react/icons/trash-2';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { RouterLink } from '../../app/RouterLink.tsx';
import { Button, ButtonLink } from '../../ui/Button.tsx';
import { Sheet } from '../../ui/Sheet.tsx';
import type { Reservation } from '../../../shared/api/reservation.ts';
import { changeCutoff } from '../../../shared/reservations.ts';
import { toLocal } from '../../../shared/time-zone.ts';
import { browserVoice } from '../../app/speech.ts';
import { Report } from '../report/Report.tsx';
import { downloadFile, jailEventFile } from './add-to-calendar.ts';
import { useReservationSkipMutation } from './bookingApi.ts';
import { lastPausedDay, PauseRepeats } from './list/Pauses.tsx';
import { ReservationPending, useReservationOfRoute } from './ReservationOfRoute.tsx';
import { clockOf, dateWithWeekday, timeRange, useLanguage, useNow, useTimeZone, weekdayName } from './common.ts';
import { planOf } from './plan.ts';
import { detailActions } from './reservation-view.ts';
import type { SkippedState } from './list/skipped.ts';

/** Delay between saying 'go' and opening the live session. */
const GO_LIVE_DELAY_MS = 500;

export function repeatInfo(
  reservation: Pick<Reservation, 'repeatType' | 'dailyRepeatSettings' | 'startTime'>,
  weekday: number,
  language: string,
  t: (key: string, options?: Record<string, unknown>) => string,
): string {
  if (reservation.repeatType === 'weekly') return t('repeat_info_weekly', { weekday: weekdayName(weekday, language, 'long') });
  if (reservation.repeatType === 'daily') {
    const separator = language === 'ja' ? '・' : ', ';
    return t('repeat_info_daily', { weekdays: reservation.dailyRepeatSettings.map((day) => weekdayName(day, language)).join(separator) });
  }
  return t('repeat_info_none');
}

/** `/reservation/:id` (docs/client.md, Screens and routes). */
export function ReservationDetailScreen() {
  const { t } = useTranslation(['reservations', 'reservations/list']);
  const navigate = useNavigate();
  const language = useLanguage();
  const timeZone = useTimeZone();
  const now = useNow(1000);
  const { id, reservation, isFetching } = useReservationOfRoute();
  const [skip] = useReservationSkipMutation();
  const [refused, setRefused] = useState(false);
  const [confirmingSkip, setConfirmingSkip] = useState(false);

  if (reservation === null) return <ReservationPending title={t('detail_title')} isFetching={isFetching} />;
  const actions = detailActions(reservation, now);
  // Inside the 6 hours the buttons stay where the guest expects them; a tap says why nothing happens.
  const changesClosed = actions.state === 'upcoming' && !actions.canEdit;
  const refuse = () => setRefused(true);
  const date = dateWithWeekday(reservation.startTime, timeZone, language);
  const onSkip = () => {
    setConfirmingSkip(false);
    // The skipped time is finished and the next is a jail of its own: the list shows it, and says what was skipped.
    const skipped: SkippedState = { skipped: t('skip_done', { date, time: timeRange(reservation.startTime, reservation.endTime, timeZone) }) };
    skip({ id })
      .unwrap()
      .then(() => void navigate('/reservations', { state: skipped }))
      .catch(() => undefined);
  };
  const plan = planOf(reservation);
  const goLive = () => {
    // 'go' is spoken where the browser can; going live does not wait for it.
    void browserVoice().speak('go', language);
    setTimeout(() => void navigate(`/jail/live/${id}`), GO_LIVE_DELAY_MS);
  };
  return (
    <div className="screen reservations-screen">
      <h1>{date}</h1>
      <dl className="detail detail-card">
        <dt>
          <Clock aria-hidden="true" focusable="false" size={18} />
          {t('time')}
        </dt>
        <dd>{timeRange(reservation.startTime, reservation.endTime, timeZone)}</dd>
        <dt>
          <Repeat aria-hidden="true" focusable="false" size={18} />
          {t('repeat')}
        </dt>
        <dd>{repeatInfo(reservation, toLocal(reservation.startTime, timeZone).weekday, language, t)}</dd>
        <dt>
          <NotebookPen aria-hidden="true" focusable="false" size={18} />
          {t('work')}
        </dt>
        <dd>{reservation.work === '' ? t('reservations/list:no_work') : reservation.work}</dd>
        {plan.length === 0 ? null : (
          <>
            <dt>
              <ListChecks aria-hidden="true" focusable="false" size={18} />
              {t('plan')}
            </dt>
            <dd>
              <ol className="detail-plan">
                {plan.map((step) => (
                  <li key={step.number}>
                    <span className="detail-plan-time">{t('plan_at', { time: clockOf(step.at, timeZone), minutes: step.minutes })}</span> {step.title}
                  </li>
                ))}
              </ol>
            </dd>
          </>
        )}
      </dl>
      {changesClosed ? (
        <p className="detail-closed">
          <Lock aria-hidden="true" focusable="false" size={18} />
          {t('changes_closed_note')}
        </p>
      ) : null}
      {actions.state === 'upcoming' && actions.canEdit ? (
        <p className="detail-open-note">
          {t('changes_open_note', {
            time: `${dateWithWeekday(changeCutoff(reservation.startTime), timeZone, language)} ${clockOf(changeCutoff(reservation.startTime), timeZone)}`,
          })}
        </p>
      ) : null}
      {actions.state === 'upcoming' ? (
        <div className="detail-actions">
          {changesClosed ? (
            <>
              <Button variant="secondary" className="is-closed" aria-disabled="true" icon={Pencil} onClick={refuse}>
                {t('edit')}
              </Button>
              <Button variant="secondary" className="is-closed" aria-disabled="true" icon={Trash2} onClick={refuse}>
                {t('cancel')}
              </Button>
            </>
          ) : (
            <>
              <ButtonLink icon={Pencil} to={`/reservation/edit/${id}`}>
                {t('edit')}
              </ButtonLink>
              <ButtonLink variant="danger" icon={Trash2} to={`/reservation/remove/${id}`}>
                {t('cancel')}
              </ButtonLink>
            </>
          )}
          {actions.showSkip ? (
            <Button
              variant="secondary"
              className={actions.canSkip ? undefined : 'is-closed'}
              aria-disabled={actions.canSkip ? undefined : 'true'}
              icon={SkipForward}
              onClick={actions.canSkip ? () => setConfirmingSkip(true) : refuse}
            >
              {t('skip')}
            </Button>
          ) : null}
        </div>
      ) : null}
      <div role="alert" className="detail-refused">
        {refused && changesClosed ? <p>{t('no_change_6h')}</p> : null}
      </div>
      <Sheet open={confirmingSkip} title={t('skip_confirm_title', { date })} closeLabel={t('close')} onClose={() => setConfirmingSkip(false)}>
        <p>{t('skip_confirm_text')}</p>
        <div className="detail-actions">
          <Button icon={SkipForward} onClick={onSkip}>
            {t('skip_confirm_button')}
          </Button>
          <Button variant="secondary" onClick={() => setConfirmingSkip(false)}>
            {t('skip_keep')}
          </Button>
        </div>
      </Sheet>
      {actions.state === 'upcoming' && reservation.repeatType !== 'none' ? (
        <div className="pause-section">
          {reservation.pausedUntil === null ? null : (
            <p className="pause-banner">{t('reservations/list:paused_until', { date: lastPausedDay(reservation.pausedUntil, timeZone, language) })}</p>
          )}
          <PauseRepeats />
        </div>
      ) : null}
      {actions.canEnterJail ? (
        <div className="detail-actions">
          <ButtonLink variant="secondary" icon={ScanFace} to={`/jail/prep/${id}`}>
            {t('go_prep')}
          </ButtonLink>
          <Button icon={Timer} onClick={goLive}>
            {t('go_live')}
          </Button>
        </div>
      ) : null}
      {actions.state === 'over' ? null : (
        <div className="detail-calendar">
          <Button
            variant="ghost"
            icon={CalendarArrowDown}
            onClick={() => downloadFile(jailEventFile(reservation, timeZone, language, window.location.origin, Date.now()), 'text/calendar')}
          >
            {t('add_to_calendar')}
          </Button>
          {reservation.repeatType === 'none' ? null : (
            <p>
              {t('add_to_calendar_one')} <RouterLink to="/reminders">{t('add_to_calendar_all')}</RouterLink>
            </p>
          )}
        </div>
      )}
      {actions.showReport ? <Report reservation={reservation} timeZone={timeZone} /> : null}
    </div>
  );
}

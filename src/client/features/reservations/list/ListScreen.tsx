import ChevronDown from 'lucide-react/icons/chevron-down';
import ChevronRight from 'lucide-react/icons/chevron-right';
import ChevronUp from 'lucide-react/icons/chevron-up';
import Clock from 'lucide-react/icons/clock';
import Hourglass from 'lucide-react/icons/hourglass';
import Mail from 'lucide-react/icons/mail';
import Plus from 'lucide-react/icons/plus';
import RefreshCw from 'lucide-react/icons/refresh-cw';
import Repeat from 'lucide-react/icons/repeat';
import SkipForward from 'lucide-react/icons/skip-forward';
import ScanFace from 'lucide-react/icons/scan-face';
import Timer from 'lucide-react/icons/timer';
import { useCallback, useDeferredValue, useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { UnsupportedNotice } from '../../../app/UnsupportedNotice.tsx';
import { RouterLink } from '../../../app/RouterLink.tsx';
import { Button, ButtonLink } from '../../../ui/Button.tsx';
import type { Reservation } from '../../../../shared/api/reservation.ts';
import { formatDateTime, systemTimeZone, toLocal } from '../../../../shared/time-zone.ts';
import { useReservationReadListQuery, useGuestResendVerifyEmailMutation } from '../api.ts';
import { dateWithWeekday, timeRange, useLanguage, useNow, useTimeZone, weekdayName } from '../common.ts';
import {
  historyOutcome,
  isSupportedEnvironment,
  lazyAlertBanner,
  listMode,
  platformOf,
  reservationTimeState,
  splitReservations,
  startsIn,
  trialBanner,
} from '../reservation-view.ts';
import { useGuest } from '../../../app/session.ts';
import { loadJailStatus } from '../../jail/jail-status-store.ts';
import { useIsLoggedIn } from '../../../app/hooks.ts';
import { TryOffer } from '../../tryAnyway/TryOffer.tsx';
import { LIST_NAMESPACES } from './listTexts.ts';
import { skippedOf } from './skipped.ts';
import { Toast } from '../../../ui/Toast.tsx';
import { lastPausedDay, PauseSection } from './Pauses.tsx';
import '../reservations.css';

/** The weekdays a repeating jail comes back on: its own for weekly, the chosen ones for daily. */
function repeatDays(reservation: Pick<Reservation, 'repeatType' | 'dailyRepeatSettings' | 'startTime'>, timeZone: string, language: string): string {
  const days = reservation.repeatType === 'weekly' ? [toLocal(reservation.startTime, timeZone).weekday] : reservation.dailyRepeatSettings;
  return days.map((day) => weekdayName(day, language)).join(language === 'ja' ? '・' : ', ');
}

/** When this device last had the live screen of `reservationId` open (the jail's kept status), while `live`; null otherwise. */
function useJailScreenSeenAt(reservationId: number, live: boolean): number | null {
  const [seenAt, setSeenAt] = useState<number | null>(null);
  useEffect(() => {
    if (!live) return undefined;
    let current = true;
    void loadJailStatus(reservationId).then((kept) => {
      if (current) setSeenAt(kept?.seenAt ?? null);
    });
    return () => {
      current = false;
    };
  }, [reservationId, live]);
  return live ? seenAt : null;
}

/** The running jail the guest left: since when this device has been away from its screen, ticking, and what that means. */
function AwayFromJail({ seenAt, now }: { seenAt: number; now: number }) {
  const { t } = useTranslation('reservations/list');
  const seconds = Math.max(0, Math.floor((now - seenAt) / 1000));
  return (
    <p className="reservation-away" role="timer">
      {t('away_from_screen', { minutes: Math.floor(seconds / 60), seconds: seconds % 60 })}
    </p>
  );
}

function ReservationItem({ reservation, now, timeZone }: { reservation: Reservation; now: number; timeZone: string }) {
  const { t } = useTranslation('reservations/list');
  const language = useLanguage();
  const mode = listMode(reservation, now, useGuest()?.jailStatus != null);
  const seenAt = useJailScreenSeenAt(reservation.id, mode === 'live');
  const state = reservationTimeState(reservation, now);
  const outcome = state === 'over' ? historyOutcome(reservation) : null;
  const soon = state === 'over' ? null : startsIn(reservation.startTime, now);
  return (
    <li className={`reservation-item ${mode === 'reservation' ? 'ReservationMode' : 'JailMode'}`} data-mode={mode} data-testid="reservation-item">
      <RouterLink className="reservation-link" to={`/reservation/${reservation.id}`}>
        <span className="reservation-text">
          <span className="reservation-date">{dateWithWeekday(reservation.startTime, timeZone, language)}</span>
          <span className="reservation-time">
            <Clock aria-hidden="true" focusable="false" size={16} />
            {timeRange(reservation.startTime, reservation.endTime, timeZone)}
          </span>
          <span className="reservation-work">{reservation.work === '' ? t('no_work') : reservation.work}</span>
          <span className="reservation-badges">
            {mode === 'jail' ? <span className="reservation-badge ready">{t('ready_now')}</span> : null}
            {mode === 'live' ? <span className="reservation-badge live">{t('live_now')}</span> : null}
            {soon !== null && mode !== 'live' ? (
              <span className="reservation-badge soon">
                <Hourglass aria-hidden="true" focusable="false" size={14} />
                {t(`starts_in_${soon.unit}`, { count: soon.count })}
              </span>
            ) : null}
            {outcome !== null ? <span className={`reservation-badge outcome-${outcome}`}>{t(`outcome_${outcome}`)}</span> : null}
            {reservation.pausedUntil !== null && outcome === null ? (
              <span className="reservation-badge paused">{t('paused_until', { date: lastPausedDay(reservation.pausedUntil, timeZone, language) })}</span>
            ) : null}
            {reservation.repeatType !== 'none' && outcome === null ? (
              <span className="reservation-badge">
                <Repeat aria-hidden="true" focusable="false" size={14} />
                {t('repeat_badge', { weekdays: repeatDays(reservation, timeZone, language) })}
              </span>
            ) : null}
          </span>
        </span>
        <ChevronRight className="reservation-chevron" aria-hidden="true" focusable="false" size={20} />
      </RouterLink>
      {mode === 'live' ? (
        <div className="reservation-jail-actions">
          {seenAt === null ? null : <AwayFromJail seenAt={seenAt} now={now} />}
          <ButtonLink icon={Timer} to={`/jail/live/${reservation.id}`}>
            {t('return')}
          </ButtonLink>
        </div>
      ) : null}
      {mode === 'jail' ? (
        <div className="reservation-jail-actions">
          <ButtonLink variant="secondary" icon={ScanFace} to={`/jail/prep/${reservation.id}`}>
            {t('prep')}
          </ButtonLink>
          <ButtonLink icon={Timer} to={`/jail/live/${reservation.id}`}>
            {t('live')}
          </ButtonLink>
        </div>
      ) : null}
    </li>
  );
}

function Unverified() {
  const { t } = useTranslation('reservations/list');
  const [resend, { isSuccess }] = useGuestResendVerifyEmailMutation();
  return (
    <section className="reservation-notice" aria-labelledby="unverified-text">
      <p id="unverified-text">{t('unverified')}</p>
      <div className="reservation-notice-actions">
        <Button icon={RefreshCw} onClick={() => window.location.reload()}>
          {t('reload')}
        </Button>
        <Button variant="secondary" icon={Mail} onClick={() => void resend()}>
          {t('resend')}
        </Button>
      </div>
      {isSuccess ? <p role="status">{t('email_sent')}</p> : null}
    </section>
  );
}

/** One empty list, so that a list not read yet does not change at every render. */
const NO_RESERVATIONS: Reservation[] = [];

/** `/reservations` (docs/client.md, Screens and routes). */
export function ReservationListScreen() {
  const { t } = useTranslation(LIST_NAMESPACES);
  const now = useNow(1000);
  const timeZone = useTimeZone();
  const language = useLanguage();
  // The list's first showing is the page's largest piece of work: deferred, React renders it in short
  // slices. The guest is deferred as well as the list, so that its notices never show ahead of it.
  const guest = useDeferredValue(useGuest());
  const verified = guest?.isVerified === true;
  // The list read (read_list replaces it, every write updates it: reservations/api.ts). It goes out
  // beside the guest's read rather than after it (App.tsx, preloadFirstScreen); only a verified guest is shown it.
  const data = useDeferredValue(useReservationReadListQuery(undefined, { skip: !useIsLoggedIn() }).data);
  const read = data !== undefined;
  const reservations = data?.reservations ?? NO_RESERVATIONS;
  const [showHistory, setShowHistory] = useState(false);
  // A skip just made on the detail page, said once: dismissed, the entry forgets it, so that a reload does not say it again.
  const location = useLocation();
  const navigate = useNavigate();
  const skipped = skippedOf(location.state);
  const dismissSkipped = useCallback(() => void navigate(location.pathname, { replace: true, state: null }), [navigate, location.pathname]);
  const platform = platformOf(typeof navigator === 'undefined' ? '' : navigator.userAgent);
  const supported = isSupportedEnvironment(typeof navigator === 'undefined' ? undefined : navigator);

  const { future, history } = splitReservations(reservations, now);
  const trial = guest === null ? null : trialBanner(guest, now);
  const lazy = guest === null ? null : lazyAlertBanner(guest, now);

  return (
    <div className="screen reservations-screen">
      <div className="list-header">
        <h1>{t('list_title')}</h1>
        {verified ? (
          // A floating button on a phone; on a desktop a labelled button beside the heading (reservations.css).
          <RouterLink className={`fab fab-${platform}`} to="/reservation/add" aria-label={t('add')}>
            <Plus aria-hidden="true" focusable="false" size={28} strokeWidth={2.5} />
            <span className="fab-label" aria-hidden="true">
              {t('add')}
            </span>
          </RouterLink>
        ) : null}
      </div>
      {trial !== null ? (
        <p className="trial-banner">
          <RouterLink to="/subscription">{trial.expired ? t('trial_expired') : t('trial_days_left', { days: trial.daysLeft })}</RouterLink>
        </p>
      ) : null}
      {lazy !== null ? (
        <p className={`lazy-banner ${lazy.kind}`} role="alert">
          {lazy.kind === 'suspended'
            ? t('suspended', { resumeDateTime: formatDateTime(lazy.resumeAt, timeZone, language, systemTimeZone()) })
            : t(lazy.kind === 'warning1' ? 'lazy_warning1' : 'lazy_warning2')}
        </p>
      ) : null}
      {!supported ? <UnsupportedNotice className="reservation-notice" /> : null}
      {guest !== null && !verified ? <Unverified /> : null}
      <Toast message={skipped} icon={SkipForward} onDismiss={dismissSkipped} />
      {verified ? (
        <>
          {!read ? null : future.length === 0 ? (
            <>
              <p className="no-jail">{t('no_jail')}</p>
              <TryOffer />
            </>
          ) : (
            <ul className="reservation-list" aria-label={t('list_title')}>
              {future.map((reservation) => (
                <ReservationItem key={reservation.id} reservation={reservation} now={now} timeZone={timeZone} />
              ))}
            </ul>
          )}
          {future.some((reservation) => reservation.repeatType !== 'none') ? <PauseSection /> : null}
          {history.length > 0 ? (
            <Button
              variant="ghost"
              icon={showHistory ? ChevronUp : ChevronDown}
              aria-expanded={showHistory}
              aria-controls="reservation-history"
              onClick={() => setShowHistory((shown) => !shown)}
            >
              {showHistory ? t('hide_history') : t('see_history')}
            </Button>
          ) : null}
          {showHistory ? (
            <section id="reservation-history" aria-labelledby="history-title">
              <h2 id="history-title">{t('history_title')}</h2>
              <ul className="reservation-list">
                {history.map((reservation) => (
                  <ReservationItem key={reservation.id} reservation={reservation} now={now} timeZone={timeZone} />
                ))}
              </ul>
            </section>
          ) : null}
        </>
      ) : null}
    </div>
  );
}

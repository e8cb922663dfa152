import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import type { LiveJail } from '../../shared/relay.ts';
import { seatOf, selectSortedLiveJails } from './consoleSlice.ts';
import { consoleClock, formatDuration } from './format.ts';
import { Presence } from './Presence.tsx';
import { useConsoleSelector } from './store.ts';

/** How many of a jail's recent alerts a card lists (the rest are counted). */
const ALERTS_SHOWN = 3;

interface JailCardProps {
  jail: LiveJail;
  now: number;
  isOpen: boolean;
  onOpen(reservationId: number): void;
}

/**
 * One live jail: a fixed-size card (the image box, the lines and the alert
 * list keep their size whatever arrives), so streaming updates never move
 * the grid.
 */
const JailCard = memo(function JailCard({ jail, now, isOpen, onOpen }: JailCardProps) {
  const { t } = useTranslation();
  const titleId = `jail-${jail.reservationId}-title`;
  const alerts = jail.alerts.slice(-ALERTS_SHOWN).reverse();
  const seat = seatOf(jail);
  return (
    <article className={`jail-card${jail.alerts.length > 0 ? ' has-alerts' : ''}${isOpen ? ' is-open' : ''}`} aria-labelledby={titleId}>
      <div className="patrol-box">
        {jail.latestPatrol === null ? (
          <span className="patrol-none">{t('no_patrol')}</span>
        ) : (
          <img
            src={jail.latestPatrol.data}
            alt={t('patrol_of', { title: jail.guest.title, time: consoleClock(jail.latestPatrol.time) })}
            width={100}
            height={75}
          />
        )}
      </div>
      <div className="card-body">
        <h3 id={titleId} className="card-title">
          {jail.guest.title}
        </h3>
        <p className="card-work" title={jail.work}>
          {jail.work === '' ? t('no_work') : jail.work}
        </p>
        <p className="card-line">
          <Presence jail={jail} />
        </p>
        <p className="card-line time-left">{t('time_left', { time: formatDuration(jail.endTime - now) })}</p>
      </div>
      <p className="card-line card-status">
        <span className={`status status-${seat.state}`}>{t(`status_${seat.state}`)}</span>{' '}
        <span className="muted">{t('since', { time: consoleClock(seat.since), duration: formatDuration(now - seat.since) })}</span>
      </p>
      <div className="card-alerts">
        {alerts.length === 0 ? (
          <p className="muted">{t('no_alerts')}</p>
        ) : (
          <>
            <p className="alert-count">{t('alerts_count', { count: jail.alerts.length })}</p>
            <ul>
              {alerts.map((alert) => (
                <li key={`${alert.kind}-${alert.time}`}>
                  <time dateTime={new Date(alert.time).toISOString()}>{consoleClock(alert.time)}</time> {t(`alert_${alert.kind}`)}
                </li>
              ))}
            </ul>
          </>
        )}
      </div>
      <button type="button" className="button card-open" aria-describedby={titleId} onClick={() => onOpen(jail.reservationId)}>
        {isOpen ? t('opened') : t('open')}
      </button>
    </article>
  );
});

/** The live jails, alerts first. */
export function LiveGrid({ now, onOpen }: { now: number; onOpen(reservationId: number): void }) {
  const { t } = useTranslation();
  const jails = useConsoleSelector(selectSortedLiveJails);
  const openId = useConsoleSelector((state) => state.console.openJail?.reservationId ?? null);
  return (
    <section className="live-jails" aria-labelledby="live-jails-title">
      <h2 id="live-jails-title">
        {t('live_jails_title')} <span className="count">{t('live_jails_count', { count: jails.length })}</span>
      </h2>
      {jails.length === 0 ? (
        <div className="live-jails-empty">
          <p>{t('no_live_jails')}</p>
          <p className="muted">{t('no_live_jails_hint')}</p>
        </div>
      ) : (
        <div className="jail-grid">
          {jails.map((jail) => (
            <JailCard key={jail.reservationId} jail={jail} now={now} isOpen={jail.reservationId === openId} onOpen={onOpen} />
          ))}
        </div>
      )}
    </section>
  );
}

import Camera from 'lucide-react/icons/camera';
import CloudMoon from 'lucide-react/icons/cloud-moon';
import EyeOff from 'lucide-react/icons/eye-off';
import Headset from 'lucide-react/icons/headset';
import ListChecks from 'lucide-react/icons/list-checks';
import MessageCircle from 'lucide-react/icons/message-circle';
import Moon from 'lucide-react/icons/moon';
import User from 'lucide-react/icons/user';
import UserX from 'lucide-react/icons/user-x';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActivityLog, JailSummary, Reservation } from '../../../shared/api/reservation.ts';
import { useReservationReadMutation } from '../reservations/bookingApi.ts';
import { clockOf } from '../reservations/common.ts';
import { isAtMaximumPatrols, PENDING_REPORT_REREAD_MS, reportState } from '../reservations/reservation-view.ts';
import { planOf } from '../reservations/plan.ts';
import {
  absentParts,
  finishReason,
  inTimeOrder,
  isAlertMarker,
  markersBySegment,
  markersOf,
  pauseCounts,
  stepMarkers,
  segmentsOf,
  shareOf,
  wholeMinutes,
  type Marker,
  type MarkerKind,
  type Segment,
  type SegmentKind,
} from './report-view.ts';
import { BookAgain } from './BookAgain.tsx';
import './report.css';
import { ALERT_MOTION_KINDS } from '../../../shared/jail-vocabulary.ts';

const MARKER_ICON: Record<MarkerKind, typeof Camera> = {
  no_motion: EyeOff,
  darkness: Moon,
  nodding: CloudMoon,
  away: UserX,
  warden: MessageCircle,
  human: Headset,
  step: ListChecks,
  guest: User,
  patrol: Camera,
};

/** The kinds shown in the key, in the order a guest meets them. */
const SEGMENT_KINDS: readonly SegmentKind[] = ['seat', 'leave', 'away', 'break', 'waiting', 'ended'];
/** The camera's alerts (pinned on a row of their own above the bar), then words and patrols. */
const MARKER_KINDS: readonly MarkerKind[] = [...ALERT_MOTION_KINDS, 'step', 'warden', 'human', 'guest', 'patrol'];

function minutesIn(segments: readonly Segment[], kind: SegmentKind): number {
  return wholeMinutes(segments.filter((segment) => segment.kind === kind).reduce((sum, segment) => sum + segment.to - segment.from, 0));
}

function Summary({ jail, logs }: { jail: JailSummary; logs: readonly ActivityLog[] }) {
  const { t } = useTranslation('report');
  const { leaves, breaks } = pauseCounts(logs);
  const reason = jail.finish === 'early' || jail.finish === 'warden' ? finishReason(logs) : null;
  const planned = wholeMinutes(jail.plannedMs);
  const focused = wholeMinutes(jail.focusedMs);
  // A jail never come into has no figures to show: it says so, rather than an empty meter and a grid of zeros.
  if (jail.enteredAt === null) {
    return (
      <section className="report-summary" aria-labelledby="report-summary-title">
        <h3 id="report-summary-title">{t('summary')}</h3>
        <p className="report-headline">{t('never_entered')}</p>
        <p className="report-finish">{t('never_entered_detail', { planned })}</p>
      </section>
    );
  }
  return (
    <section className="report-summary" aria-labelledby="report-summary-title">
      <h3 id="report-summary-title">{t('summary')}</h3>
      <p className="report-headline" data-testid="report-focused">
        {t('focused_of_planned', { focused, planned })}
      </p>
      <div className="report-meter" aria-hidden="true">
        <span style={{ width: `${shareOf(jail.focusedMs, 0, jail.plannedMs) * 100}%` }} />
      </div>
      <p className="report-finish">{t(`finish_${jail.finish}`)}</p>
      {reason === null ? null : (
        <p className="report-reason">
          <strong>{t('log_instruction')}</strong>
          {t('colon')}
          <span data-testid="report-finish-reason">{reason}</span>
        </p>
      )}
      <dl className="report-figures">
        <div>
          <dt>{t('focused')}</dt>
          <dd data-testid="report-focused-minutes">{t('minutes', { count: focused })}</dd>
        </div>
        <div>
          <dt>{t('planned')}</dt>
          <dd data-testid="report-planned-minutes">{t('minutes', { count: planned })}</dd>
        </div>
        <div>
          <dt>{t('breaks')}</dt>
          <dd data-testid="report-breaks">{t('times_minutes', { count: breaks, minutes: wholeMinutes(jail.breakMs) })}</dd>
        </div>
        <div>
          <dt>{t('leaves')}</dt>
          <dd data-testid="report-leaves">{t('times_minutes', { count: leaves, minutes: wholeMinutes(jail.awayMs) })}</dd>
        </div>
        <div>
          <dt>{t('alerts')}</dt>
          <dd data-testid="report-alerts">{jail.alerts}</dd>
        </div>
        <div>
          <dt>{t('patrols')}</dt>
          <dd data-testid="report-patrols">{jail.patrols}</dd>
        </div>
      </dl>
    </section>
  );
}

function MarkerIcon({ kind }: { kind: MarkerKind }) {
  const Icon = MARKER_ICON[kind];
  return <Icon className={`report-marker-icon marker-${kind}`} aria-hidden="true" focusable="false" size={16} strokeWidth={2.25} />;
}

/** One marked moment, read out in the list under its segment. */
function MarkerItem({ marker, timeZone }: { marker: Marker; timeZone: string }) {
  const { t } = useTranslation('report');
  const time = clockOf(marker.time, timeZone);
  return (
    <li className={`report-moment moment-${marker.kind}`}>
      <MarkerIcon kind={marker.kind} />
      <time className="report-time">{time}</time>
      {marker.kind === 'patrol' ? (
        <img className="report-thumb" src={marker.image} alt={t('patrol_image', { time })} />
      ) : (
        <span>
          <strong>{t(`marker_${marker.kind}`)}</strong>
          {marker.text === undefined ? null : (
            <>
              {t('colon')}
              {marker.text}
            </>
          )}
        </span>
      )}
    </li>
  );
}

/** A row of pins above the bar, each at its time (the list below reads them out). */
function PinTrack({ className, markers, left }: { className: string; markers: readonly Marker[]; left: (time: number) => string }) {
  return (
    <div className={className} aria-hidden="true">
      {markers.map((marker, index) => (
        <span key={index} className="report-pin" style={{ left: left(marker.time) }}>
          <MarkerIcon kind={marker.kind} />
        </span>
      ))}
    </div>
  );
}

function Timeline({ reservation, jail, timeZone }: { reservation: Reservation; jail: JailSummary; timeZone: string }) {
  const { t } = useTranslation('report');
  const { startTime, endTime } = reservation;
  const logs = reservation.activityLogs;
  const segments = segmentsOf(logs, jail, startTime, endTime);
  const markers = inTimeOrder([...markersOf(logs), ...stepMarkers(planOf(reservation), jail.finishedAt)]);
  const grouped = markersBySegment(segments, markers);
  // Only rows with something on them are drawn; what did not happen is said in words under the key.
  const wordPins = markers.filter((marker) => marker.kind === 'warden' || marker.kind === 'human' || marker.kind === 'guest' || marker.kind === 'step');
  const alertPins = markers.filter((marker) => isAlertMarker(marker.kind));
  const patrols = markers.filter((marker) => marker.kind === 'patrol');
  const absent = absentParts(markers, planOf(reservation).length);
  const left = (time: number) => `${shareOf(time, startTime, endTime) * 100}%`;
  const width = (segment: Segment) => `${(shareOf(segment.to, startTime, endTime) - shareOf(segment.from, startTime, endTime)) * 100}%`;
  return (
    <section className="report-timeline" aria-labelledby="report-timeline-title">
      <h3 id="report-timeline-title">{t('timeline')}</h3>
      <figure className="report-picture">
        {/* The picture; the list below reads it out. */}
        {wordPins.length === 0 ? null : <PinTrack className="report-track-words" markers={wordPins} left={left} />}
        {alertPins.length === 0 ? null : <PinTrack className="report-track-alerts" markers={alertPins} left={left} />}
        <div className="report-bar" aria-hidden="true">
          {segments.map((segment, index) => (
            <span key={index} className={`report-segment segment-${segment.kind}`} style={{ left: left(segment.from), width: width(segment) }} />
          ))}
        </div>
        {patrols.length === 0 ? null : (
          <div className="report-track-patrols" aria-hidden="true">
            {patrols.map((marker, index) => (
              <img key={index} className="report-pin-thumb" src={marker.image} alt="" style={{ left: left(marker.time) }} />
            ))}
          </div>
        )}
        <div className="report-axis" aria-hidden="true">
          <span>{clockOf(startTime, timeZone)}</span>
          <span>{clockOf(endTime, timeZone)}</span>
        </div>
        <figcaption>
          {t('timeline_picture', {
            start: clockOf(startTime, timeZone),
            end: clockOf(endTime, timeZone),
            seat: minutesIn(segments, 'seat'),
            leave: minutesIn(segments, 'leave'),
            away: minutesIn(segments, 'away'),
            break: minutesIn(segments, 'break'),
          })}
        </figcaption>
      </figure>
      <ul className="report-legend" aria-label={t('legend')}>
        {SEGMENT_KINDS.filter((kind) => segments.some((segment) => segment.kind === kind)).map((kind) => (
          <li key={kind}>
            <span className={`report-swatch segment-${kind}`} aria-hidden="true" />
            {t(`segment_${kind}`)}
          </li>
        ))}
        {MARKER_KINDS.filter((kind) => markers.some((marker) => marker.kind === kind)).map((kind) => (
          <li key={kind}>
            <MarkerIcon kind={kind} />
            {t(`marker_${kind}`)}
          </li>
        ))}
      </ul>
      {absent.length === 0 ? null : (
        <ul className="report-absent" data-testid="report-absent">
          {absent.map((part) => (
            <li key={part}>{t(`absent_${part}`)}</li>
          ))}
        </ul>
      )}
      <ol className="report-segments" data-testid="report-segments">
        {segments.map((segment, index) => (
          <li key={index} className={`report-segment-item segment-${segment.kind}`} data-kind={segment.kind}>
            <p className="report-segment-head">
              <strong>{t(`segment_${segment.kind}`)}</strong>{' '}
              <span className="report-time">{t('segment_range', { from: clockOf(segment.from, timeZone), to: clockOf(segment.to, timeZone) })}</span>{' '}
              <span className="report-duration">{t('segment_minutes', { count: wholeMinutes(segment.to - segment.from) })}</span>
            </p>
            {(grouped[index] ?? []).length > 0 ? (
              <ul className="report-moments">
                {(grouped[index] ?? []).map((marker, at) => (
                  <MarkerItem key={at} marker={marker} timeZone={timeZone} />
                ))}
              </ul>
            ) : null}
          </li>
        ))}
      </ol>
    </section>
  );
}

function LogItem({ log, timeZone }: { log: ActivityLog; timeZone: string }) {
  const { t } = useTranslation('report');
  const time = clockOf(log.time, timeZone);
  let body: ReactNode;
  switch (log.type) {
    case 'dialog':
      body = `${t(log.dialog.type === 1 && log.dialog.by === 'human' ? 'log_dialog_human' : `log_dialog_${log.dialog.type}`)}${t('colon')}${log.dialog.text}`;
      break;
    case 'instruction':
      body = `${t('log_instruction')}${t('colon')}${log.instruction.text}`;
      break;
    case 'callup':
      body = `${t('log_callup')}${t('colon')}${log.callup.text}`;
      break;
    case 'mail':
      body = `${t('log_mail')}${t('colon')}${log.mail.text}`;
      break;
    case 'patrol':
      body = <img className="report-thumb" src={log.patrol.data} alt={t('patrol_image', { time })} />;
      break;
    case 'motion':
      // Nodding, darkness, away and back say what was seen; plain motion events say whether there was motion.
      body =
        log.motion.kind === undefined || log.motion.kind === 'motion' || log.motion.kind === 'no_motion'
          ? t(`log_motion_${log.motion.type}`)
          : t(`log_motion_${log.motion.kind}`);
      break;
    case 'status':
      body = t(`log_status_${log.status.jailStatus}`);
      break;
  }
  return (
    <li className={`log log-${log.type}`}>
      <time className="report-time">{time}</time> <span className="log-body">{body}</span>
    </li>
  );
}

/**
 * The report of a finished jail (docs/client.md, The report): the summary of
 * its figures, its timeline, and the whole log folded under them. A finished
 * reservation without logs is read again; while the server says the report
 * may still grow it is read every few seconds.
 */
export function Report({ reservation, timeZone }: { reservation: Reservation; timeZone: string }) {
  const { t } = useTranslation('report');
  const [read, { isLoading }] = useReservationReadMutation();
  const [asked, setAsked] = useState(false);
  const logs = reservation.activityLogs;
  useEffect(() => {
    if (reservation.isFinished && logs.length === 0 && !asked) {
      setAsked(true);
      void read({ id: reservation.id });
    }
  }, [reservation.isFinished, reservation.id, logs.length, asked, read]);
  // The logs, or the figures that come once the jail has finished, are still to come.
  const waitingForServer = reservation.logsPending && (logs.length === 0 || reservation.jail === null);
  useEffect(() => {
    if (!waitingForServer) return undefined;
    const timer = setInterval(() => void read({ id: reservation.id }), PENDING_REPORT_REREAD_MS);
    return () => clearInterval(timer);
  }, [waitingForServer, reservation.id, read]);
  const state = reportState(logs.length, isLoading || (reservation.isFinished && !asked && logs.length === 0), reservation.logsPending);
  const { jail } = reservation;
  const logList = (
    <ol className="report-log-list">
      {logs.map((log, index) => (
        <LogItem key={index} log={log} timeZone={timeZone} />
      ))}
    </ol>
  );
  return (
    <section className="report" aria-labelledby="report-title">
      <h2 id="report-title">{t('title')}</h2>
      {jail === null ? null : <Summary jail={jail} logs={logs} />}
      {state === 'waiting' ? <p role="status">{t('waiting_logs')}</p> : null}
      {state === 'none' ? <p className="report-note">{t('no_logs')}</p> : null}
      {state === 'logs' ? (
        <>
          {jail === null ? null : <Timeline reservation={reservation} jail={jail} timeZone={timeZone} />}
          {isAtMaximumPatrols(logs) ? <p className="report-note">{t('max_patrols')}</p> : null}
          {/* Folded under the picture; without one (no jail ran), the log is the report. */}
          {jail === null ? (
            logList
          ) : (
            <details className="report-log">
              <summary>{t('raw_log')}</summary>
              {logList}
            </details>
          )}
        </>
      ) : null}
      {reservation.isFinished ? <BookAgain reservation={reservation} timeZone={timeZone} /> : null}
    </section>
  );
}

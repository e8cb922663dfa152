import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { JailLog } from './consoleSlice.ts';
import { consoleClock } from './format.ts';

interface TimelineProps {
  logs: JailLog[];
  guestTitle: string;
  approvedPatrolLogIds: number[];
  /** Approves a patrol image's scene; absent once the jail is no longer live. */
  onApprove?(patrolLogId: number): void;
  /** Reads the page of logs before the oldest shown; absent when there is none. */
  onShowEarlier?(): Promise<void>;
}

/** The first item of the timeline while earlier logs remain: reads them, a page at a time. */
function ShowEarlier({ onShowEarlier }: { onShowEarlier(): Promise<void> }) {
  const { t } = useTranslation();
  const [reading, setReading] = useState(false);
  return (
    <li className="timeline-earlier">
      <button
        type="button"
        className="button secondary"
        disabled={reading}
        onClick={() => {
          setReading(true);
          void onShowEarlier().finally(() => setReading(false));
        }}
      >
        {t(reading ? 'reading_earlier_logs' : 'show_earlier_logs')}
      </button>
    </li>
  );
}

/** What a log says, after its time. */
function LogBody({ log, guestTitle, approved, onApprove }: { log: JailLog; guestTitle: string; approved: boolean; onApprove?(id: number): void }) {
  const { t } = useTranslation();
  switch (log.type) {
    case 'dialog':
      return (
        <p className={`log-dialog by-${log.dialog.type}`}>
          <strong>{t(`log_dialog_${log.dialog.type}`)}:</strong> {log.dialog.text}
        </p>
      );
    case 'instruction':
    case 'callup':
    case 'mail': {
      const text = log.type === 'instruction' ? log.instruction.text : log.type === 'callup' ? log.callup.text : log.mail.text;
      return (
        <p>
          <strong>{t(`log_${log.type}`)}:</strong> {text}
        </p>
      );
    }
    case 'patrol':
      return (
        <div className="log-patrol">
          <strong>{t('log_patrol')}</strong>
          <img src={log.patrol.data} alt={t('patrol_of', { title: guestTitle, time: consoleClock(log.time) })} width={100} height={75} />
          {approved ? (
            <span className="approved">{t('scene_approved')}</span>
          ) : (
            onApprove !== undefined && (
              <button type="button" className="button secondary" onClick={() => onApprove(log.id)}>
                {t('approve_scene')}
              </button>
            )
          )}
        </div>
      );
    case 'motion':
      return <p className="muted">{t(`log_motion_${log.motion.kind ?? (log.motion.type === 1 ? 'motion' : 'no_motion')}`)}</p>;
    case 'status':
      return <p className="muted">{t(`log_status_${log.status.jailStatus}`)}</p>;
  }
}

/**
 * The jail's logs, oldest first. It follows new logs while the warden is at
 * the bottom, and stays put while they read further up; earlier logs come a
 * page at a time, from the button at the top.
 */
export function Timeline({ logs, guestTitle, approvedPatrolLogIds, onApprove, onShowEarlier }: TimelineProps) {
  const { t } = useTranslation();
  const listRef = useRef<HTMLOListElement>(null);
  const atBottomRef = useRef(true);

  useEffect(() => {
    const list = listRef.current;
    if (list !== null && atBottomRef.current) list.scrollTop = list.scrollHeight;
  }, [logs.length]);

  if (logs.length === 0) return <p className="timeline-empty">{t('no_logs')}</p>;
  return (
    <ol
      ref={listRef}
      className="timeline"
      tabIndex={0}
      aria-label={t('timeline_title')}
      onScroll={(event) => {
        const list = event.currentTarget;
        atBottomRef.current = list.scrollHeight - list.scrollTop - list.clientHeight < 24;
      }}
    >
      {onShowEarlier !== undefined && <ShowEarlier onShowEarlier={onShowEarlier} />}
      {logs.map((log) => (
        <li key={log.id} className={`log log-${log.type}`}>
          <time dateTime={new Date(log.time).toISOString()}>{consoleClock(log.time)}</time>
          <LogBody log={log} guestTitle={guestTitle} approved={approvedPatrolLogIds.includes(log.id)} onApprove={onApprove} />
        </li>
      ))}
    </ol>
  );
}

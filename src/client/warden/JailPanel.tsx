import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { LiveJail } from '../../shared/relay.ts';
import { Sheet } from '../ui/Sheet.tsx';
import { earlierLogsReceived, sceneApproved, selectOpenLiveJail, type OpenJail } from './consoleSlice.ts';
import { consoleClock, formatDuration } from './format.ts';
import { LiveVideo } from './LiveVideo.tsx';
import { Presence } from './Presence.tsx';
import { useRelay } from './RelayContext.tsx';
import { newEventId } from './relay.ts';
import { useConsoleDispatch, useConsoleSelector } from './store.ts';
import { Timeline } from './Timeline.tsx';

const COMMANDS = [1, 2, 3, 4, 5, 6] as const;

/**
 * The available commands as checkboxes. A change shows at once and is sent;
 * once acked (or refused) the boxes show the jail's commands as the relay
 * lists them again.
 */
function CommandBoxes({ jail, enabled }: { jail: LiveJail; enabled: boolean }) {
  const { t } = useTranslation();
  const { send } = useRelay();
  const [pending, setPending] = useState<number[] | null>(null);
  const commands = pending ?? jail.commands;

  async function toggle(command: number, checked: boolean): Promise<void> {
    const next = checked ? [...commands, command].sort((a, b) => a - b) : commands.filter((item) => item !== command);
    setPending(next);
    await send('update_commands_from_warden', { reservationId: jail.reservationId, commands: next });
    setPending(null);
  }

  return (
    <fieldset className="commands" disabled={!enabled}>
      <legend>{t('commands_title')}</legend>
      {COMMANDS.map((command) => (
        <label key={command} className="check">
          <input type="checkbox" checked={commands.includes(command)} onChange={(event) => void toggle(command, event.target.checked)} />
          {t(`command_${command}`)}
        </label>
      ))}
    </fieldset>
  );
}

/** The open jail: its state, live video, actions, timeline and the dialog box. */
export function JailPanel({ open, now, onClose }: { open: OpenJail; now: number; onClose(): void }) {
  const { t } = useTranslation();
  const dispatch = useConsoleDispatch();
  const { send } = useRelay();
  const live = useConsoleSelector(selectOpenLiveJail);
  const [dialogText, setDialogText] = useState('');
  const [callupText, setCallupText] = useState('');
  const [reason, setReason] = useState('');
  // A key, not a text, so that the notice follows a change of language.
  const [notice, setNotice] = useState<'callup_sent' | 'patrol_requested' | null>(null);
  const [confirmingFinish, setConfirmingFinish] = useState(false);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const jail = live ?? open.jail;
  const isLive = live !== null;
  const reservationId = open.reservationId;

  // Keyboard and screen reader users land on the jail they opened.
  useEffect(() => headingRef.current?.focus(), [reservationId]);
  useEffect(() => {
    setNotice(null);
    setConfirmingFinish(false);
  }, [reservationId]);

  async function sendDialog(event: FormEvent): Promise<void> {
    event.preventDefault();
    const text = dialogText.trim();
    if (text === '') return;
    if ((await send('dialog_from_warden', { reservationId, eventId: newEventId(), text })) !== null) setDialogText('');
  }

  async function callup(event: FormEvent): Promise<void> {
    event.preventDefault();
    const text = callupText.trim();
    const ack = await send('callup_from_warden', { reservationId, eventId: newEventId(), ...(text === '' ? {} : { text }) });
    if (ack !== null) {
      setCallupText('');
      setNotice('callup_sent');
    }
  }

  async function requestPatrol(): Promise<void> {
    if ((await send('request_patrol_from_warden', { reservationId })) !== null) setNotice('patrol_requested');
  }

  async function showEarlier(): Promise<void> {
    const [oldest] = open.logs;
    if (oldest === undefined) return;
    const ack = await send('jail_logs_from_warden', { reservationId, before: oldest.id });
    if (ack !== null) dispatch(earlierLogsReceived({ reservationId, logs: ack.logs ?? [], hasEarlier: ack.hasEarlier ?? false }));
  }

  async function approve(patrolLogId: number): Promise<void> {
    if ((await send('feature_image_from_warden', { reservationId, patrolLogId })) !== null) dispatch(sceneApproved(patrolLogId));
  }

  function askToFinish(event: FormEvent): void {
    event.preventDefault();
    if (reason.trim() !== '') setConfirmingFinish(true);
  }

  async function finish(): Promise<void> {
    setConfirmingFinish(false);
    const text = reason.trim();
    if (text === '') return;
    if ((await send('finish_jail_from_warden', { reservationId, eventId: newEventId(), reason: text })) !== null) setReason('');
  }

  if (jail === null) {
    return (
      <section className="jail-panel" aria-labelledby="open-jail-title">
        <h2 id="open-jail-title" ref={headingRef} tabIndex={-1}>
          {t('opening')}
        </h2>
        <button type="button" className="button secondary" onClick={onClose}>
          {t('close_jail')}
        </button>
      </section>
    );
  }

  return (
    <section className="jail-panel" aria-labelledby="open-jail-title" aria-busy={open.phase === 'opening'}>
      <header className="panel-header">
        <div>
          <h2 id="open-jail-title" ref={headingRef} tabIndex={-1}>
            {t('jail_title', { title: jail.guest.title, work: jail.work === '' ? t('no_work') : jail.work })}
          </h2>
          {isLive ? (
            <p className="card-line">
              <span className={`status status-${jail.jailStatus}`}>{t(`status_${jail.jailStatus}`)}</span>{' '}
              {t('since', { time: consoleClock(jail.statusSince), duration: formatDuration(now - jail.statusSince) })}
              {' · '}
              <Presence jail={jail} />
              {' · '}
              <span className="time-left">{t('time_left', { time: formatDuration(jail.endTime - now) })}</span>
              {' · '}
              {jail.warden === null ? t('no_assigned_warden') : t('assigned_warden', { title: jail.warden.title })}
            </p>
          ) : (
            open.phase === 'open' && (
              <p className="over" role="status">
                <strong>{t('jail_over')}</strong> {t('jail_over_hint')}
              </p>
            )
          )}
        </div>
        <button type="button" className="button secondary" onClick={onClose}>
          {t('close_jail')}
        </button>
      </header>
      <p role="status" className="notice">
        {notice === null ? '' : t(notice)}
      </p>
      <div className="panel-columns">
        <div className="panel-side">
          <LiveVideo key={jail.guest.id} guest={jail.guest} reservationId={jail.reservationId} enabled={isLive} />
          <section aria-labelledby="actions-title">
            <h3 id="actions-title">{t('actions_title')}</h3>
            <form className="inline-form" onSubmit={(event) => void callup(event)}>
              <label htmlFor="callup-text">{t('callup_text_label')}</label>
              <div className="row">
                <input
                  id="callup-text"
                  type="text"
                  maxLength={500}
                  value={callupText}
                  disabled={!isLive}
                  onChange={(event) => setCallupText(event.target.value)}
                />
                <button type="submit" className="button" disabled={!isLive}>
                  {t('callup')}
                </button>
              </div>
            </form>
            <button type="button" className="button secondary" disabled={!isLive} onClick={() => void requestPatrol()}>
              {t('request_patrol')}
            </button>
            <CommandBoxes jail={jail} enabled={isLive} />
            <form className="inline-form finish-form" onSubmit={askToFinish}>
              <h4>{t('finish_title')}</h4>
              <label htmlFor="finish-reason">{t('finish_reason')}</label>
              <textarea
                id="finish-reason"
                required
                maxLength={500}
                rows={2}
                value={reason}
                disabled={!isLive}
                onChange={(event) => setReason(event.target.value)}
              />
              <button type="submit" className="button danger" disabled={!isLive}>
                {t('finish')}
              </button>
            </form>
            <Sheet
              open={confirmingFinish && isLive}
              title={t('finish_confirm', { title: jail.guest.title })}
              closeLabel={t('dismiss')}
              onClose={() => setConfirmingFinish(false)}
            >
              <p>{t('finish_confirm_text')}</p>
              <div className="row finish-confirm-actions">
                <button type="button" className="button danger" onClick={() => void finish()}>
                  {t('finish')}
                </button>
                <button type="button" className="button secondary" onClick={() => setConfirmingFinish(false)}>
                  {t('finish_keep')}
                </button>
              </div>
            </Sheet>
          </section>
        </div>
        <section className="panel-timeline" aria-labelledby="timeline-title">
          <h3 id="timeline-title">{t('timeline_title')}</h3>
          <Timeline
            logs={open.logs}
            guestTitle={jail.guest.title}
            approvedPatrolLogIds={open.approvedPatrolLogIds}
            onApprove={isLive ? (id) => void approve(id) : undefined}
            onShowEarlier={open.hasEarlier ? showEarlier : undefined}
          />
          <form className="inline-form dialog-form" onSubmit={(event) => void sendDialog(event)}>
            <label htmlFor="dialog-text">{t('dialog_label')}</label>
            <div className="row">
              <input
                id="dialog-text"
                type="text"
                required
                maxLength={500}
                value={dialogText}
                disabled={!isLive}
                onChange={(event) => setDialogText(event.target.value)}
              />
              <button type="submit" className="button" disabled={!isLive}>
                {t('send')}
              </button>
            </div>
          </form>
        </section>
      </div>
    </section>
  );
}

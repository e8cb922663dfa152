/** The jail screens (SPEC §2 /jail/*). */
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '../../app/hooks.ts';
import { browserVoice } from '../../app/speech.ts';
import { clockOf, useNow, useTimeZone } from '../reservations/common.ts';
import { useReservationReadMutation } from '../reservations/api.ts';
import { useReservationOfRoute } from '../reservations/ReservationOfRoute.tsx';
import { COMMANDS } from './commands.ts';
import { allowanceLeft, availableCommands, commandOutcome, isRemainingTimeShown, type CommandId } from './session-rules.ts';
import { commandGiven, finishAnnounced, jailFinished, screenEntered, SCREENS, sessionLeft, shouldAnnounceFinish } from './sessionSlice.ts';
import { useGuestRelay } from './useGuestRelay.ts';
import './jail.css';

/** `/jail/prep_before/:id`: what the sound and the camera are for, then the start (which says 'Here we go'). */
export function PrepBeforeScreen() {
  const { t } = useTranslation('jail');
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const language = useAppSelector((state) => state.application.language);
  const start = () => {
    // The line is said on the way; the preparation does not wait for it.
    void browserVoice().speak(t('here_we_go'), language);
    void navigate(`/jail/prep/${id}`);
  };
  return (
    <div className="jail-screen">
      <h1>{t('prep_before_title')}</h1>
      <p>{t('prep_before_intro')}</p>
      <section aria-labelledby="prep-before-audio">
        <h2 id="prep-before-audio">{t('prep_before_audio_title')}</h2>
        <p>{t('prep_before_audio')}</p>
      </section>
      <section aria-labelledby="prep-before-camera">
        <h2 id="prep-before-camera">{t('prep_before_camera_title')}</h2>
        <p>{t('prep_before_camera')}</p>
      </section>
      <button type="button" className="button" onClick={start}>
        {t('prep_before_start')}
      </button>
    </div>
  );
}

function clockCountdown(ms: number): string {
  const seconds = Math.ceil(ms / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/**
 * `/jail/live/:id`: the work, the start time or the time left, the status
 * with its countdown, the commands, and the early-finish form; the finish
 * is announced once and the page goes to the reservation's report.
 */
export function LiveScreen() {
  const { t } = useTranslation('jail');
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const language = useAppSelector((state) => state.application.language);
  const session = useAppSelector((state) => state.jailSession);
  const { id, reservation, isRead } = useReservationOfRoute();
  const timeZone = useTimeZone();
  const now = useNow(1000);
  const relay = useGuestRelay();
  const [readReservation] = useReservationReadMutation();
  const [finishing, setFinishing] = useState(false);
  const [reason, setReason] = useState('');
  const [refusal, setRefusal] = useState<string | null>(null);

  useEffect(() => {
    dispatch(screenEntered(SCREENS.live));
    return () => {
      dispatch(sessionLeft());
    };
  }, [dispatch]);

  const endTime = session.jail?.endTime ?? reservation?.endTime ?? null;
  const ended = endTime !== null && now >= endTime;
  const gone = isRead && (reservation === null || reservation.isFinished);
  useEffect(() => {
    if (session.finish === null && (ended || gone)) dispatch(jailFinished('ended'));
  }, [ended, gone, session.finish, dispatch]);
  useEffect(() => {
    if (!shouldAnnounceFinish(session)) return;
    dispatch(finishAnnounced());
    // Announced once, then the reservation is read again (SPEC §4) so that its page shows the report.
    void Promise.all([browserVoice().speak(t('live_finished'), language), readReservation({ id }).catch(() => undefined)]).then(() =>
      navigate(`/reservation/${id}`, { replace: true }),
    );
  }, [session, dispatch, t, language, navigate, id, readReservation]);

  const refused = (error: unknown) => setRefusal(t('live_refused', { reason: error instanceof Error ? error.message : String(error) }));

  const give = (command: CommandId) => {
    const outcome = commandOutcome(command, session.status, session.normalCommands);
    if (outcome === null) return;
    if (outcome.effect === 'open_finish_form') setFinishing(true);
    if (outcome.status === session.status) return;
    dispatch(commandGiven({ command, now: Date.now() }));
    relay?.sendLogged('jail_status_from_guest', { jailStatus: outcome.status }).catch(refused);
  };

  const finishEarly = (event: FormEvent) => {
    event.preventDefault();
    if (reason.trim() === '' || relay === null) return;
    relay
      .sendLogged('jail_finish_early_from_guest', { reservation: { id }, instruction: { text: reason.trim() } })
      .then(() => dispatch(jailFinished('early')), refused);
  };

  const work = session.jail?.work ?? reservation?.work ?? '';
  const startTime = session.jail?.startTime ?? reservation?.startTime ?? null;
  const allowance = allowanceLeft(session.status, session.statusSince, now);
  const commands = COMMANDS[language].filter((command) => availableCommands(session.status, session.normalCommands).includes(command.id));
  return (
    <div className="jail-screen live">
      <h1>{work}</h1>
      {startTime !== null && now < startTime ? <p>{t('live_starts_at', { time: clockOf(startTime, timeZone) })}</p> : null}
      {endTime !== null && now >= (startTime ?? 0) && isRemainingTimeShown(endTime, now) ? (
        <p role="timer">{t('live_time_left', { minutes: Math.max(0, Math.ceil((endTime - now) / 60_000)) })}</p>
      ) : null}
      <p role="status">
        {session.status === 'injail' || allowance === null
          ? t('live_status_injail')
          : t(`live_status_${session.status}`, { countdown: clockCountdown(allowance) })}
      </p>
      <section aria-labelledby="live-commands">
        <h2 id="live-commands">{t('live_commands')}</h2>
        <div className="commands">
          {commands.map((command) => (
            <button key={command.id} type="button" className="button" onClick={() => give(command.id)} disabled={session.jail === null}>
              {command.subtitle}
            </button>
          ))}
        </div>
      </section>
      {finishing ? (
        <form className="finish-form" onSubmit={finishEarly} aria-labelledby="live-finish">
          <h2 id="live-finish">{t('live_finish_title')}</h2>
          <label htmlFor="live-finish-reason">{t('live_finish_reason')}</label>
          <textarea id="live-finish-reason" value={reason} onChange={(event) => setReason(event.target.value)} maxLength={500} required />
          <button type="submit" className="button danger" disabled={reason.trim() === ''}>
            {t('live_finish_send')}
          </button>
          <button type="button" className="button" onClick={() => setFinishing(false)}>
            {t('live_finish_cancel')}
          </button>
        </form>
      ) : null}
      {refusal !== null ? <p role="alert">{refusal}</p> : null}
    </div>
  );
}

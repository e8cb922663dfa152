/** The jail screens (docs/client.md, The jail screens). */
import type { LucideIcon } from 'lucide-react';
import Armchair from 'lucide-react/icons/armchair';
import Coffee from 'lucide-react/icons/coffee';
import DoorOpen from 'lucide-react/icons/door-open';
import Flag from 'lucide-react/icons/flag';
import Hand from 'lucide-react/icons/hand';
import MessageCircle from 'lucide-react/icons/message-circle';
import Mic from 'lucide-react/icons/mic';
import Play from 'lucide-react/icons/play';
import RefreshCw from 'lucide-react/icons/refresh-cw';
import Send from 'lucide-react/icons/send';
import Video from 'lucide-react/icons/video';
import WifiOff from 'lucide-react/icons/wifi-off';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '../../app/hooks.ts';
import { UnsupportedNotice } from '../../app/UnsupportedNotice.tsx';
import { Button } from '../../ui/Button.tsx';
import { Chip } from '../../ui/Chip.tsx';
import { commandGroup, selectAvailableCommands } from './commandSlice.ts';
import { conversationOf, conversationRestored, type DialogEntry, dialogAdded, dialogGroup } from './dialogSlice.ts';
import { browserVoice } from '../../app/speech.ts';
import { CameraFailure } from '../cameraHelp/CameraFailure.tsx';
import { clockOf, useNow, useTimeZone } from '../reservations/common.ts';
import { useReservationReadMutation } from '../reservations/bookingApi.ts';
import { useReservationOfRoute } from '../reservations/ReservationOfRoute.tsx';
import { COMMANDS, recogniseCommand } from './commands.ts';
import { finishLine } from '../../../shared/device-lines.ts';
import { Eye } from './Eye.tsx';
import { facePositionGroup } from './facePositionSlice.ts';
import { canShareScreen, type CameraSource } from './jail-camera.ts';
import { loadJailStatus, saveJailStatus } from './jail-status-store.ts';
import { LineSheet } from './LineSheet.tsx';
import { ProgressRing } from './ProgressRing.tsx';
import { planOf, planPosition } from '../reservations/plan.ts';
import { JailClock } from './JailClock.tsx';
import { PlanLine } from './PlanLine.tsx';
import { allowanceLeft, commandOutcome, countdownText, elapsedShare, type CommandId } from './session-rules.ts';
import {
  statusChosen,
  eyeSlept,
  finishAnnounced,
  jailFinished,
  jailSessionGroup,
  screenEntered,
  SCREENS,
  sessionLeft,
  shouldAnnounceFinish,
  statusRestored,
} from './sessionSlice.ts';
import type { GuestRelay } from './guest-relay.ts';
import { useGuestRelay } from './useGuestRelay.ts';
import { type CameraPhase, useJailCamera, type JailCameraView } from './useJailCamera.ts';
import { useTryDemo } from './useTryDemo.ts';
import { useWardenVoice } from './useWardenVoice.ts';
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
    <div className="screen jail-screen">
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

/** How often the live screen notes on the device that it is open (the list's time away is this precise). */
const JAIL_SCREEN_SEEN_EVERY_MS = 5_000;

/** How long the eye stays awake at the start before it sleeps (the start wakes it, then sleeps it: docs/jail.md, Commands). */
const EYE_AWAKE_AT_START_MS = 6_000;

/** Each command's icon (decorative: the button's text names it). */
const COMMAND_ICONS: Record<CommandId, LucideIcon> = { 1: DoorOpen, 2: Coffee, 3: Flag, 4: MessageCircle, 5: Armchair, 6: Play };

/**
 * `/jail/live/:id`, a focus timer: the work as the title, a ring of the
 * share of the jail gone by with the eye in its middle, a clock (the
 * countdown to the start, then the time left and the end time), the status
 * with its countdown, the Warden's
 * subtitles, the commands (touch or voice; finishing early and talking open
 * a sheet), the conversation folded away, one calm line while offline or
 * reconnecting, and the camera as a small card. Above it all, what the
 * camera is doing and whether a human warden watches the live video; the
 * Warden says when one starts and when the last stops. The finish is
 * announced once and the page goes to the reservation's report. `#try`
 * plays the try-anyway demo.
 */
export function LiveScreen() {
  const { t } = useTranslation('jail');
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const language = useAppSelector((state) => state.application.language);
  const session = useAppSelector(jailSessionGroup.selectSlice);
  const online = useAppSelector((state) => state.network.isInternetAvailable);
  const { id, reservation, isRead } = useReservationOfRoute();
  const timeZone = useTimeZone();
  const now = useNow(1000);
  const relay = useGuestRelay();
  const relayLost = useRelayLost(relay);
  const [readReservation] = useReservationReadMutation();
  const [finishing, setFinishing] = useState(false);
  const [talking, setTalking] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);

  useEffect(() => {
    dispatch(screenEntered(SCREENS.live));
    return () => {
      dispatch(sessionLeft());
    };
  }, [dispatch]);

  const endTime = session.jail?.endTime ?? reservation?.endTime ?? null;
  const work = (session.jail?.work ?? reservation?.work ?? '').trim();
  const ended = endTime !== null && now >= endTime;
  const gone = isRead && (reservation === null || reservation.isFinished);
  const running = session.jail !== null && session.finish === null;
  const available = useAppSelector(selectAvailableCommands);
  const { commands: normalCommands, onSpeech: listening } = useAppSelector(commandGroup.selectSlice);
  const conversation = useAppSelector((state) => dialogGroup.selectSlice(state).entries);
  const face = useAppSelector(facePositionGroup.selectSlice);
  const camera = useJailCamera(relay, running && session.status !== 'breaking', session.status === 'injail');
  const { checkIn, answerCheckIn } = camera;

  const refused = (error: unknown) => setRefusal(t('live_refused', { reason: error instanceof Error ? error.message : String(error) }));

  const give = (command: CommandId) => {
    // Any command shows the guest is there: it answers the Warden's check-in.
    answerCheckIn();
    const outcome = commandOutcome(command, session.status, normalCommands);
    if (outcome === null) return;
    const described = COMMANDS[language].find((candidate) => candidate.id === command);
    if (described !== undefined) void voice.say(described.response);
    if (outcome.effect === 'open_finish_form') setFinishing(true);
    if (command === 4) setTalking(true);
    if (outcome.status === session.status) return;
    // The server logs this answer without sending it back to be said again: the conversation shows it as the log does.
    if (described !== undefined) dispatch(dialogAdded({ text: described.response, type: 1, by: 'virtual' }));
    dispatch(statusChosen({ status: outcome.status, now: Date.now() }));
    relay?.sendLogged('jail_status_from_guest', { jailStatus: outcome.status }).catch(refused);
  };

  const talk = (text: string) => {
    setTalking(false);
    dispatch(dialogAdded({ text, type: 0 }));
    relay?.sendLogged('guest_dialog_event_from_guest', { dialog: { text } }).catch(refused);
  };

  // A spoken command among those on offer; after "talk to the Warden", the next words are for the Warden.
  const onHeard = (utterance: string) => {
    // Any word answers the Warden's check-in (docs/rules.md, The check-in).
    answerCheckIn();
    if (talking) {
      talk(utterance.trim().slice(0, 500));
      return;
    }
    const command = recogniseCommand(utterance, language, available);
    if (command !== null) give(command);
  };
  const voice = useWardenVoice(relay, language, running && !finishing, onHeard);

  // A human warden's live video: the first one that gets through, and the end of the last,
  // are said by the Warden and written in the subtitles (an aria-live region).
  const watched = camera.watchers > 0;
  const wasWatched = useRef(false);
  const { say } = voice;
  useEffect(() => {
    if (watched === wasWatched.current) return;
    wasWatched.current = watched;
    void say(t(watched ? 'live_watch_started' : 'live_watch_ended'));
  }, [watched, say, t]);

  // A camera that fails is said aloud too: the Warden must not seem to watch what it cannot see.
  const cameraFailed = camera.phase === 'failed';
  useEffect(() => {
    if (cameraFailed) void say(t('live_camera_failed_line'));
  }, [cameraFailed, say, t]);

  // The Warden's check-in is asked aloud, and an answer thanked; unanswered, the server's alert line follows.
  const spokenCheckIn = useRef<typeof checkIn>(null);
  useEffect(() => {
    if (checkIn === spokenCheckIn.current) return;
    spokenCheckIn.current = checkIn;
    if (checkIn === null || checkIn.phase === 'unanswered') return;
    void say(t(checkIn.phase === 'asking' ? 'live_check_in' : 'live_check_in_thanks'));
  }, [checkIn, say, t]);

  useEffect(() => {
    if (session.finish === null && (ended || gone)) dispatch(jailFinished('ended'));
  }, [ended, gone, session.finish, dispatch]);
  useEffect(() => {
    if (!shouldAnnounceFinish(session)) return;
    dispatch(finishAnnounced());
    // Announced once, in the words the server logs (shared/device-lines.ts), then the reservation is read
    // again (docs/jail.md, Commands) so that its page shows the report.
    const said = finishLine(session.finish, work, language);
    void Promise.all([said === null ? undefined : voice.say(said), readReservation({ id }).catch(() => undefined)]).then(() =>
      navigate(`/reservation/${id}`, { replace: true }),
    );
  }, [session, dispatch, work, language, navigate, id, readReservation, voice]);

  // The start wakes the eye; it sleeps again once the greeting is over.
  useEffect(() => {
    if (!session.eyeAwake) return undefined;
    const timer = setTimeout(() => dispatch(eyeSlept()), EYE_AWAKE_AT_START_MS);
    return () => clearTimeout(timer);
  }, [session.eyeAwake, dispatch]);

  // The status is kept on the device too, so that a reload shows it before the relay answers,
  // with when the screen was last open, so that the list can say how long the guest has been away from it.
  const reservationId = Number(id);
  useEffect(() => {
    if (session.jail === null || session.finish !== null) return undefined;
    const kept = { reservationId: session.jail.reservationId, status: session.status, since: session.statusSince };
    const seen = () => void saveJailStatus({ ...kept, seenAt: Date.now() });
    seen();
    const timer = setInterval(seen, JAIL_SCREEN_SEEN_EVERY_MS);
    window.addEventListener('pagehide', seen);
    return () => {
      clearInterval(timer);
      window.removeEventListener('pagehide', seen);
      seen();
    };
  }, [session.jail, session.status, session.statusSince, session.finish]);
  useEffect(() => {
    let current = true;
    void loadJailStatus(reservationId).then((kept) => {
      if (current && kept !== null) dispatch(statusRestored(kept));
    });
    return () => {
      current = false;
    };
  }, [reservationId, dispatch]);

  // Each step of the guest's plan is announced at its minute while the jail runs (a step already begun on arrival is only shown).
  const plan = useMemo(() => (reservation === null ? [] : planOf(reservation)), [reservation]);
  const stepNow = running ? planPosition(plan, now).current : null;
  const announcedStep = useRef<number | null | undefined>(undefined);
  useEffect(() => {
    const number = stepNow?.number ?? null;
    const first = announcedStep.current === undefined;
    if (announcedStep.current === number) return;
    announcedStep.current = number;
    if (!first && stepNow !== null) void say(t('live_plan_said', { title: stepNow.title }));
  }, [stepNow, say, t]);

  // Back in a running jail (after a reload, or from the list), the conversation so far comes back from the server's logs.
  useEffect(() => {
    let current = true;
    void readReservation({ id: reservationId })
      .unwrap()
      .then((answer) => {
        if (current) dispatch(conversationRestored(conversationOf(answer.reservation.activityLogs)));
      })
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [reservationId, readReservation, dispatch]);

  useTryDemo(voice.say);

  const finishEarly = (reason: string) => {
    relay
      ?.sendLogged('jail_finish_early_from_guest', { reservation: { id }, instruction: { text: reason } })
      .then(() => dispatch(jailFinished('early')), refused);
  };

  const { current: step, next: nextStep } = planPosition(plan, now);
  const startTime = session.jail?.startTime ?? reservation?.startTime ?? null;
  const beforeStart = startTime !== null && now < startTime;
  const allowance = allowanceLeft(session.status, session.statusSince, now);
  const commands = COMMANDS[language].filter((command) => available.includes(command.id));
  // Waiting for the guest's words to the Warden, the eye listens (unless it is busy with something else).
  const eyeMode = talking && session.eyeMode === 'monitoring' ? 'dialogue' : session.eyeMode;
  return (
    <div className="screen jail-screen live" data-status={session.status}>
      <CameraState phase={camera.phase} onBreak={session.status === 'breaking'} watchers={camera.watchers} />
      {!online || relayLost ? <ConnectionState offline={!online} /> : null}
      <div className="live-focus">
        <h1 className="live-work">{work === '' ? t('live_untitled') : work}</h1>
        <div className="live-dial">
          <ProgressRing share={startTime !== null && endTime !== null ? elapsedShare(startTime, endTime, now) : 0} />
          <Eye
            mode={eyeMode}
            awake={session.eyeAwake || eyeMode !== 'monitoring'}
            speaking={session.eyeMode === 'dialogue'}
            watching={running && session.status !== 'breaking'}
            gaze={face}
          />
        </div>
        {startTime !== null && endTime !== null ? <JailClock startTime={startTime} endTime={endTime} now={now} timeZone={timeZone} /> : null}
        <PlanLine current={step} next={nextStep} timeZone={timeZone} />
        {beforeStart ? null : (
          <p className="live-status" role="status">
            {session.status === 'injail' || allowance === null
              ? t('live_status_injail')
              : t(`live_status_${session.status}`, { countdown: countdownText(allowance) })}
          </p>
        )}
        <div className="subtitles" aria-live="polite">
          {voice.subtitle !== null ? (
            <p className="subtitle" data-by={voice.subtitle.by}>
              {voice.subtitle.by === 'human' ? <span className="speaker">{t('live_speaker_human')}</span> : null}
              {voice.subtitle.text}
            </p>
          ) : null}
          {voice.heard !== null ? <p className="heard">{t('live_heard', { text: voice.heard })}</p> : null}
        </div>
        {checkIn?.phase === 'asking' ? (
          <div className="check-in">
            <Button icon={Hand} onClick={answerCheckIn}>
              {t('live_check_in_here')}
            </Button>
          </div>
        ) : null}
      </div>
      <section className="live-commands" aria-labelledby="live-commands">
        <h2 id="live-commands" className="visually-hidden">
          {t('live_commands')}
        </h2>
        {listening ? (
          <p className="listening">
            <Mic aria-hidden="true" focusable="false" size={16} /> {t('live_listening')}
          </p>
        ) : null}
        <div className="commands" data-count={commands.length}>
          {commands.map((command) => (
            <Button
              key={command.id}
              // The one way back (from a leave or a break) is the screen's main action.
              variant={commands.length === 1 ? 'primary' : 'secondary'}
              className={command.id === 3 ? 'command command-finish' : 'command'}
              icon={COMMAND_ICONS[command.id]}
              onClick={() => give(command.id)}
              disabled={session.jail === null}
            >
              {command.subtitle}
            </Button>
          ))}
        </div>
        {refusal !== null ? <p role="alert">{refusal}</p> : null}
      </section>
      <aside className="live-side">
        {conversation.length > 0 ? <Conversation entries={conversation} /> : null}
        <CameraPanel camera={camera} />
      </aside>
      <LineSheet
        open={talking}
        title={t('live_talk_title')}
        label={t('live_talk_label')}
        send={t('live_talk_send')}
        sendIcon={Send}
        onSend={talk}
        onClose={() => setTalking(false)}
      />
      <LineSheet
        open={finishing}
        title={t('live_finish_title')}
        intro={endTime === null ? null : <p className="finish-means">{t('live_finish_means', { time: clockOf(endTime, timeZone) })}</p>}
        label={t('live_finish_reason')}
        hint={t('live_finish_reason_hint')}
        send={t('live_finish_send')}
        sendIcon={Flag}
        danger
        cancel={t('live_finish_cancel')}
        onSend={finishEarly}
        onClose={() => setFinishing(false)}
      />
    </div>
  );
}

/**
 * While offline or reconnecting, one calm line at the top of the screen (the
 * shell's own offline messages keep out of the way here: app/liveJailOffline.ts);
 * it covers nothing, and the commands given meanwhile are delivered after.
 */
function ConnectionState({ offline }: { offline: boolean }) {
  const { t } = useTranslation('jail');
  const Icon = offline ? WifiOff : RefreshCw;
  return (
    <div className="connection-state" aria-live="polite">
      <Icon className="connection-state-icon" aria-hidden="true" focusable="false" size={20} />
      <div>
        <p className="connection-state-title">{offline ? t('live_offline') : t('live_reconnecting')}</p>
        <p>{t('live_commands_kept')}</p>
      </div>
    </div>
  );
}

/** Who said a line of the conversation: the guest, the virtual Warden, or a human warden. */
function speakerLabel(entry: DialogEntry): 'live_conversation_you' | 'live_conversation_warden' | 'live_speaker_human' {
  if (entry.type === 0) return 'live_conversation_you';
  return entry.by === 'human' ? 'live_speaker_human' : 'live_conversation_warden';
}

/** The conversation so far: what the guest told the Warden and what the wardens said, folded away until opened. */
function Conversation({ entries }: { entries: readonly DialogEntry[] }) {
  const { t } = useTranslation('jail');
  return (
    <details className="conversation live-card">
      <summary>{t('live_conversation', { count: entries.length })}</summary>
      <ol>
        {entries.map((entry) => (
          <li key={entry.id} data-by={entry.type === 0 ? 'guest' : (entry.by ?? 'virtual')}>
            <span className="speaker">{t(speakerLabel(entry))}</span> {entry.text}
          </li>
        ))}
      </ol>
    </details>
  );
}

/** Whether the relay connection dropped and is being made again (the guest's commands wait meanwhile). */
function useRelayLost(relay: GuestRelay | null): boolean {
  const [lost, setLost] = useState(false);
  useEffect(() => {
    if (relay === null) return undefined;
    const onConnect = () => setLost(false);
    const onDisconnect = () => setLost(true);
    relay.socket.on('connect', onConnect);
    relay.socket.on('disconnect', onDisconnect);
    return () => {
      relay.socket.off('connect', onConnect);
      relay.socket.off('disconnect', onDisconnect);
      setLost(false);
    };
  }, [relay]);
  return lost;
}

/**
 * What the camera is doing, at the top of the live screen where it is always
 * in sight (from 320 px, without scrolling): a light and a short line (on and
 * analysed on this device; off before the start, on a break or after a
 * failure) and, while human wardens watch the live video, a chip that says so.
 */
function CameraState({ phase, onBreak, watchers }: { phase: CameraPhase; onBreak: boolean; watchers: number }) {
  const { t } = useTranslation('jail');
  const state = onBreak ? 'break' : phase;
  return (
    <div className="live-camera" data-watchers={watchers}>
      <p className="camera-light" data-state={state}>
        <span className="camera-light-dot" aria-hidden="true" />
        {t(`live_camera_${state}`)}
      </p>
      {watchers > 0 ? (
        <Chip tone="warning" icon={Video}>
          {watchers === 1 ? t('live_watched') : t('live_watched_many', { count: watchers })}
        </Chip>
      ) : null}
    </div>
  );
}

/**
 * The camera, as a small card beside the timer: its preview, what leaves
 * the device, failures in the product's words; the source switch and the
 * patrol images sent are folded away until opened.
 */
function CameraPanel({ camera }: { camera: JailCameraView }) {
  const { t } = useTranslation('jail');
  const sources: CameraSource[] = canShareScreen() ? ['front', 'back', 'screen'] : ['front', 'back'];
  if (camera.phase === 'unsupported') {
    return (
      <section className="camera-panel live-card" aria-labelledby="live-camera">
        <h2 id="live-camera">{t('live_camera')}</h2>
        <UnsupportedNotice />
      </section>
    );
  }
  return (
    <section className="camera-panel live-card" aria-labelledby="live-camera" data-phase={camera.phase} data-analysed={camera.analysed}>
      <div className="camera-summary">
        <video
          ref={camera.videoRef}
          className="camera-preview"
          data-mirrored={camera.opened === 'front'}
          muted
          playsInline
          aria-label={t('live_camera_preview')}
          hidden={camera.phase !== 'on'}
        />
        <div>
          <h2 id="live-camera">{t('live_camera')}</h2>
          {camera.phase === 'failed' ? <CameraFailure reason={camera.failure ?? 'Error'} onRetry={camera.retry} /> : null}
          <p className="camera-note">{t('live_camera_sent')}</p>
          {camera.opened === 'front' && camera.source === 'screen' ? <p className="camera-note">{t('live_camera_screen_failed')}</p> : null}
        </div>
      </div>
      <details className="camera-more">
        <summary>{t('live_camera_source')}</summary>
        <fieldset className="camera-switch">
          <legend className="visually-hidden">{t('live_camera_source')}</legend>
          {sources.map((source) => (
            <label key={source}>
              <input type="radio" name="camera-source" value={source} checked={camera.source === source} onChange={() => camera.setSource(source)} />
              {t(`live_camera_source_${source}`)}
            </label>
          ))}
        </fieldset>
      </details>
      {camera.patrols.length > 0 ? (
        <details className="camera-more">
          <summary>{t('live_patrols', { count: camera.patrols.length })}</summary>
          <ol className="patrol-history">
            {camera.patrols.map((data, index) => (
              <li key={index}>
                <img src={data} alt={t('live_patrol_alt', { number: index + 1 })} />
              </li>
            ))}
          </ol>
        </details>
      ) : null}
    </section>
  );
}

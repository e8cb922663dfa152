import ArrowRight from 'lucide-react/icons/arrow-right';
import BookOpen from 'lucide-react/icons/book-open';
import Play from 'lucide-react/icons/play';
import RotateCcw from 'lucide-react/icons/rotate-ccw';
import { Button } from '../../ui/Button.tsx';
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { UnsupportedNotice } from '../../app/UnsupportedNotice.tsx';
import { Navigate, useNavigate } from 'react-router-dom';
import type { Language } from '../../../shared/constants.ts';
import { useAppDispatch, useAppSelector } from '../../app/hooks.ts';
import { browserEars, browserVoice, type Voice } from '../../app/speech.ts';
import { CameraError, isIosDevice, openCamera } from '../../vision/capture.ts';
import { CameraFailure } from '../cameraHelp/CameraFailure.tsx';
import { useReservationOfRoute } from '../reservations/ReservationOfRoute.tsx';
import { isSupportedEnvironment } from '../reservations/reservation-view.ts';
import { COMMANDS } from '../jail/commands.ts';
import { Eye } from '../jail/Eye.tsx';
import type { CommandId } from '../jail/session-rules.ts';
import { screenEntered, SCREENS, sessionLeft, type EyeMode } from '../jail/sessionSlice.ts';
import { useGuestRelay } from '../jail/useGuestRelay.ts';
import { readingTimeMs, speechAllowanceMs } from './pace.ts';
import { judgeAnswer, PREP_START, prepReducer, SCENARIOS, stepAt, type PrepStep } from './scenarios.ts';
import './prep.css';
import { GUEST_SPEECH_SHOWN_MS, SPEECH_TIMEOUT_MS } from '../../app/speech.ts';

/** What reads the lines once the guest chose to read them: no voice, so each line stays up to be read. */
const NO_VOICE: Voice = { speak: () => Promise.resolve(false), cancel: () => undefined };

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A listen that ends sooner than this heard nothing at all (no microphone, refused): wait before the next. */
const FAILED_LISTEN_MS = 1_000;
/** After this many failed listens in a row, stop listening: touch still works. */
const FAILED_LISTENS_BEFORE_GIVING_UP = 3;

/**
 * Says `text` and resolves when it has been said: at the voice's end, or
 * after a generous allowance if the voice never ends. Where the voice fails
 * or is missing, the line stays up for the time it takes to read it, or
 * until the guest goes on. Resolves with whether the line was spoken.
 */
async function sayLine(voice: Voice, text: string, language: Language, goneOn: Promise<void>): Promise<boolean> {
  const startedAt = Date.now();
  const spoken = await Promise.race([voice.speak(text, language), delay(speechAllowanceMs(text)).then(() => true)]);
  if (!spoken) await Promise.race([delay(readingTimeMs(text) - (Date.now() - startedAt)), goneOn]);
  return spoken;
}

type CameraState = { kind: 'opening' } | { kind: 'open'; stream: MediaStream } | { kind: 'failed'; reason: string } | { kind: 'unsupported' };

function stopCamera(stream: MediaStream) {
  for (const track of stream.getTracks()) track.stop();
}

/** The front camera, open while `wanted` (and opened anew by `retry`); its tracks are stopped when no longer wanted. */
function useFrontCamera(wanted: boolean): CameraState & { retry(): void } {
  const [camera, setCamera] = useState<CameraState>({ kind: 'opening' });
  const [attempt, setAttempt] = useState(0);
  const retry = useCallback(() => setAttempt((count) => count + 1), []);
  useEffect(() => {
    if (!wanted) return undefined;
    if (!isSupportedEnvironment(navigator)) {
      setCamera({ kind: 'unsupported' });
      return undefined;
    }
    let left = false;
    let opened: MediaStream | null = null;
    setCamera({ kind: 'opening' });
    openCamera(isIosDevice()).then(
      (stream) => {
        if (left) {
          stopCamera(stream);
          return;
        }
        opened = stream;
        setCamera({ kind: 'open', stream });
      },
      (error: unknown) => {
        if (!left) setCamera({ kind: 'failed', reason: error instanceof CameraError ? error.reason : 'Error' });
      },
    );
    return () => {
      left = true;
      if (opened !== null) stopCamera(opened);
    };
  }, [wanted, attempt]);
  return { ...camera, retry };
}

function CameraPreview({ stream, label }: { stream: MediaStream; label: string }) {
  const video = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    const element = video.current;
    if (element === null) return;
    element.srcObject = stream;
    element.play().catch(() => undefined);
  }, [stream]);
  return <video ref={video} className="prep-camera" muted playsInline autoPlay aria-label={label} />;
}

/** Scenario 2's "video": how to place the device, drawn and moved by CSS (no video files are shipped). */
function PlacementIllustration() {
  const { t } = useTranslation('prep');
  return (
    <figure className="prep-placement">
      <svg viewBox="0 0 320 190" role="img" aria-label={t('placement_picture')}>
        <g className="placement-light">
          <circle cx="34" cy="34" r="12" />
          <path d="M34 12 V4 M34 56 V64 M12 34 H4 M56 34 H64 M18 18 L12 12 M50 50 L56 56 M50 18 L56 12 M18 50 L12 56" />
        </g>
        <path className="placement-light-beam" d="M46 40 L222 70 L222 104 Z" />
        <path className="placement-view" d="M96 92 L214 52 L300 140 L150 140 Z" />
        <rect className="placement-desk" x="40" y="140" width="272" height="8" rx="2" />
        <path className="placement-desk" d="M56 148 V186 M296 148 V186" />
        <g className="placement-person">
          <circle cx="236" cy="78" r="20" />
          <path d="M204 140 Q206 104 236 104 Q266 104 268 140 Z" />
        </g>
        <g className="placement-device">
          <path className="placement-stand" d="M96 140 L92 118 L100 118 Z" />
          <rect x="86" y="76" width="20" height="40" rx="4" />
          <circle className="placement-lens" cx="96" cy="82" r="2.5" />
        </g>
      </svg>
      <figcaption>{t('placement_caption')}</figcaption>
    </figure>
  );
}

function commandOf(language: Language, id: CommandId) {
  const command = COMMANDS[language].find((candidate) => candidate.id === id);
  if (command === undefined) throw new Error(`No command ${id}`);
  return command;
}

function eyeModeOf(step: PrepStep, speaking: boolean): EyeMode {
  if (speaking) return 'dialogue';
  return step.kind === 'prompt' ? 'attention' : 'monitoring';
}

/**
 * `/jail/prep/:id` (docs/prep.md): on the relay, the Warden
 * plays three scripted scenarios (scenarios.ts) with subtitles and speech:
 * what it does; how to place the device, with a drawn demonstration and the
 * camera's preview; and the commands, practised by touch or voice. Then
 * live. An unknown reservation goes back to /jail/prep_before/:id.
 */
export function PrepScreen() {
  const { t } = useTranslation('prep');
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const language = useAppSelector((state) => state.application.language);
  const { id, reservation, isRead } = useReservationOfRoute();
  // On the relay while the preparation is open (docs/prep.md), as the live screen is.
  useGuestRelay();
  const voice = useMemo(() => browserVoice(), []);
  const ears = useMemo(() => browserEars(), []);
  const [position, send] = useReducer(prepReducer, PREP_START);
  const [subtitle, setSubtitle] = useState('');
  const [speaking, setSpeaking] = useState(false);
  // The voice failed or is missing: lines are read, and the guest can go on before their time.
  const [silent, setSilent] = useState(false);
  // The guest chose to read from the first line on (offered at once, before any voice has had a chance to fail).
  const [atMyPace, setAtMyPace] = useState(false);
  const atMyPaceNow = useRef(false);
  const goOn = useRef<() => void>(() => undefined);
  const [heard, setHeard] = useState<string | null>(null);
  const [listening, setListening] = useState(false);
  const [awake, setAwake] = useState(false);
  // Browsers refuse speech on a page not yet touched (reloaded, or opened from a link): there the guest starts the script.
  const [started, setStarted] = useState(() => navigator.userActivation?.hasBeenActive ?? true);
  const ready = reservation !== null && started;
  const step = stepAt(position);
  const camera = useFrontCamera(ready && position.scenario === 1);

  useEffect(() => {
    dispatch(screenEntered(SCREENS.prep));
    return () => {
      dispatch(sessionLeft());
      voice.cancel();
    };
  }, [dispatch, voice]);

  // Woken a moment after it is drawn, so that its lids are seen opening.
  useEffect(() => {
    if (!ready) return undefined;
    const timer = setTimeout(() => setAwake(true), 200);
    return () => clearTimeout(timer);
  }, [ready]);

  // Each scenario starts at the top of the page (the previous one may have been scrolled down to its buttons).
  useEffect(() => {
    window.scrollTo({ top: 0 });
  }, [position.scenario]);

  // What the guest said stays up for GUEST_SPEECH_SHOWN_MS.
  useEffect(() => {
    if (heard === null) return undefined;
    const timer = setTimeout(() => setHeard(null), GUEST_SPEECH_SHOWN_MS);
    return () => clearTimeout(timer);
  }, [heard]);

  // Plays the current step; leaving it (done, touched, unmounted) stops whatever it was waiting for.
  useEffect(() => {
    if (!ready) return undefined;
    let left = false;
    const goneOn = new Promise<void>((resolve) => {
      goOn.current = resolve;
    });
    const say = async (text: string) => {
      setSubtitle(text);
      setSpeaking(true);
      const spoken = await sayLine(atMyPaceNow.current ? NO_VOICE : voice, text, language, goneOn);
      if (left) return;
      setSpeaking(false);
      setSilent(!spoken);
    };

    if (step.kind === 'line') {
      void say(t(`prep_text_${step.text}`)).then(() => {
        if (!left) send({ type: 'done' });
      });
    } else if (step.kind === 'prompt') {
      const expected = commandOf(language, step.command);
      const listenForCommand = async () => {
        let failedListens = 0;
        while (!left && ears.available && failedListens < FAILED_LISTENS_BEFORE_GIVING_UP) {
          const startedAt = Date.now();
          setListening(true);
          const said = await ears.listen(language, SPEECH_TIMEOUT_MS);
          if (left) return;
          const answer = judgeAnswer(said, language, step.command);
          if (answer === 'nothing') {
            failedListens = Date.now() - startedAt < FAILED_LISTEN_MS ? failedListens + 1 : 0;
            if (failedListens > 0) await delay(FAILED_LISTEN_MS);
            continue;
          }
          failedListens = 0;
          setListening(false);
          setHeard(said);
          if (answer === 'right') {
            send({ type: 'done' });
            return;
          }
          await say(t('say_command', { command: expected.speech }));
        }
        if (!left) setListening(false);
      };
      void listenForCommand();
    } else if (step.kind === 'live') {
      void navigate(`/jail/live/${id}`, { replace: true });
    }
    return () => {
      left = true;
      setSpeaking(false);
      setListening(false);
      if (step.kind === 'prompt') voice.cancel();
    };
  }, [ready, step, language, t, voice, ears, navigate, id]);

  if (isRead && reservation === null) return <Navigate to={`/jail/prep_before/${id}`} replace />;
  if (reservation === null) {
    return (
      <div className="screen prep-screen">
        <h1>{t('title')}</h1>
        <p role="status">{t('loading')}</p>
      </div>
    );
  }
  if (!started) {
    return (
      <div className="screen prep-screen">
        <h1>{t('title')}</h1>
        <Eye mode="monitoring" awake={false} />
        <p>{t('start_hint')}</p>
        <Button icon={Play} onClick={() => setStarted(true)}>
          {t('start')}
        </Button>
      </div>
    );
  }

  function readAtMyPace(): void {
    atMyPaceNow.current = true;
    setAtMyPace(true);
    // The line being said ends here and stays up to be read.
    voice.cancel();
  }

  const part = position.scenario + 1;
  const reading = silent || atMyPace;
  return (
    <div className="screen prep-screen">
      <h1>{t('title')}</h1>
      <Eye mode={eyeModeOf(step, speaking)} awake={awake} speaking={speaking} />
      <p className="prep-subtitle" aria-live="polite">
        {subtitle}
      </p>
      {step.kind === 'line' ? (
        <div className="prep-go-on">
          {silent && !atMyPace ? <p>{t('silent_hint')}</p> : null}
          {/* One button that changes, so that the focus stays on it once the guest chose to read. */}
          <Button variant="secondary" icon={reading ? ArrowRight : BookOpen} onClick={reading ? () => goOn.current() : readAtMyPace}>
            {reading ? t('go_on') : t('read_at_my_pace')}
          </Button>
        </div>
      ) : null}
      <p className="prep-heard" role="status">
        {heard === null ? '' : t('you_said', { heard })}
      </p>
      <section className="prep-scenario" aria-labelledby="prep-scenario-title">
        <h2 id="prep-scenario-title">
          <span className="prep-progress">{t('progress', { part, count: SCENARIOS.length })}</span> {t(`scenario_${part}`)}
        </h2>
        {position.scenario === 1 ? (
          <div className="prep-device">
            <PlacementIllustration />
            <div>
              {camera.kind === 'open' ? <CameraPreview stream={camera.stream} label={t('camera_preview')} /> : null}
              {camera.kind === 'failed' ? <CameraFailure reason={camera.reason} onRetry={camera.retry} /> : null}
              {camera.kind === 'unsupported' ? <UnsupportedNotice /> : null}
            </div>
          </div>
        ) : null}
        {step.kind === 'prompt' ? (
          <div className="prep-prompt">
            <Button className="prep-prompt-button" onClick={() => send({ type: 'done' })}>
              {commandOf(language, step.command).subtitle}
            </Button>
            <p>{ears.available ? t('prompt_hint') : t('prompt_hint_touch')}</p>
            {listening && ears.available ? <p className="prep-listening">{t('listening')}</p> : null}
          </div>
        ) : null}
        {step.kind === 'pause' ? (
          <div className="prep-actions">
            <Button variant="secondary" icon={RotateCcw} onClick={() => send({ type: 'listen_again' })}>
              {t('listen_again')}
            </Button>
            <Button icon={ArrowRight} onClick={() => send({ type: 'onward' })}>
              {t(step.onward)}
            </Button>
          </div>
        ) : null}
      </section>
    </div>
  );
}

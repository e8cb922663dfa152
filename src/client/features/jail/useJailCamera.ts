import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { PATROL_CHECK_INTERVAL_MS, PATROL_MAX_LOGS_PER_SESSION } from '../../../shared/constants.ts';
import { api } from '../../app/api.ts';
import { useAppDispatch, useAppStore } from '../../app/hooks.ts';
import { useGuest } from '../../app/session.ts';
import { CameraError, isIosDevice } from '../../vision/capture.ts';
import { isSupportedEnvironment } from '../reservations/reservation-view.ts';
import type { GuestRelay } from './guest-relay.ts';
import { useFeatureImageWhitelistQuery } from './api.ts';
import { CheckIn } from './check-in.ts';
import { faceLost, faceSeen } from './facePositionSlice.ts';
import { GuestVideo } from './guest-video.ts';
import { JailCamera, type CameraSource } from './jail-camera.ts';
import { isPatrolDue, type PatrolState } from './session-rules.ts';
import { eyeModeChanged } from './sessionSlice.ts';

/** The patrol history shows the latest this many images. */
const PATROL_HISTORY_SHOWN = 30;

/** What the page shows of the camera: unsupported (no camera API), opening, on, off (a break), failed. */
export type CameraPhase = 'off' | 'opening' | 'on' | 'failed' | 'unsupported';

/** The whitelist until the relay sends one (one array, so that the camera is not told again at every render). */
const NO_IMAGES: string[] = [];

/** How long the eye stays on 'attention' after an alert event, and on 'capturing' after a patrol image. */
const EYE_MODE_SHOWN_MS = 3_000;

/**
 * The Warden's check-in as the screen shows it (docs/rules.md, The check-in):
 * asking (and about what), just answered, or gone unanswered (the alert was sent).
 */
export type CheckInView = { phase: 'asking' | 'answered' | 'unanswered' } | null;

export interface JailCameraView {
  videoRef: React.RefObject<HTMLVideoElement | null>;
  phase: CameraPhase;
  /** The source asked for, and the one that opened (a screen that could not be shared falls back to the front camera). */
  source: CameraSource;
  opened: CameraSource | null;
  setSource(source: CameraSource): void;
  /** A frame has been analysed since the camera opened. */
  analysed: boolean;
  /** Why the camera failed (`CameraError.reason`: NotAllowedError, NotFoundError…), while `phase` is 'failed'. */
  failure: string | null;
  /** Opens the camera again after a failure (the guest allowed it, or closed the app that held it). */
  retry(): void;
  /** The latest patrol images sent, newest last (at most 30 shown, docs/rules.md). */
  patrols: string[];
  /** How many human wardens watch the live video now (read from the GuestVideo). */
  watchers: number;
  checkIn: CheckInView;
  /** The guest answers the Warden's check-in ("I'm here", a command, a spoken word). */
  answerCheckIn(): void;
}

const NOT_SUBSCRIBED = () => undefined;

/**
 * The camera of the live screen: open while the jail runs and the guest is
 * not on a break (docs/jail.md, Commands: a break closes the stream, its end reopens it);
 * motion events to the relay, an empty seat asked about first
 * (`CheckIn`; `inSeat`: the guest is in the jail, not on a leave or a break);
 * approved scenes as the worker's whitelist; a patrol check every 10 s and
 * whenever a warden asks; a warden's live video answered with the same stream.
 */
export function useJailCamera(relay: GuestRelay | null, active: boolean, inSeat: boolean): JailCameraView {
  const dispatch = useAppDispatch();
  const store = useAppStore();
  const sleeper = useGuest()?.isSleeper ?? false;
  const whitelist = useFeatureImageWhitelistQuery().data ?? NO_IMAGES;
  const videoRef = useRef<HTMLVideoElement>(null);
  const [camera, setCamera] = useState<JailCamera | null>(null);
  const [video, setVideo] = useState<GuestVideo | null>(null);
  const [phase, setPhase] = useState<CameraPhase>(() => (isSupportedEnvironment(navigator) ? 'off' : 'unsupported'));
  const [source, setSource] = useState<CameraSource>('front');
  const [opened, setOpened] = useState<CameraSource | null>(null);
  const [analysed, setAnalysed] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const retry = useCallback(() => setAttempt((count) => count + 1), []);
  const [patrols, setPatrols] = useState<string[]>([]);
  const patrol = useRef<PatrolState>({ setupAt: 0, lastPatrolAt: null, taken: 0 });
  const eyeTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const [checkIn, setCheckIn] = useState<CheckInView>(null);
  const watch = useRef<CheckIn | null>(null);
  const seated = useRef(inSeat);
  seated.current = inSeat;
  /** Whether the picture is mirrored as the preview shows it (the front camera): the face's position is kept as the guest sees it. */
  const mirrored = useRef(false);

  /** Shows `mode` on the eye for a moment, then goes back to monitoring. */
  const glance = useCallback(
    (mode: 'attention' | 'capturing') => {
      dispatch(eyeModeChanged(mode));
      if (eyeTimer.current !== null) clearTimeout(eyeTimer.current);
      eyeTimer.current = setTimeout(() => dispatch(eyeModeChanged('monitoring')), EYE_MODE_SHOWN_MS);
    },
    [dispatch],
  );
  useEffect(
    () => () => {
      if (eyeTimer.current !== null) clearTimeout(eyeTimer.current);
    },
    [],
  );

  // One camera (and its worker) per relay connection of the page.
  useEffect(() => {
    if (relay === null || !isSupportedEnvironment(navigator)) return undefined;
    const checking = new CheckIn({
      send: ({ event, type }, timeMs) => {
        relay.sendLogged(event, { motion: { type, time: Math.round(timeMs) } }).catch(() => undefined);
        if (type === 0 || event === 'nodding_motion_event_from_guest') glance('attention');
      },
      onAsk: () => {
        setCheckIn({ phase: 'asking' });
        glance('attention');
      },
      onSettled: (answered) => setCheckIn({ phase: answered ? 'answered' : 'unanswered' }),
      inSeat: () => seated.current,
    });
    watch.current = checking;
    const made = new JailCamera({
      ios: isIosDevice(),
      sleeper,
      onFrame: (frame, timeMs) => checking.frame(frame, timeMs),
      onFace: (face, timeMs) => {
        const guestId = store.getState().session.auth?.id;
        if (face === null || guestId === undefined) dispatch(faceLost());
        else dispatch(faceSeen(face, { time: Math.round(timeMs), mirrored: mirrored.current, guestId }));
      },
      onAnalysed: () => setAnalysed(true),
      onError: (error) => {
        setPhase('failed');
        void dispatch(api.endpoints.errorLogCreate.initiate({ text: `Camera analysis failed: ${String(error)}` }));
      },
    });
    const answering = new GuestVideo({
      signal: (message) => relay.handshake(message),
      stream: () => made.current,
      onError: (error) => void dispatch(api.endpoints.errorLogCreate.initiate({ text: `Live video failed: ${String(error)}` })),
    });
    const onHandshake = (message: Parameters<GuestVideo['receive']>[0]) => void answering.receive(message);
    relay.socket.on('webrtc_handshake', onHandshake);
    setCamera(made);
    setVideo(answering);
    return () => {
      relay.socket.off('webrtc_handshake', onHandshake);
      answering.hangUpAll();
      made.dispose();
      checking.dispose();
      watch.current = null;
      setCheckIn(null);
      setCamera(null);
      setVideo(null);
    };
  }, [relay, sleeper, dispatch, store, glance]);

  // Open while the jail runs and not on a break; closed otherwise; opened anew at each retry (`attempt`).
  useEffect(() => {
    const element = videoRef.current;
    if (camera === null || video === null || element === null) return undefined;
    // A face seen before is not where the guest is now (a break, another source): the worker tells of the next one.
    dispatch(faceLost());
    if (!active) {
      camera.close();
      element.srcObject = null;
      void video.streamChanged();
      setPhase((current) => (current === 'on' || current === 'opening' ? 'off' : current));
      return undefined;
    }
    let cancelled = false;
    setPhase('opening');
    setFailure(null);
    setAnalysed(false);
    camera
      .open(source, element)
      .then((which) => {
        if (cancelled) return;
        mirrored.current = which === 'front';
        setOpened(which);
        setPhase('on');
        patrol.current = { ...patrol.current, setupAt: Date.now() };
        void video.streamChanged();
      })
      .catch((error: unknown) => {
        if (cancelled) return;
        setPhase('failed');
        // docs/client.md, Failures the guest sees: a missing camera is not logged; any other failure goes to the error log.
        const reason = error instanceof CameraError ? error.reason : 'Error';
        setFailure(reason);
        if (reason !== 'NotFoundError') {
          void dispatch(
            api.endpoints.errorLogCreate.initiate({
              text: `Camera failed (${reason}): ${String(error instanceof CameraError ? (error.cause ?? error) : error)}`,
            }),
          );
        }
      });
    return () => {
      cancelled = true;
    };
  }, [camera, video, active, source, dispatch, attempt]);

  useEffect(() => {
    camera?.setWhitelist(whitelist).catch(() => undefined);
  }, [camera, whitelist]);

  const takePatrol = useCallback(async () => {
    if (camera === null || relay === null || patrol.current.taken >= PATROL_MAX_LOGS_PER_SESSION) return;
    const data = await camera.patrol().catch(() => null);
    // Before the first frame, or all black (skipped: docs/rules.md).
    if (data === null) return;
    patrol.current = { ...patrol.current, lastPatrolAt: Date.now(), taken: patrol.current.taken + 1 };
    glance('capturing');
    setPatrols((taken) => [...taken, data].slice(-PATROL_HISTORY_SHOWN));
    relay.sendLogged('patrol_from_guest', { patrol: { data } }).catch(() => undefined);
  }, [camera, relay, glance]);

  // The patrol check every 10 s while the camera is on (docs/rules.md, Client constants).
  useEffect(() => {
    if (phase !== 'on') return undefined;
    const timer = setInterval(() => {
      if (isPatrolDue(patrol.current, Date.now(), Math.random())) void takePatrol();
    }, PATROL_CHECK_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [phase, takePatrol]);

  // A warden asks for a patrol image now.
  useEffect(() => {
    if (relay === null || phase !== 'on') return undefined;
    const onPatrol = () => void takePatrol();
    relay.socket.on('patrol_to_guest', onPatrol);
    return () => {
      relay.socket.off('patrol_to_guest', onPatrol);
    };
  }, [relay, phase, takePatrol]);

  const subscribe = useCallback((listener: () => void) => video?.subscribe(listener) ?? NOT_SUBSCRIBED, [video]);
  const watchers = useSyncExternalStore(subscribe, () => video?.watching ?? 0);

  const answerCheckIn = useCallback(() => watch.current?.answer(), []);

  return { videoRef, phase, source, opened, setSource, analysed, failure, retry, patrols, watchers, checkIn, answerCheckIn };
}

/**
 * /camera-check: lets a guest see, before a jail, what Warden's camera
 * analysis sees: the live preview, which engine runs, the latest numbers of
 * docs/vision.md, the events they would raise, and the patrol thumbnail a
 * warden would get every 10 s.
 *
 * Query parameters (for tests and the benchmark, harmless otherwise):
 *   engine=auto|wasm-simd|wasm-scalar|js   force an engine
 *   capture=auto|track-processor|video-frame|image-bitmap|image-capture|none
 *   sleeper=1                              the sleeper's 90 s no-motion count
 *   bench=1                                record samples on `window.__wardenBench`
 *                                          instead of rendering them (bench/browser.ts)
 */
import { useCallback, useEffect, useMemo, useReducer, useRef, useState, type ReactNode, type RefObject } from 'react';
import { VisionClient, type EngineInfo, type EnginePreference, type Sample } from './client';
import {
  CAMERA_FAILURE_MESSAGE,
  CAPTURE_METHODS,
  CameraError,
  FrameLog,
  Sampler,
  isIosDevice,
  openCamera,
  type CaptureMethod,
  type PresentedFrame,
  type SampleRecord,
} from './capture';
import type { FrameResult } from './analyser';
import './CameraCheck.css';

// SPEC §9, as docs/vision.md applies them.
const NO_MOTION_THRESHOLD = 1.5;
const NO_MOTION_THRESHOLD_IOS = 3.5;
const NO_MOTION_SECONDS = 180;
const NO_MOTION_SECONDS_SLEEPER = 90;
const DARKNESS_SECONDS = 30;
const NODDING_COUNT = 5;
const WHITELIST_MATCH = 20;
const PATROL_INTERVAL_MS = 10_000;
const LOG_LIMIT = 50;

const AREA_NAMES = ['top left', 'top', 'top right', 'left', 'centre', 'right', 'bottom left', 'bottom', 'bottom right'];

const ENGINE_LABELS: Record<EngineInfo['engine'], string> = {
  'wasm-simd': 'WebAssembly with SIMD',
  'wasm-scalar': 'WebAssembly',
  js: 'JavaScript',
};

const METHOD_LABELS: Record<CaptureMethod, string> = {
  'track-processor': 'frames streamed to the worker',
  'video-frame': 'video frames handed to the worker',
  'image-bitmap': 'bitmaps handed to the worker',
  'image-capture': 'grabbed images handed to the worker',
};

type EventKind = 'no-motion' | 'motion' | 'darkness' | 'nodding' | 'info';

interface LogEntry {
  id: number;
  kind: EventKind;
  timeMs: number;
  text: string;
}

interface PatrolShot {
  url: string;
  width: number;
  height: number;
  allBlack: boolean;
  takenAt: number;
}

interface CheckState {
  phase: 'starting' | 'running' | 'failed';
  error: string | null;
  engine: EngineInfo | null;
  method: CaptureMethod | null;
  camera: { width: number; height: number; frameRate: number | null } | null;
  latest: SampleRecord | null;
  samples: number;
  log: LogEntry[];
  patrol: PatrolShot | null;
  whitelistCount: number;
}

type Action =
  | { type: 'engine'; engine: EngineInfo }
  | { type: 'camera'; camera: CheckState['camera'] }
  | { type: 'method'; method: CaptureMethod }
  | { type: 'sample'; record: SampleRecord; sleeper: boolean }
  | { type: 'patrol'; patrol: PatrolShot }
  | { type: 'whitelist'; count: number; timeMs: number }
  | { type: 'restarted'; sleeper: boolean; timeMs: number }
  | { type: 'failed'; error: string };

const initialState: CheckState = {
  phase: 'starting',
  error: null,
  engine: null,
  method: null,
  camera: null,
  latest: null,
  samples: 0,
  log: [],
  patrol: null,
  whitelistCount: 0,
};

let nextLogId = 1;

function logEntry(kind: EventKind, timeMs: number, text: string): LogEntry {
  return { id: nextLogId++, kind, timeMs, text };
}

function eventEntries(result: FrameResult, timeMs: number, sleeper: boolean): LogEntry[] {
  const entries: LogEntry[] = [];
  const { events } = result;
  if (events.noMotion) {
    const seconds = sleeper ? NO_MOTION_SECONDS_SLEEPER : NO_MOTION_SECONDS;
    entries.push(logEntry('no-motion', timeMs, `No motion for ${seconds} s`));
  }
  if (events.motion) entries.push(logEntry('motion', timeMs, 'Motion again'));
  if (events.darkness) entries.push(logEntry('darkness', timeMs, `Dark for ${DARKNESS_SECONDS} s`));
  if (events.nodding) entries.push(logEntry('nodding', timeMs, `Nodding: ${result.noddingCount} head reversals within 15 s`));
  return entries;
}

function reducer(state: CheckState, action: Action): CheckState {
  switch (action.type) {
    case 'engine':
      return { ...state, engine: action.engine };
    case 'camera':
      return { ...state, camera: action.camera };
    case 'method':
      return { ...state, method: action.method };
    case 'sample': {
      const { record } = action;
      const entries = eventEntries(record.sample.result, record.timeMs, action.sleeper);
      let log = state.log;
      if (state.samples === 0) log = [logEntry('info', record.timeMs, 'Camera analysis started'), ...log];
      if (entries.length > 0) log = [...entries.reverse(), ...log].slice(0, LOG_LIMIT);
      return { ...state, phase: 'running', latest: record, samples: state.samples + 1, log };
    }
    case 'patrol':
      return { ...state, patrol: action.patrol };
    case 'whitelist': {
      const text = action.count === 0 ? 'Approved views cleared' : `Approved view ${action.count} added`;
      return {
        ...state,
        whitelistCount: action.count,
        log: [logEntry('info', action.timeMs, text), ...state.log].slice(0, LOG_LIMIT),
      };
    }
    case 'restarted': {
      const seconds = action.sleeper ? NO_MOTION_SECONDS_SLEEPER : NO_MOTION_SECONDS;
      const text = `Started again: no motion after ${seconds} s`;
      return { ...state, log: [logEntry('info', action.timeMs, text), ...state.log].slice(0, LOG_LIMIT) };
    }
    case 'failed':
      return { ...state, phase: 'failed', error: action.error };
  }
}

interface Params {
  engine: EnginePreference;
  capture: CaptureMethod | 'auto' | 'none';
  sleeper: boolean;
  bench: boolean;
}

function readParams(search: string): Params {
  const query = new URLSearchParams(search);
  const engine = query.get('engine');
  const capture = query.get('capture');
  return {
    engine: engine === 'wasm-simd' || engine === 'wasm-scalar' || engine === 'js' ? engine : 'auto',
    capture: capture === 'none' || CAPTURE_METHODS.includes(capture as CaptureMethod) ? (capture as CaptureMethod | 'none') : 'auto',
    sleeper: query.get('sleeper') === '1',
    bench: query.has('bench'),
  };
}

/** What the benchmark reads from the page (`?bench`). */
export interface BenchRecord {
  method: CaptureMethod;
  timeMs: number;
  requestedAt: number;
  mainMs: number;
  resultAt: number;
  readMs: number;
  analyseMs: number;
  workerMs: number;
  pixelPath: string;
  frameTimestampUs: number | null;
  motionScore: number;
}

export interface BenchState {
  ready: boolean;
  engine: EngineInfo | null;
  method: CaptureMethod | null;
  camera: CheckState['camera'];
  samples: BenchRecord[];
  frames: PresentedFrame[];
  errors: string[];
}

declare global {
  interface Window {
    __wardenBench?: BenchState;
  }
}

interface Controls {
  approveView(): Promise<void>;
  clearViews(): Promise<void>;
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function useCameraCheck(params: Params, sleeper: boolean) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const [state, dispatch] = useReducer(reducer, initialState);
  const clientRef = useRef<VisionClient | null>(null);
  const whitelistRef = useRef<Uint8Array[]>([]);
  const sleeperRef = useRef(sleeper);
  const sessionRef = useRef<{ width: number; height: number } | null>(null);
  const ios = useMemo(() => isIosDevice(), []);

  useEffect(() => {
    const video = videoRef.current;
    if (video === null) return;
    let cancelled = false;
    let stream: MediaStream | null = null;
    let sampler: Sampler | null = null;
    let frameLog: FrameLog | null = null;
    let patrolTimer: ReturnType<typeof setInterval> | null = null;
    let patrolUrl: string | null = null;
    let analysed = false;
    const client = new VisionClient();
    clientRef.current = client;
    const bench: BenchState | null = params.bench
      ? { ready: false, engine: null, method: null, camera: null, samples: [], frames: [], errors: [] }
      : null;
    if (bench !== null) window.__wardenBench = bench;

    const fail = (error: unknown) => {
      if (cancelled) return;
      if (error instanceof CameraError) {
        // SPEC §8: a missing camera is not logged; anything else goes to the error log.
        if (error.reason !== 'NotFoundError') console.error('Camera failed', error.cause ?? error);
        dispatch({ type: 'failed', error: CAMERA_FAILURE_MESSAGE });
      } else {
        console.error('Camera check failed', error);
        dispatch({ type: 'failed', error: `The camera analysis could not start: ${describeError(error)}` });
      }
      bench?.errors.push(describeError(error));
    };

    const takePatrol = async () => {
      if (!analysed) return;
      try {
        const shot = await client.patrol();
        if (cancelled) return;
        if (patrolUrl !== null) URL.revokeObjectURL(patrolUrl);
        patrolUrl = shot.jpeg === null ? null : URL.createObjectURL(shot.jpeg);
        dispatch({
          type: 'patrol',
          patrol: { url: patrolUrl ?? '', width: shot.width, height: shot.height, allBlack: shot.allBlack, takenAt: Date.now() },
        });
      } catch (error) {
        if (!cancelled) console.error('Patrol thumbnail failed', error);
      }
    };

    const onSample = (record: SampleRecord) => {
      analysed = true;
      if (bench !== null) {
        bench.samples.push(benchRecord(record.sample, record));
        // A user-timing span per sample, for the benchmark's trace.
        performance.measure('warden-sample', { start: record.requestedAt, end: record.resultAt });
        return;
      }
      dispatch({ type: 'sample', record, sleeper: sleeperRef.current });
    };

    (async () => {
      const enginePromise = client.init(params.engine);
      enginePromise.catch(() => undefined);
      stream = await openCamera(ios);
      if (cancelled) return;
      const track = stream.getVideoTracks()[0];
      track.addEventListener('ended', () => fail(new CameraError('Ended')));
      video.srcObject = stream;
      await video.play().catch(() => undefined);
      if (video.videoWidth === 0) {
        await new Promise((resolve) => video.addEventListener('loadedmetadata', resolve, { once: true }));
      }
      if (cancelled) return;
      const settings = track.getSettings();
      const camera = {
        width: video.videoWidth || settings.width || 0,
        height: video.videoHeight || settings.height || 0,
        frameRate: settings.frameRate ?? null,
      };
      dispatch({ type: 'camera', camera });
      const engine = await enginePromise;
      if (cancelled) return;
      dispatch({ type: 'engine', engine });
      await client.start({ width: camera.width, height: camera.height, ios, sleeper: sleeperRef.current });
      if (whitelistRef.current.length > 0) await client.setWhitelist(whitelistRef.current);
      if (cancelled) return;
      sessionRef.current = { width: camera.width, height: camera.height };
      if (bench !== null) {
        bench.engine = engine;
        bench.camera = camera;
        frameLog = new FrameLog(video);
        frameLog.start();
        bench.frames = frameLog.frames;
      }
      if (params.capture !== 'none') {
        sampler = new Sampler({
          client,
          video,
          track,
          method: params.capture,
          // The benchmark meets the camera's frames at every phase (see bench/browser.ts).
          jitterMs: bench !== null ? 100 : 0,
          onSample,
          onMethod: (method) => {
            if (bench !== null) bench.method = method;
            dispatch({ type: 'method', method });
          },
          onError: (error) => {
            if (cancelled) return;
            bench?.errors.push(describeError(error));
            console.error('Camera sample failed', error);
          },
        });
        sampler.start();
      }
      if (bench !== null) bench.ready = true;
      else patrolTimer = setInterval(() => void takePatrol(), PATROL_INTERVAL_MS);
    })().catch(fail);

    return () => {
      cancelled = true;
      sampler?.stop();
      frameLog?.stop();
      if (patrolTimer !== null) clearInterval(patrolTimer);
      if (patrolUrl !== null) URL.revokeObjectURL(patrolUrl);
      stream?.getTracks().forEach((track) => track.stop());
      video.srcObject = null;
      clientRef.current = null;
      sessionRef.current = null;
      client.terminate();
    };
  }, [params, ios]);

  // The sleeper's shorter no-motion count: a new session on the same camera.
  useEffect(() => {
    if (sleeperRef.current === sleeper) return;
    sleeperRef.current = sleeper;
    const client = clientRef.current;
    const session = sessionRef.current;
    if (client === null || session === null) return;
    client
      .start({ ...session, ios, sleeper })
      .then(() => dispatch({ type: 'restarted', sleeper, timeMs: Date.now() }))
      .catch((error: unknown) => console.error('Restarting the session failed', error));
  }, [sleeper, ios]);

  const controls: Controls = {
    approveView: useCallback(async () => {
      const client = clientRef.current;
      if (client === null) return;
      const image = await client.thumbnail();
      whitelistRef.current = [...whitelistRef.current, image];
      await client.setWhitelist(whitelistRef.current);
      dispatch({ type: 'whitelist', count: whitelistRef.current.length, timeMs: Date.now() });
    }, []),
    clearViews: useCallback(async () => {
      whitelistRef.current = [];
      await clientRef.current?.setWhitelist([]);
      dispatch({ type: 'whitelist', count: 0, timeMs: Date.now() });
    }, []),
  };

  return { videoRef, state, controls, ios };
}

function benchRecord(sample: Sample, record: SampleRecord): BenchRecord {
  return {
    method: record.method,
    timeMs: record.timeMs,
    requestedAt: record.requestedAt,
    mainMs: record.mainMs,
    resultAt: record.resultAt,
    readMs: sample.timing.readMs,
    analyseMs: sample.timing.analyseMs,
    workerMs: sample.timing.workerMs,
    pixelPath: sample.timing.pixelPath,
    frameTimestampUs: sample.timing.frameTimestampUs,
    motionScore: sample.result.motionScore,
  };
}

// ---------------------------------------------------------------------------
// Presentation

function clockTime(timeMs: number): string {
  return new Date(timeMs).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

function rgb([r, g, b]: [number, number, number]): string {
  return `rgb(${r}, ${g}, ${b})`;
}

function Value(props: { testId: string; value: number | string | boolean | null; children: ReactNode }) {
  return (
    <dd data-testid={props.testId} data-value={props.value === null ? '' : String(props.value)}>
      {props.children}
    </dd>
  );
}

function Preview(props: { videoRef: RefObject<HTMLVideoElement | null>; result: FrameResult | null }) {
  const { result } = props;
  return (
    <div className="camera-check__stage">
      <video
        ref={props.videoRef}
        className="camera-check__video"
        data-testid="preview"
        autoPlay
        muted
        playsInline
        aria-label="Live camera preview"
      />
      <div className="camera-check__overlay" aria-hidden="true">
        {AREA_NAMES.map((name, index) => (
          <span key={name} className={result?.areasChanged[index] ? 'camera-check__cell camera-check__cell--changed' : 'camera-check__cell'} />
        ))}
        {result?.centroid && (
          <span
            className="camera-check__centroid"
            style={{ left: `${result.centroid.x * 100}%`, top: `${result.centroid.y * 100}%` }}
          />
        )}
      </div>
    </div>
  );
}

function Results(props: { result: FrameResult; ios: boolean; sleeper: boolean; whitelistCount: number }) {
  const { result, ios, sleeper, whitelistCount } = props;
  const threshold = ios ? NO_MOTION_THRESHOLD_IOS : NO_MOTION_THRESHOLD;
  const noMotionSeconds = sleeper ? NO_MOTION_SECONDS_SLEEPER : NO_MOTION_SECONDS;
  const moving = result.hasPrevious && result.motionScore >= threshold;
  const motionState = !result.hasPrevious ? 'waiting' : moving ? 'moving' : 'still';
  const lowMotionSeconds = Math.floor(result.lowMotionMs / 1000);
  const darkSeconds = Math.floor(result.darkMs / 1000);
  let whitelistText: string;
  if (whitelistCount === 0 || result.whitelistIndex < 0) whitelistText = 'No approved views';
  else if (result.whitelisted) whitelistText = `Matches approved view ${result.whitelistIndex + 1} (difference ${result.whitelistScore.toFixed(1)})`;
  else whitelistText = `No match (closest difference ${result.whitelistScore.toFixed(1)}, needs ${WHITELIST_MATCH} or less)`;

  return (
    <dl className="camera-check__values">
      <div className={`camera-check__value camera-check__value--${motionState}`}>
        <dt>Motion</dt>
        <Value testId="motion-state" value={motionState}>
          {motionState === 'waiting' ? 'Waiting for a second frame' : moving ? 'Moving' : 'Still'}
        </Value>
      </div>
      <div className="camera-check__value">
        <dt>Motion score</dt>
        <Value testId="motion-score" value={result.motionScore}>
          {result.motionScore.toFixed(2)} <small>(threshold {threshold})</small>
        </Value>
      </div>
      <div className="camera-check__value">
        <dt>Changed pixels</dt>
        <Value testId="changed-ratio" value={result.changedRatio}>
          {(result.changedRatio * 100).toFixed(1)} %
        </Value>
      </div>
      <div className="camera-check__value">
        <dt>Brightness</dt>
        <Value testId="mean-luma" value={result.meanLuma}>
          {result.meanLuma.toFixed(0)} <small>of 255</small>
        </Value>
      </div>
      <div className={`camera-check__value${result.dark ? ' camera-check__value--alert' : ''}`}>
        <dt>Dark</dt>
        <Value testId="dark" value={result.dark}>
          {result.dark ? 'Yes: too dark to see you' : 'No'}
        </Value>
      </div>
      <div className={`camera-check__value${result.allBlack ? ' camera-check__value--alert' : ''}`}>
        <dt>All black</dt>
        <Value testId="all-black" value={result.allBlack}>
          {result.allBlack ? 'Yes: is the lens covered?' : 'No'}
        </Value>
      </div>
      <div className="camera-check__value">
        <dt>Centre of motion</dt>
        <Value testId="centroid" value={result.centroid ? `${result.centroid.x},${result.centroid.y}` : null}>
          {result.centroid ? `${Math.round(result.centroid.x * 100)} % across, ${Math.round(result.centroid.y * 100)} % down` : 'None'}
        </Value>
      </div>
      <div className="camera-check__value">
        <dt>Nodding</dt>
        <Value testId="nodding-count" value={result.noddingCount}>
          {result.noddingCount} of {NODDING_COUNT} reversals in 15 s
        </Value>
      </div>
      <div className="camera-check__value">
        <dt>Approved view</dt>
        <Value testId="whitelist" value={result.whitelisted ? result.whitelistIndex : -1}>
          {whitelistText}
        </Value>
      </div>
      <div className="camera-check__value">
        <dt>Still for</dt>
        <Value testId="low-motion-seconds" value={lowMotionSeconds}>
          {lowMotionSeconds} s <small>of {noMotionSeconds} s</small>
        </Value>
      </div>
      <div className="camera-check__value">
        <dt>Dark for</dt>
        <Value testId="dark-seconds" value={darkSeconds}>
          {darkSeconds} s <small>of {DARKNESS_SECONDS} s</small>
        </Value>
      </div>
    </dl>
  );
}

function Areas(props: { result: FrameResult }) {
  return (
    <ol className="camera-check__areas" data-testid="areas" aria-label="Colour of each ninth of the view">
      {props.result.areaMeans.map((colour, index) => {
        const changed = props.result.areasChanged[index];
        return (
          <li
            key={AREA_NAMES[index]}
            className={changed ? 'camera-check__area camera-check__area--changed' : 'camera-check__area'}
            data-testid={`area-${index}`}
            data-changed={changed}
            style={{ backgroundColor: rgb(colour) }}
          >
            <span className="camera-check__area-label">
              {AREA_NAMES[index]}: {rgb(colour)}
              {changed ? ', changed' : ''}
            </span>
          </li>
        );
      })}
    </ol>
  );
}

export function CameraCheck() {
  const params = useMemo(() => readParams(window.location.search), []);
  const [sleeper, setSleeper] = useState(params.sleeper);
  const { videoRef, state, controls, ios } = useCameraCheck(params, sleeper);
  const [busy, setBusy] = useState(false);
  const result = state.latest?.sample.result ?? null;
  const timing = state.latest?.sample.timing ?? null;

  const run = (action: () => Promise<void>) => async () => {
    setBusy(true);
    try {
      await action();
    } catch (error) {
      console.error('Camera check action failed', error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="camera-check" data-testid="camera-check" aria-labelledby="camera-check-title">
      <header className="camera-check__header">
        <h1 id="camera-check-title">Camera check</h1>
        <p>
          Sit as you will during a jail. Warden looks at one frame a second, on this device only: nothing but the
          events below and a small patrol picture ever leaves it.
        </p>
      </header>

      {state.phase === 'failed' ? (
        <p className="camera-check__error" role="alert" data-testid="camera-error">
          {state.error}
        </p>
      ) : null}

      <div className="camera-check__layout" hidden={state.phase === 'failed'}>
        <section className="camera-check__panel" aria-labelledby="camera-check-preview">
          <h2 id="camera-check-preview">What the camera sees</h2>
          <Preview videoRef={videoRef} result={result} />
          <dl className="camera-check__facts">
            <div>
              <dt>Analysis</dt>
              <dd data-testid="engine" data-engine={state.engine?.engine ?? ''}>
                {state.engine ? ENGINE_LABELS[state.engine.engine] : 'Loading…'}
              </dd>
            </div>
            <div>
              <dt>Capture</dt>
              <dd data-testid="capture-method" data-method={state.method ?? ''}>
                {state.method ? METHOD_LABELS[state.method] : 'Starting…'}
              </dd>
            </div>
            <div>
              <dt>Camera</dt>
              <dd
                data-testid="camera-size"
                data-width={state.camera?.width ?? ''}
                data-height={state.camera?.height ?? ''}
                data-frame-rate={state.camera?.frameRate ?? ''}
              >
                {state.camera
                  ? `${state.camera.width}×${state.camera.height}${state.camera.frameRate ? ` at ${Math.round(state.camera.frameRate)} fps` : ''}`
                  : 'Opening…'}
              </dd>
            </div>
            <div>
              <dt>Frames analysed</dt>
              <dd data-testid="sample-count" data-value={state.samples}>
                {state.samples}
                {timing ? <small> (last took {timing.workerMs.toFixed(1)} ms)</small> : null}
              </dd>
            </div>
          </dl>
          <div className="camera-check__options">
            <label>
              <input type="checkbox" checked={sleeper} onChange={(event) => setSleeper(event.target.checked)} /> I tend to
              fall asleep (no motion after {NO_MOTION_SECONDS_SLEEPER} s instead of {NO_MOTION_SECONDS} s)
            </label>
          </div>
        </section>

        <section className="camera-check__panel" aria-labelledby="camera-check-results">
          <h2 id="camera-check-results">Latest results</h2>
          {result === null ? (
            <p className="camera-check__waiting" data-testid="results-waiting">
              Waiting for the first frame…
            </p>
          ) : (
            <>
              <Results result={result} ios={ios} sleeper={sleeper} whitelistCount={state.whitelistCount} />
              <h3>Areas</h3>
              <p className="camera-check__hint">A marked area changed colour sharply since the last second.</p>
              <Areas result={result} />
            </>
          )}
          <div className="camera-check__actions">
            <button type="button" onClick={run(controls.approveView)} disabled={busy || result === null} data-testid="approve-view">
              Approve this view
            </button>
            <button
              type="button"
              onClick={run(controls.clearViews)}
              disabled={busy || state.whitelistCount === 0}
              data-testid="clear-views"
            >
              Clear approved views
            </button>
          </div>
          <p className="camera-check__hint">
            An approved view (a desk, a book held still) never counts as lack of motion or darkness.
          </p>
        </section>

        <section className="camera-check__panel" aria-labelledby="camera-check-patrol">
          <h2 id="camera-check-patrol">Patrol picture</h2>
          <p className="camera-check__hint">What a warden on patrol would see; taken every 10 seconds.</p>
          <div className="camera-check__patrol" data-testid="patrol">
            {state.patrol === null ? (
              <p data-testid="patrol-status">No patrol picture yet.</p>
            ) : state.patrol.allBlack ? (
              <p data-testid="patrol-status">All black at {clockTime(state.patrol.takenAt)}: this patrol would be skipped.</p>
            ) : (
              <figure>
                <img
                  src={state.patrol.url}
                  width={state.patrol.width}
                  height={state.patrol.height}
                  alt={`Patrol picture, ${state.patrol.width} by ${state.patrol.height} pixels`}
                  data-testid="patrol-thumbnail"
                />
                <figcaption data-testid="patrol-status">Taken at {clockTime(state.patrol.takenAt)}</figcaption>
              </figure>
            )}
          </div>
        </section>

        <section className="camera-check__panel" aria-labelledby="camera-check-log">
          <h2 id="camera-check-log">Events</h2>
          {state.log.length === 0 ? (
            <p className="camera-check__hint">No events yet.</p>
          ) : null}
          <ol className="camera-check__log" role="log" aria-live="polite" data-testid="event-log">
            {state.log.map((entry) => (
              <li key={entry.id} className={`camera-check__event camera-check__event--${entry.kind}`} data-event={entry.kind}>
                <time dateTime={new Date(entry.timeMs).toISOString()}>{clockTime(entry.timeMs)}</time> {entry.text}
              </li>
            ))}
          </ol>
        </section>
      </div>
    </main>
  );
}

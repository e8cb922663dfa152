/**
 * What the camera check shows, as a reducer over what the camera, the
 * engine and the analysis report. Log entries keep a text key and its values
 * (texts.ts `log.*`), so the page speaks the guest's language.
 */
import type { FrameResult } from '../../vision/analyser';
import type { CaptureMethod, SampleRecord } from '../../vision/capture';
import type { EngineInfo } from '../../vision/client';
import {
  AWAY_COUNT_S,
  AWAY_COUNT_SLEEPER_S,
  DARKNESS_COUNT_S,
  NOD_WINDOW_MS,
  NO_MOTION_COUNT_S,
  NO_MOTION_COUNT_SLEEPER_S,
  NO_MOTION_THRESHOLD,
  NO_MOTION_THRESHOLD_IOS,
} from '../../vision/params.generated';

/** The newest entries kept in the log. */
export const LOG_LIMIT = 50;

type EventKind = 'no-motion' | 'motion' | 'darkness' | 'nodding' | 'away' | 'back' | 'info';

interface LogEntry {
  id: number;
  kind: EventKind;
  timeMs: number;
  /** A key of texts.ts `log`. */
  text: string;
  values: Record<string, number>;
}

interface PatrolShot {
  url: string;
  width: number;
  height: number;
  allBlack: boolean;
  takenAt: number;
}

interface CameraFacts {
  width: number;
  height: number;
  frameRate: number | null;
}

/** Why the check stopped: the camera (the camera failure message of docs/client.md) or anything else, with its reason. */
export type CheckFailure = { kind: 'camera'; reason: string } | { kind: 'start'; reason: string };

export interface CheckState {
  phase: 'starting' | 'running' | 'failed';
  failure: CheckFailure | null;
  engine: EngineInfo | null;
  method: CaptureMethod | null;
  camera: CameraFacts | null;
  latest: SampleRecord | null;
  samples: number;
  log: LogEntry[];
  patrol: PatrolShot | null;
  whitelistCount: number;
  /** When a frame last showed motion, and where (the friendly check's "in frame" and "moving"). */
  lastMotion: { timeMs: number; centroid: { x: number; y: number } | null } | null;
  /** The next log entry's id. */
  nextId: number;
}

type Action =
  | { type: 'engine'; engine: EngineInfo }
  | { type: 'camera'; camera: CameraFacts }
  | { type: 'method'; method: CaptureMethod }
  | { type: 'sample'; record: SampleRecord; sleeper: boolean; ios: boolean }
  | { type: 'patrol'; patrol: PatrolShot }
  | { type: 'whitelist'; count: number; timeMs: number }
  | { type: 'restarted'; sleeper: boolean; timeMs: number }
  | { type: 'failed'; failure: CheckFailure }
  | { type: 'retried' };

export const initialState: CheckState = {
  phase: 'starting',
  failure: null,
  engine: null,
  method: null,
  camera: null,
  latest: null,
  samples: 0,
  log: [],
  patrol: null,
  whitelistCount: 0,
  lastMotion: null,
  nextId: 1,
};

/** Whether a frame shows motion: its score reaches the no-motion threshold (the iOS one on iOS). */
export function isMoving(result: FrameResult, ios: boolean): boolean {
  return result.hasPrevious && result.motionScore >= (ios ? NO_MOTION_THRESHOLD_IOS : NO_MOTION_THRESHOLD);
}

/** How long a movement counts as recent for the friendly check. */
export const RECENT_MOTION_MS = 10_000;
/** The margin of the picture (a fraction of each side) where a guest is at its edge rather than in frame. */
const EDGE = 0.15;

/** A friendly check's verdict: fine, waiting to see something, or something to fix. */
export type Verdict = 'ok' | 'waiting' | 'fix';

/** The three checks a guest understands, each a text key of texts.ts `friendly`. */
export interface FriendlyChecks {
  frame: { verdict: Verdict; key: 'in_frame' | 'find_you' | 'at_edge' | 'covered' };
  light: { verdict: Verdict; key: 'light_good' | 'too_dark' | 'covered' | 'light_waiting' };
  motion: { verdict: Verdict; key: 'moving' | 'wave' };
  ready: boolean;
}

/** The friendly checks from the latest frame and the last motion seen, at `now`. */
export function friendlyChecks(latest: FrameResult | null, lastMotion: CheckState['lastMotion'], now: number): FriendlyChecks {
  const recent = lastMotion !== null && now - lastMotion.timeMs <= RECENT_MOTION_MS ? lastMotion : null;
  const covered = latest?.allBlack === true;
  const centroid = recent?.centroid ?? null;
  const atEdge = centroid !== null && (centroid.x < EDGE || centroid.x > 1 - EDGE || centroid.y < EDGE || centroid.y > 1 - EDGE);
  const frame: FriendlyChecks['frame'] = covered
    ? { verdict: 'fix', key: 'covered' }
    : recent === null
      ? { verdict: 'waiting', key: 'find_you' }
      : atEdge
        ? { verdict: 'fix', key: 'at_edge' }
        : { verdict: 'ok', key: 'in_frame' };
  const light: FriendlyChecks['light'] =
    latest === null
      ? { verdict: 'waiting', key: 'light_waiting' }
      : covered
        ? { verdict: 'fix', key: 'covered' }
        : latest.dark
          ? { verdict: 'fix', key: 'too_dark' }
          : { verdict: 'ok', key: 'light_good' };
  const motion: FriendlyChecks['motion'] = recent === null ? { verdict: 'waiting', key: 'wave' } : { verdict: 'ok', key: 'moving' };
  return { frame, light, motion, ready: frame.verdict === 'ok' && light.verdict === 'ok' && motion.verdict === 'ok' };
}

/** The no-motion count that applies, in seconds. */
export function noMotionSeconds(sleeper: boolean): number {
  return sleeper ? NO_MOTION_COUNT_SLEEPER_S : NO_MOTION_COUNT_S;
}

type NewEntry = Omit<LogEntry, 'id'>;

/** The log entries a frame's events make, in the order they happened. */
function eventEntries(result: FrameResult, timeMs: number, sleeper: boolean): NewEntry[] {
  const entries: NewEntry[] = [];
  const { events } = result;
  if (events.noMotion) entries.push({ kind: 'no-motion', timeMs, text: 'no_motion', values: { seconds: noMotionSeconds(sleeper) } });
  if (events.motion) entries.push({ kind: 'motion', timeMs, text: 'motion', values: {} });
  if (events.darkness) entries.push({ kind: 'darkness', timeMs, text: 'darkness', values: { seconds: DARKNESS_COUNT_S } });
  if (events.nodding) {
    entries.push({ kind: 'nodding', timeMs, text: 'nodding', values: { count: result.noddingCount, seconds: NOD_WINDOW_MS / 1000 } });
  }
  if (events.away) entries.push({ kind: 'away', timeMs, text: 'away', values: { seconds: sleeper ? AWAY_COUNT_SLEEPER_S : AWAY_COUNT_S } });
  if (events.back) entries.push({ kind: 'back', timeMs, text: 'back', values: {} });
  return entries;
}

/** Puts `entries` (oldest first) at the top of the log, newest first, keeping the newest LOG_LIMIT. */
function logged(state: CheckState, entries: NewEntry[]): Pick<CheckState, 'log' | 'nextId'> {
  let nextId = state.nextId;
  const numbered = entries.map((entry) => ({ ...entry, id: nextId++ }));
  return { log: [...numbered.reverse(), ...state.log].slice(0, LOG_LIMIT), nextId };
}

export function reducer(state: CheckState, action: Action): CheckState {
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
      if (state.samples === 0) entries.unshift({ kind: 'info', timeMs: record.timeMs, text: 'started', values: {} });
      const { result } = record.sample;
      const lastMotion = isMoving(result, action.ios) ? { timeMs: record.timeMs, centroid: result.centroid } : state.lastMotion;
      return { ...state, ...logged(state, entries), phase: 'running', latest: record, samples: state.samples + 1, lastMotion };
    }
    case 'patrol':
      return { ...state, patrol: action.patrol };
    case 'whitelist': {
      const entry: NewEntry =
        action.count === 0
          ? { kind: 'info', timeMs: action.timeMs, text: 'views_cleared', values: {} }
          : { kind: 'info', timeMs: action.timeMs, text: 'view_added', values: { count: action.count } };
      return { ...state, ...logged(state, [entry]), whitelistCount: action.count };
    }
    case 'restarted': {
      const entry: NewEntry = { kind: 'info', timeMs: action.timeMs, text: 'restarted', values: { seconds: noMotionSeconds(action.sleeper) } };
      return { ...state, ...logged(state, [entry]) };
    }
    case 'failed':
      return { ...state, phase: 'failed', failure: action.failure };
    case 'retried':
      // A new start: everything but the log, which goes on.
      return { ...initialState, log: state.log, nextId: state.nextId };
  }
}

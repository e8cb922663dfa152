/**
 * What the camera check shows, as a reducer over what the camera, the
 * engine and the analysis report. Log entries keep a text key and its values
 * (texts.ts `log.*`), so the page speaks the guest's language.
 */
import type { FrameResult } from '../../vision/analyser';
import type { CaptureMethod, SampleRecord } from '../../vision/capture';
import type { EngineInfo } from '../../vision/client';
import { DARKNESS_COUNT_S, NOD_WINDOW_MS, NO_MOTION_COUNT_S, NO_MOTION_COUNT_SLEEPER_S } from '../../vision/params.generated';

/** The newest entries kept in the log. */
export const LOG_LIMIT = 50;

type EventKind = 'no-motion' | 'motion' | 'darkness' | 'nodding' | 'info';

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
export type CheckFailure = { kind: 'camera' } | { kind: 'start'; reason: string };

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
  /** The next log entry's id. */
  nextId: number;
}

type Action =
  | { type: 'engine'; engine: EngineInfo }
  | { type: 'camera'; camera: CameraFacts }
  | { type: 'method'; method: CaptureMethod }
  | { type: 'sample'; record: SampleRecord; sleeper: boolean }
  | { type: 'patrol'; patrol: PatrolShot }
  | { type: 'whitelist'; count: number; timeMs: number }
  | { type: 'restarted'; sleeper: boolean; timeMs: number }
  | { type: 'failed'; failure: CheckFailure };

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
  nextId: 1,
};

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
      return { ...state, ...logged(state, entries), phase: 'running', latest: record, samples: state.samples + 1 };
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
  }
}

/** What the benchmark page records on `window.__wardenBench` and bench/browser.ts reads. */
import type { CaptureMethod } from '../../src/client/vision/capture.ts';
import type { EngineInfo } from '../../src/client/vision/client.ts';
import type { PresentedFrame } from './frame-log.ts';

export interface BenchRecord {
  method: CaptureMethod;
  /** Where the sample's main-thread span starts: its timer here, or the worker's report leaving (track processor). */
  spanStart: number;
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
  camera: { width: number; height: number; frameRate: number | null } | null;
  samples: BenchRecord[];
  frames: PresentedFrame[];
  errors: string[];
}

declare global {
  interface Window {
    __wardenBench?: BenchState;
  }
}

import type { FrameResult } from './analyser';
import type { PixelPath } from './session';

/** What the worker answers for one frame: the analysis, its timings and the size it was analysed at. */
export interface SampleTiming {
  /** Frame → RGBA in the frame buffer (includes waiting for a pulled frame). */
  readMs: number;
  /** The analysis itself. */
  analyseMs: number;
  /** Everything the worker did for this sample, from the call to the reply. */
  workerMs: number;
  pixelPath: PixelPath;
  /** `VideoFrame.timestamp` in µs, when the frame was a `VideoFrame`. */
  frameTimestampUs: number | null;
  /** `performance.timeOrigin + performance.now()` in the worker when the reply left. */
  repliedAt: number;
}

export interface Sample {
  result: FrameResult;
  timing: SampleTiming;
  /** The size the frame was analysed at. */
  width: number;
  height: number;
  /** True when the frame size differed from the session's and the analyser was made anew. */
  restarted: boolean;
}

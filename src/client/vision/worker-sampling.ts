/**
 * Sampling owned by the vision worker (the track processor's path): the
 * sample clock runs here, each sample takes its frame from the camera stream
 * the worker holds, and the main thread hears only what it needs — every
 * sample when its screen shows each one (the camera check, the benchmark), or
 * only the samples with events, the first one, and those where the face
 * appeared, left or moved (the jail: events go to the relay, the screen says
 * the camera is analysed, and the Warden's eye follows the face). A sample
 * with nothing to say costs the main thread nothing.
 */
import type { FrameFace, VisionEvents } from './analyser';
import { SampleTimer, type SampleClock } from './sample-timer';
import type { Sample } from './sample';

/** Which samples the main thread hears of. */
export type ReportPolicy = 'every' | 'events';

export interface SamplingOptions {
  report: ReportPolicy;
  intervalMs?: number;
  /** See `SampleTimerOptions.jitterMs` (the benchmark's). */
  jitterMs?: number;
}

/** What the worker posts to the main thread while it samples. */
export type SamplingReport =
  | {
      kind: 'sample';
      sample: Sample;
      /** The sample's time as given to the analyser (`Date.now()` in the worker). */
      timeMs: number;
      /** `performance.timeOrigin + performance.now()` in the worker when the sample was due. */
      dueAt: number;
      /** Frames analysed since the sampling started, this one included. */
      analysed: number;
    }
  | { kind: 'error'; message: string; analysed: number };

export interface WorkerSamplingOptions extends SamplingOptions {
  /** The frame for a sample due now; null when none came (a stalled or ended camera). */
  frame(): Promise<VideoFrame | null>;
  /** Analyses the frame (and closes it); `started` is `performance.now()` when the sample was due. */
  analyse(frame: VideoFrame, timeMs: number, started: number): Promise<Sample>;
  post(report: SamplingReport): void;
  clock?: SampleClock;
}

export function hasEvents(events: VisionEvents): boolean {
  return Object.values(events).some(Boolean);
}

/**
 * How far the face's centre moves, as a fraction of the frame, before the
 * main thread hears of it: the eye eases between positions, so a report a
 * second for a head that sways a little would buy nothing.
 */
const FACE_REPORT_STEP = 0.05;

/** Whether the eye should hear of `now` after it last heard of `last`. */
export function faceChanged(last: FrameFace | null, now: FrameFace | null): boolean {
  if (last === null || now === null) return last !== now;
  return Math.hypot(now.x - last.x, now.y - last.y) >= FACE_REPORT_STEP;
}

export class WorkerSampling {
  private readonly timer: SampleTimer;
  private analysed = 0;
  /** The face of the last sample the main thread heard of. */
  private reportedFace: FrameFace | null = null;

  constructor(private readonly options: WorkerSamplingOptions) {
    this.timer = new SampleTimer({
      intervalMs: options.intervalMs,
      jitterMs: options.jitterMs,
      clock: options.clock,
      sample: (timeMs) => this.sample(timeMs),
    });
  }

  start(): void {
    this.timer.start();
  }

  stop(): void {
    this.timer.stop();
  }

  private async sample(timeMs: number): Promise<void> {
    const started = performance.now();
    try {
      const frame = await this.options.frame();
      if (frame === null) return;
      if (!this.timer.active) {
        frame.close();
        return;
      }
      const sample = await this.options.analyse(frame, timeMs, started);
      this.analysed += 1;
      if (!this.timer.active) return;
      const { events, face } = sample.result;
      if (this.options.report === 'every' || this.analysed === 1 || hasEvents(events) || faceChanged(this.reportedFace, face)) {
        this.reportedFace = face;
        this.options.post({ kind: 'sample', sample, timeMs, dueAt: performance.timeOrigin + started, analysed: this.analysed });
      }
    } catch (error) {
      if (this.timer.active) this.options.post({ kind: 'error', message: error instanceof Error ? error.message : String(error), analysed: this.analysed });
    }
  }
}

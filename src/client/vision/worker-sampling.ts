/**
 * Sampling owned by the vision worker (the track processor's path): the
 * sample clock runs here, each sample takes its frame from the camera stream
 * the worker holds, and the main thread hears only what it needs — every
 * sample when its screen shows each one (the camera check, the benchmark), or
 * only the samples with events and the first one (the jail: events go to the
 * relay, and the screen says the camera is analysed). A sample with nothing to
 * say costs the main thread nothing.
 */
import type { VisionEvents } from './analyser';
import { SampleTimer, type SampleClock } from './sample-timer';
import type { Sample } from './worker';

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
  return events.motion || events.noMotion || events.nodding || events.darkness;
}

export class WorkerSampling {
  private readonly timer: SampleTimer;
  private analysed = 0;

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
      if (this.options.report === 'every' || this.analysed === 1 || hasEvents(sample.result.events)) {
        this.options.post({ kind: 'sample', sample, timeMs, dueAt: performance.timeOrigin + started, analysed: this.analysed });
      }
    } catch (error) {
      if (this.timer.active) this.options.post({ kind: 'error', message: error instanceof Error ? error.message : String(error), analysed: this.analysed });
    }
  }
}

/**
 * The once-a-second sample clock, shared by the main-thread sampler
 * (capture.ts, for the capture methods that read the `<video>` element) and
 * the vision worker (worker-sampling.ts, for the frames it owns).
 *
 * A `setTimeout` chain takes one sample at a time: the next timer is set when
 * the sample is done, aimed at the next whole interval; missed samples (a slow
 * device, a sleeping tab) are skipped, not caught up in a burst. The time
 * given to a sample is the clock's `now()` (`Date.now()`), so a fake clock
 * drives both the timer and the time.
 */

/** What the timer needs of a clock; `SYSTEM_CLOCK` is the global one, looked up at each call so that fake timers installed later still drive it. */
export interface SampleClock {
  now(): number;
  /** The callback may return a promise (a sample); a fake clock may wait for it. */
  setTimeout(callback: () => unknown, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const SYSTEM_CLOCK: SampleClock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export const SAMPLE_INTERVAL_MS = 1000;

export interface SampleTimerOptions {
  intervalMs?: number;
  /**
   * Moves each sample by up to this many ms either way (the mean interval
   * stays). The benchmark uses it so that samples meet the camera's frames at
   * every phase, not at one fixed offset from them.
   */
  jitterMs?: number;
  clock?: SampleClock;
  /** Takes one sample at `timeMs` (the clock's time); the next is scheduled when it settles. */
  sample(timeMs: number): Promise<void>;
}

export class SampleTimer {
  private readonly interval: number;
  private readonly jitter: number;
  private readonly clock: SampleClock;
  private timer: unknown = null;
  private due = 0;
  private running = false;

  constructor(private readonly options: SampleTimerOptions) {
    this.interval = options.intervalMs ?? SAMPLE_INTERVAL_MS;
    this.jitter = Math.min(options.jitterMs ?? 0, this.interval / 2);
    this.clock = options.clock ?? SYSTEM_CLOCK;
  }

  get active(): boolean {
    return this.running;
  }

  /** The first sample at once, then one an interval. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.due = this.clock.now();
    this.timer = this.clock.setTimeout(() => this.tick(), 0);
  }

  stop(): void {
    this.running = false;
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
  }

  private schedule(): void {
    if (!this.running) return;
    const now = this.clock.now();
    this.due += this.interval;
    if (this.due <= now) {
      // Fell behind: skip the missed samples.
      this.due += Math.ceil((now - this.due + 1) / this.interval) * this.interval;
    }
    const jitter = this.jitter > 0 ? (Math.random() * 2 - 1) * this.jitter : 0;
    this.timer = this.clock.setTimeout(() => this.tick(), Math.max(0, this.due - now + jitter));
  }

  private async tick(): Promise<void> {
    this.timer = null;
    try {
      await this.options.sample(this.clock.now());
    } finally {
      this.schedule();
    }
  }
}

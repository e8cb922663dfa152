/**
 * A worker that runs a pass every `intervalMs` and on demand (`tick`), one
 * pass at a time: the trigger deliveries and the reminders. A subclass says
 * what a pass does; errors are the pass's own to catch and log.
 */
export abstract class PeriodicWorker {
  private interval: NodeJS.Timeout | null = null;
  /** The last pass queued, running or done: passes run one after another. */
  private latest: Promise<void> = Promise.resolve();
  /** A pass queued behind the running one and not begun yet: ticks meanwhile share it. */
  private waiting: Promise<void> | null = null;
  private stopped = false;

  constructor(private readonly intervalMs: number) {}

  protected abstract pass(): Promise<void>;

  start(): void {
    this.stopped = false;
    if (this.interval !== null) return;
    this.interval = setInterval(() => void this.tick(), this.intervalMs);
    this.interval.unref();
  }

  /** No pass begins after this; the one under way ends first (the database is about to close). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.interval !== null) clearInterval(this.interval);
    this.interval = null;
    await this.latest;
  }

  /** Resolves when a pass that began after this call has ended (`POST /dev/clock` and the tests wait on it). */
  tick(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.waiting === null) {
      const next = this.latest.then(() => {
        this.waiting = null;
        return this.stopped ? undefined : this.pass();
      });
      this.waiting = next;
      this.latest = next;
    }
    return this.waiting;
  }
}

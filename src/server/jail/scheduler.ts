import type { FastifyBaseLogger } from 'fastify';
import type { JailEngine } from './engine.ts';

/** How often every server looks for due work. */
export const SCHEDULER_INTERVAL_MS = 1_000;

/** Patrol images are kept this long after their jail ends. */
export const PATROL_RETENTION_MS = 7 * 24 * 3_600_000;

/**
 * The jail scheduler (docs/jail.md, Scheduler): each tick starts the jails
 * whose time has come, finishes those whose end has passed, raises leave
 * and break overruns and purges old patrol images. Every step is claimed in
 * the database, so any number of servers can tick at once.
 */
export class JailScheduler {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;

  constructor(
    private readonly engine: JailEngine,
    private readonly log: FastifyBaseLogger,
  ) {}

  start(): void {
    this.stopped = false;
    this.timer ??= setInterval(() => void this.tick(), SCHEDULER_INTERVAL_MS);
    this.timer.unref();
  }

  /** Stops the loop; a pass under way ends, and none is started after it (the database is about to close). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.again = false;
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /**
   * Runs one pass now; if a pass is running, one more after it. Resolves
   * when a pass that began after this call has ended (tests and
   * `POST /dev/clock` wait on it).
   */
  tick(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.running !== null) {
      this.again = true;
      return this.running.then(() => this.running ?? undefined);
    }
    this.running = this.pass().finally(() => {
      this.running = null;
      if (this.again) {
        this.again = false;
        void this.tick();
      }
    });
    return this.running;
  }

  private async pass(): Promise<void> {
    try {
      await this.engine.startDue();
      await this.engine.finishDue();
      await this.engine.raiseOverruns();
      await this.engine.purgePatrols(PATROL_RETENTION_MS);
    } catch (error) {
      this.log.error({ err: error }, 'scheduler pass failed');
    }
  }
}

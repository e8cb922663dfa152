import type { FastifyBaseLogger } from 'fastify';
import { PATROL_RETENTION_DAYS } from '../../shared/constants.ts';
import { DAY_MS } from '../../shared/durations.ts';
import type { Transitions } from './transitions.ts';

/** How often every server looks for due work. */
export const SCHEDULER_INTERVAL_MS = 1_000;

/** Patrol images are kept this long after their jail ends. */
export const PATROL_RETENTION_MS = PATROL_RETENTION_DAYS * DAY_MS;

/** How often (in real time) a server purges rows past their time (services/purge.ts); an explicit `tick()` purges at once. */
export const PURGE_INTERVAL_MS = 3_600_000;

/** The engine's share of a pass. */
export type ScheduledWork = Pick<Transitions, 'startDue' | 'finishDue' | 'raiseOverruns' | 'purgePatrols'>;

/**
 * The jail scheduler (docs/jail.md, Scheduler): each tick starts the jails
 * whose time has come, finishes those whose end has passed, raises leave
 * and break overruns and purges old patrol images. Every step is claimed in
 * the database, so any number of servers can tick at once. Hourly, and on
 * each explicit `tick()`, it also runs `purge` (expired tokens, codes,
 * counters and sessions).
 */
export class JailScheduler {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private purgeRequested = false;
  private lastPurgeAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly engine: ScheduledWork,
    private readonly log: FastifyBaseLogger,
    private readonly purge: () => Promise<void>,
  ) {}

  start(): void {
    this.stopped = false;
    this.timer ??= setInterval(() => void this.runPass(), SCHEDULER_INTERVAL_MS);
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
   * `POST /dev/clock` wait on it). It purges too, as time may have moved.
   */
  tick(): Promise<void> {
    this.purgeRequested = true;
    return this.runPass();
  }

  private runPass(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.running !== null) {
      this.again = true;
      return this.running.then(() => this.running ?? undefined);
    }
    this.running = this.pass().finally(() => {
      this.running = null;
      if (this.again) {
        this.again = false;
        void this.runPass();
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
    if (!this.purgeRequested && performance.now() - this.lastPurgeAt < PURGE_INTERVAL_MS) return;
    this.purgeRequested = false;
    this.lastPurgeAt = performance.now();
    try {
      await this.purge();
    } catch (error) {
      this.log.error({ err: error }, 'purge failed');
    }
  }
}

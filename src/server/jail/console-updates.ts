import type { FastifyInstance } from 'fastify';
import type { Server } from 'socket.io';
import type { ServerToWardenEvents } from '../../shared/relay.ts';
import { liveJails } from './live-view.ts';
import { WARDENS_ROOM } from './relay-sockets.ts';

/** Console updates are gathered for this long and sent together. */
const CONSOLE_FLUSH_MS = 500;

/**
 * The consoles' list of live jails kept current (docs/jail.md, Console):
 * the jails that changed within `CONSOLE_FLUSH_MS` are read once and sent
 * together, or the whole list when a jail came or went. With no console on
 * any server, nothing is read.
 */
export class ConsoleUpdates {
  private readonly pendingJails = new Set<number>();
  private pendingList = false;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    private readonly io: Server,
    private readonly app: Pick<FastifyInstance, 'db' | 'clock' | 'log'>,
  ) {}

  /** Notes jails that changed (`listChanged`: one came or went); they are sent with the next batch. */
  changed(reservationIds: readonly number[], listChanged: boolean): void {
    if (this.stopped) return;
    for (const id of reservationIds) this.pendingJails.add(id);
    this.pendingList ||= listChanged;
    this.timer ??= setTimeout(() => {
      this.send().catch((error: unknown) => this.app.log.error({ err: error }, 'console update failed'));
    }, CONSOLE_FLUSH_MS);
  }

  /** Drops the batch not sent yet and takes no more: the server is stopping, and its database closes after it. */
  stop(): void {
    this.stopped = true;
    if (this.timer !== null) clearTimeout(this.timer);
  }

  private async send(): Promise<void> {
    this.timer = null;
    const ids = [...this.pendingJails];
    const listChanged = this.pendingList;
    this.pendingJails.clear();
    this.pendingList = false;
    // No console anywhere: nothing to read (a console gets the whole list when it connects).
    if ((await this.io.in(WARDENS_ROOM).fetchSockets()).length === 0) return;
    const now = this.app.clock.now();
    if (listChanged) {
      this.emitToWardens('live_jails_to_warden', { jails: await liveJails(this.app.db, now), serverTime: now });
      return;
    }
    for (const jail of await liveJails(this.app.db, now, ids)) this.emitToWardens('live_jail_to_warden', { jail, serverTime: now });
  }

  private emitToWardens<Event extends keyof ServerToWardenEvents>(event: Event, ...args: Parameters<ServerToWardenEvents[Event]>): void {
    this.io.to(WARDENS_ROOM).emit(event, ...args);
  }
}

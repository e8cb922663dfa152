import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { JAIL_MAX_LOGS } from '../../shared/constants.ts';
import type { ActivityLog } from '../../shared/api/reservation.ts';
import type { MessageKey } from '../../shared/messages.ts';
import type { ActivityLogEntry, ServerToGuestEvents } from '../../shared/relay.ts';
import type { Config } from '../config.ts';
import type { Database, PrepareNamed } from '../db/database.ts';
import { activityLogs, guests, jails, type GuestRow, type JailRow } from '../db/schema/index.ts';
import type { Clock } from '../lib/clock.ts';
import type { Outbox } from '../lib/outbox.ts';
import { guestTimeZone } from '../services/reservations.ts';
import { featureImagesOf } from './live-view.ts';
import { respond, type WardenMoment } from './responder.ts';

/**
 * Decides how a change to a jail is made (docs/jail.md): in the database
 * first, in one transaction, with the events it causes queued and sent only
 * once it is committed. Every other module of the engine changes jails
 * through here.
 */

/** A refusal the sender reads: its message key, answered as `{ok: false, error}` in their language. */
export class RelayRefusal extends Error {
  constructor(
    readonly key: MessageKey,
    readonly params: Readonly<Record<string, string | number>> = {},
  ) {
    super(key);
    this.name = 'RelayRefusal';
  }
}

/** How the engine reaches the sockets; the relay implements it. */
export interface RelayEmitter {
  toGuest<Event extends keyof ServerToGuestEvents>(guestId: number, event: Event, ...args: Parameters<ServerToGuestEvents[Event]>): void;
  /** A new log of a jail, for the consoles that have it open. */
  logToWatchers(reservationId: number, log: ActivityLogEntry & { id: number }): void;
  /** Live jails started, changed or finished: the consoles get them again. */
  liveJailsChanged(reservationIds: readonly number[], listChanged: boolean): void;
}

export interface JailEngineOptions {
  db: Database;
  prepareNamed: PrepareNamed;
  clock: Clock;
  outbox: Outbox;
  config: Config;
  log: FastifyBaseLogger;
  /** Drops the guest's cached reads (their reservations changed). */
  invalidateGuest(guestId: number): Promise<void>;
}

/** The answer to an event that makes a log: stored now, or a retry of one stored before. */
export interface Stored {
  duplicate: boolean;
}

export type Transaction = Database;

/** What a change sends once it is committed. */
export type AfterCommit = (() => void | Promise<void>)[];

export class JailChanges {
  private emitter: RelayEmitter | null = null;

  constructor(readonly options: JailEngineOptions) {}

  /** The relay connects itself once its server exists. */
  connect(emitter: RelayEmitter): void {
    this.emitter = emitter;
  }

  get emit(): RelayEmitter {
    if (this.emitter === null) throw new Error('the relay is not connected to the jail engine');
    return this.emitter;
  }

  get db(): Database {
    return this.options.db;
  }

  now(): number {
    return this.options.clock.now();
  }

  /** Runs `change` in a transaction, then what it queued to send. */
  async change<Result>(change: (tx: Transaction, after: AfterCommit) => Promise<Result>): Promise<Result> {
    const after: AfterCommit = [];
    const result = await this.db.transaction((tx) => change(tx, after));
    for (const send of after) await send();
    return result;
  }

  /**
   * Adds a log to a jail; with an `eventId`, once: a retry returns null.
   * It counts towards the jail's cap (log-writer.ts), which only the
   * guest's own events must check first (`assertRoomForLog`): what the
   * server logs itself always goes in. Queues the log for the consoles that
   * have the jail open.
   */
  async addLog(tx: Transaction, after: AfterCommit, reservationId: number, entry: ActivityLog, eventId: string | null = null) {
    const [row] = await tx
      .insert(activityLogs)
      .values({ reservationId, time: entry.time, entry, eventId })
      .onConflictDoNothing()
      .returning({ id: activityLogs.id });
    if (row === undefined) return null;
    await tx
      .update(jails)
      .set({ logCount: sql`${jails.logCount} + 1` })
      .where(eq(jails.reservationId, reservationId));
    after.push(() => this.emit.logToWatchers(reservationId, { ...entry, id: row.id }));
    return row.id;
  }

  /** Refuses an event of the guest's device that would log in a jail (locked for the transaction) already at its cap. */
  assertRoomForLog(jail: JailRow): void {
    if (jail.logCount >= JAIL_MAX_LOGS) throw new RelayRefusal('jail_logs_full', { max: JAIL_MAX_LOGS });
  }

  /**
   * The virtual Warden speaks `moment` to the guest: dialog logs, and the
   * lines sent after commit. The answer to a status change and the finish
   * are only logged: the guest's device says them itself, in the same words
   * (shared/device-lines.ts), so that no line is said twice.
   */
  async speak(tx: Transaction, after: AfterCommit, jail: JailRow, guest: GuestRow, moment: WardenMoment) {
    const now = this.now();
    const lines = respond(moment, guest.language, now, guestTimeZone(guest));
    const saidOnDevice = moment.kind === 'status' || moment.kind === 'finish';
    for (const text of lines) {
      await this.addLog(tx, after, jail.reservationId, { type: 'dialog', time: now, dialog: { type: 1, text, by: 'virtual' } });
      if (!saidOnDevice) after.push(() => this.emit.toGuest(jail.guestId, 'warden_dialog_event_to_guest', { dialog: { type: 1, text, by: 'virtual' } }));
    }
  }

  async guestRow(tx: Transaction, guestId: number): Promise<GuestRow> {
    const [guest] = await tx.select().from(guests).where(eq(guests.id, guestId));
    if (guest === undefined) throw new Error(`guest ${guestId} is gone`);
    return guest;
  }

  /** The live jail `which` names, locked for this transaction, or `refusal`. */
  async lockLive(tx: Transaction, which: SQL, refusal: MessageKey): Promise<JailRow> {
    const [jail] = await tx
      .select()
      .from(jails)
      .where(and(which, eq(jails.state, 'live')))
      .limit(1)
      .for('update');
    if (jail === undefined) throw new RelayRefusal(refusal);
    return jail;
  }

  /** Sets the available commands of the live jail `which` names; the consoles see it. */
  async setCommands(which: SQL, commands: number[], refusal: MessageKey) {
    const [jail] = await this.db
      .update(jails)
      .set({ commands })
      .where(and(which, eq(jails.state, 'live')))
      .returning({ reservationId: jails.reservationId, guestId: jails.guestId });
    if (jail === undefined) throw new RelayRefusal(refusal);
    this.emit.liveJailsChanged([jail.reservationId], false);
    return jail;
  }

  /** Sends the guest's devices their whitelist as it is now (a scene was approved or removed). */
  async sendFeatureImages(guestId: number): Promise<void> {
    this.emit.toGuest(guestId, 'feature_images_to_guest', { featureImages: await featureImagesOf(this.db, guestId) });
  }
}

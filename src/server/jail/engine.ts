import { and, asc, count, eq, gt, isNull, lte, sql, type SQL } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { PATROL_IMAGE_MAX_SIDE_PX, PATROL_MAX_LOGS_PER_SESSION } from '../../shared/constants.ts';
import {
  ALERT_WINDOW_MS,
  alertsForceEnd,
  BREAK_MS,
  FORCED_ENDS_SUSPENSION,
  IGNORED_JAILS_SUSPENSION,
  LEAVE_SEAT_ALLOWANCE_MS,
  suspensionEnd,
  type SuspensionRule,
} from '../../shared/penalties.ts';
import { message, type MessageKey } from '../../shared/messages.ts';
import type { ActivityLog, MotionKind } from '../../shared/api/reservation.ts';
import {
  ALERT_MOTION_KINDS,
  PATROL_IMAGE_MAX_BYTES,
  type ActivityLogEntry,
  type AlertKind,
  type FinishKind,
  type GuestJail,
  type JailStatus,
  type RelayWarden,
  type ServerToGuestEvents,
} from '../../shared/relay.ts';
import { formatDateTime } from '../../shared/time-zone.ts';
import { appUrl, type Config } from '../config.ts';
import type { Database, NamedQuery } from '../db/database.ts';
import { activityLogs, featureImages, guests, jailAlerts, jails, lazyAlerts, reservations, wardens, type GuestRow, type JailRow } from '../db/schema/index.ts';
import type { Clock } from '../lib/clock.ts';
import type { Outbox } from '../lib/outbox.ts';
import { finishOccurrence, guestTimeZone } from '../services/reservations.ts';
import { recordTriggerDelivery } from '../services/triggers/deliveries.ts';
import { addJailedHours, jailedHours } from '../services/payments/usage.ts';
import { endedPauses } from '../../shared/focused-time.ts';
import { jpegDataUrlSize } from './jpeg.ts';
import { guestJailOf, openJailOf, wardenOf, workOf } from './live-view.ts';
import { respond, type WardenMoment } from './responder.ts';

/**
 * The jail engine (docs/jail.md): every change to a jail happens here, in
 * the database first; the events it causes are sent once the change is
 * committed. The relay (relay.ts) calls the guest and warden operations;
 * the scheduler (scheduler.ts) calls `startDue`, `finishDue`,
 * `raiseOverruns` and `purgePatrols`.
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
  queryNamed: NamedQuery;
  clock: Clock;
  outbox: Outbox;
  config: Config;
  log: FastifyBaseLogger;
  /** Drops the guest's cached reads (their reservations changed). */
  invalidateGuest(guestId: number): Promise<void>;
}

/** How long after a jail finishes its report still takes late events (docs/jail.md, The report). */
export const LOGS_SETTLE_MS = 2 * 60_000;

/** The answer to an event that makes a log: stored now, or a retry of one stored before. */
export interface Stored {
  duplicate: boolean;
}

type Transaction = Database;

/** What adding a streamed log answers: the open jail it went to, and the new log's id (null: a retry). */
interface AppendedRow {
  reservation_id: number;
  state: 'live' | 'finished';
  entered_at: number | null;
  log_id: number | null;
}

interface PendingLog {
  guestId: number;
  entry: ActivityLog;
  eventId: string;
  resolve(row: AppendedRow | undefined): void;
  reject(error: unknown): void;
}

/** What the streamed events need of the jail they went to. */
interface StreamedJail {
  reservationId: number;
  state: 'live' | 'finished';
}

/** Whether the reservation is a try-anyway jail. */
async function isTrial(tx: Transaction, reservationId: number): Promise<boolean> {
  const [row] = await tx.select({ isTrial: reservations.isTrial }).from(reservations).where(eq(reservations.id, reservationId));
  return row?.isTrial === true;
}

function isAlertKind(kind: MotionKind): kind is MotionKind & AlertKind {
  return ALERT_MOTION_KINDS.includes(kind);
}

/** What a change sends once it is committed. */
type AfterCommit = (() => void | Promise<void>)[];

export class JailEngine {
  private emitter: RelayEmitter | null = null;
  /** Motion and dialog logs waiting for the next batch (`flushLogs`). */
  private readonly pendingLogs: PendingLog[] = [];

  constructor(private readonly options: JailEngineOptions) {}

  /** The relay connects itself once its server exists. */
  connect(emitter: RelayEmitter): void {
    this.emitter = emitter;
  }

  private get emit(): RelayEmitter {
    if (this.emitter === null) throw new Error('the relay is not connected to the jail engine');
    return this.emitter;
  }

  private get db(): Database {
    return this.options.db;
  }

  private now(): number {
    return this.options.clock.now();
  }

  /** Runs `change` in a transaction, then what it queued to send. */
  private async change<Result>(change: (tx: Transaction, after: AfterCommit) => Promise<Result>): Promise<Result> {
    const after: AfterCommit = [];
    const result = await this.db.transaction((tx) => change(tx, after));
    for (const send of after) await send();
    return result;
  }

  // --- Logs --------------------------------------------------------------------

  /**
   * Adds a log to a jail; with an `eventId`, once: a retry returns null.
   * Queues the log for the consoles that have the jail open.
   */
  private async addLog(tx: Transaction, after: AfterCommit, reservationId: number, entry: ActivityLog, eventId: string | null = null) {
    const [row] = await tx
      .insert(activityLogs)
      .values({ reservationId, time: entry.time, entry, eventId })
      .onConflictDoNothing()
      .returning({ id: activityLogs.id });
    if (row === undefined) return null;
    after.push(() => this.emit.logToWatchers(reservationId, { ...entry, id: row.id }));
    return row.id;
  }

  /** The virtual Warden speaks `moment` to the guest: dialog logs, and the lines sent after commit. */
  private async speak(tx: Transaction, after: AfterCommit, jail: JailRow, guest: GuestRow, moment: WardenMoment) {
    const now = this.now();
    const lines = respond(moment, guest.language, now, guestTimeZone(guest));
    for (const text of lines) {
      await this.addLog(tx, after, jail.reservationId, { type: 'dialog', time: now, dialog: { type: 1, text } });
      after.push(() => this.emit.toGuest(jail.guestId, 'warden_dialog_event_to_guest', { dialog: { type: 1, text, by: 'virtual' } }));
    }
  }

  private async guestRow(tx: Transaction, guestId: number): Promise<GuestRow> {
    const [guest] = await tx.select().from(guests).where(eq(guests.id, guestId));
    if (guest === undefined) throw new Error(`guest ${guestId} is gone`);
    return guest;
  }

  /** The live jail `which` names, locked for this transaction, or `refusal`. */
  private async lockLive(tx: Transaction, which: SQL, refusal: MessageKey): Promise<JailRow> {
    const [jail] = await tx
      .select()
      .from(jails)
      .where(and(which, eq(jails.state, 'live')))
      .limit(1)
      .for('update');
    if (jail === undefined) throw new RelayRefusal(refusal);
    return jail;
  }

  private lockLiveJailOfGuest(tx: Transaction, guestId: number): Promise<JailRow> {
    return this.lockLive(tx, eq(jails.guestId, guestId), 'no_live_jail');
  }

  private lockLiveJail(tx: Transaction, reservationId: number): Promise<JailRow> {
    return this.lockLive(tx, eq(jails.reservationId, reservationId), 'jail_not_live');
  }

  // --- The scheduler's transitions -------------------------------------------------

  /**
   * Starts every jail whose start has come and whose end has not. The insert
   * is the claim: one row per reservation, whichever server gets there first.
   */
  async startDue(): Promise<number> {
    const now = this.now();
    const started = await this.db
      .insert(jails)
      .select(
        this.db
          .select({
            reservationId: reservations.id,
            guestId: reservations.guestId,
            wardenId: sql<number | null>`null`.as('warden_id'),
            startTime: reservations.startTime,
            endTime: reservations.endTime,
            state: sql<'live'>`'live'`.as('state'),
            startedAt: sql<number>`${now}::bigint`.as('started_at'),
            enteredAt: sql<number | null>`null`.as('entered_at'),
            jailStatus: sql<JailStatus>`'injail'`.as('jail_status'),
            statusSince: sql<number>`${now}::bigint`.as('status_since'),
            breakMs: sql<number>`0::bigint`.as('break_ms'),
            awayMs: sql<number>`0::bigint`.as('away_ms'),
            overrunAlerted: sql<boolean>`false`.as('overrun_alerted'),
            commands: sql<number[]>`ARRAY[1,2,3,4]::integer[]`.as('commands'),
            lastAliveAt: sql<number | null>`null`.as('last_alive_at'),
            patrolCount: sql<number>`0`.as('patrol_count'),
            finishedAt: sql<number | null>`null`.as('finished_at'),
            finish: sql<FinishKind | null>`null`.as('finish'),
            logsSettleAt: sql<number | null>`null`.as('logs_settle_at'),
            patrolsPurgedAt: sql<number | null>`null`.as('patrols_purged_at'),
          })
          .from(reservations)
          .where(
            and(
              isNull(reservations.finishReason),
              lte(reservations.startTime, now),
              gt(reservations.endTime, now),
              sql`not exists (select 1 from ${jails} where ${jails.reservationId} = ${reservations.id})`,
            ),
          ),
      )
      .onConflictDoNothing()
      .returning();
    if (started.length === 0) return 0;
    await this.assignWardens(started);
    for (const jail of started) {
      await this.change(async (tx, after) => {
        const [current] = await tx.select().from(jails).where(eq(jails.reservationId, jail.reservationId));
        if (current === undefined) return;
        const guest = await this.guestRow(tx, jail.guestId);
        const work = await workOf(tx, jail.reservationId);
        const warden = await wardenOf(tx, current.wardenId);
        after.push(() => this.emit.toGuest(jail.guestId, 'jail_start_to_guest', { jail: guestJailOf(current, work), warden }));
        await this.speak(tx, after, current, guest, { kind: 'start', work, endTime: current.endTime });
      });
      await this.options.invalidateGuest(jail.guestId);
    }
    this.emit.liveJailsChanged(
      started.map((jail) => jail.reservationId),
      true,
    );
    return started.length;
  }

  /** Each new jail gets the warden with the fewest live jails (none while no warden exists). */
  private async assignWardens(started: readonly JailRow[]): Promise<void> {
    const loads = await this.db
      .select({ id: wardens.id, live: sql<number>`(select count(*) from ${jails} where ${jails.wardenId} = ${wardens.id} and ${jails.state} = 'live')`.mapWith(Number) })
      .from(wardens)
      .orderBy(wardens.id);
    if (loads.length === 0) return;
    for (const jail of started) {
      loads.sort((a, b) => a.live - b.live || a.id - b.id);
      const [least] = loads;
      if (least === undefined) return;
      least.live += 1;
      await this.db.update(jails).set({ wardenId: least.id }).where(eq(jails.reservationId, jail.reservationId));
    }
  }

  /** Finishes the live jails whose end has come, one claimed row at a time. */
  async finishDue(limit = 500): Promise<number> {
    let finished = 0;
    while (finished < limit) {
      const now = this.now();
      const done = await this.change(async (tx, after) => {
        const [jail] = await tx
          .select()
          .from(jails)
          .where(and(eq(jails.state, 'live'), lte(jails.endTime, now)))
          .orderBy(jails.endTime)
          .limit(1)
          .for('update', { skipLocked: true });
        if (jail === undefined) return false;
        await this.finish(tx, after, jail, jail.enteredAt === null ? 'ignored' : 'ended');
        return true;
      });
      if (!done) break;
      finished += 1;
    }
    return finished;
  }

  /**
   * Finishes a locked live jail: its state, its reservation (rolled forward),
   * what the kind of finish brings (a lazy alert, a suspension, the early
   * finish block) and the closing line; the guest hears of it after commit.
   */
  private async finish(tx: Transaction, after: AfterCommit, jail: JailRow, kind: FinishKind): Promise<void> {
    const now = this.now();
    await tx
      .update(jails)
      .set({ state: 'finished', finish: kind, finishedAt: now, logsSettleAt: now + LOGS_SETTLE_MS })
      .where(eq(jails.reservationId, jail.reservationId));
    await finishOccurrence(tx, jail.reservationId, now);
    const guest = await this.guestRow(tx, jail.guestId);
    const work = await workOf(tx, jail.reservationId);
    // A try-anyway jail (docs/try-anyway.md) counts for nothing.
    const counts = !(await isTrial(tx, jail.reservationId));
    if (counts) await addJailedHours(tx, guest, jail.reservationId, jailedHours(jail, now), now);
    if (counts && kind === 'ignored') await this.countIgnored(tx, after, jail, guest, work);
    if (counts && kind === 'forced') await this.countForced(tx, jail.guestId);
    if (counts && kind === 'early' && (guest.earlyFinishBlockUntil ?? 0) < jail.endTime) {
      await tx.update(guests).set({ earlyFinishBlockUntil: jail.endTime, updatedAt: now }).where(eq(guests.id, guest.id));
    }
    // The guest's trigger is called by the delivery worker (docs/collaboration.md).
    if (counts) await recordTriggerDelivery(tx, jail, guest, work, now);
    await this.speak(tx, after, jail, guest, { kind: 'finish', finish: kind, work });
    after.push(() => this.emit.toGuest(jail.guestId, 'jail_finish_to_guest', { reservationId: jail.reservationId, finish: kind }));
    after.push(() => this.options.invalidateGuest(jail.guestId));
    after.push(() => this.emit.liveJailsChanged([jail.reservationId], true));
  }

  /** An ignored jail: a lazy alert, a mail (and its log), and at three within a week a suspension. */
  private async countIgnored(tx: Transaction, after: AfterCommit, jail: JailRow, guest: GuestRow, work: string): Promise<void> {
    const now = this.now();
    await tx.insert(lazyAlerts).values({ guestId: guest.id, reservationId: jail.reservationId, createdAt: now });
    const recent = await tx
      .select({ createdAt: lazyAlerts.createdAt })
      .from(lazyAlerts)
      .where(and(eq(lazyAlerts.guestId, guest.id), gt(lazyAlerts.createdAt, now - IGNORED_JAILS_SUSPENSION.windowMs)))
      .orderBy(asc(lazyAlerts.createdAt));
    await this.suspendAfter(tx, guest.id, recent.map((row) => row.createdAt), IGNORED_JAILS_SUSPENSION);
    const subject = message(guest.language, 'ignored_jail_subject');
    const text = message(guest.language, 'ignored_jail_text', {
      work: work === '' ? '-' : work,
      start: formatDateTime(jail.startTime, guestTimeZone(guest), guest.language),
      count: recent.length,
      url: `${appUrl(this.options.config)}/reservations`,
    });
    await this.addLog(tx, after, jail.reservationId, { type: 'mail', time: now, mail: { text: subject } });
    after.push(() => this.options.outbox.send({ channel: 'email', to: guest.email, subject, text }));
  }

  /** Three forced ends within a week suspend booking until 7 days after the oldest of them. */
  private async countForced(tx: Transaction, guestId: number): Promise<void> {
    const now = this.now();
    const recent = await tx
      .select({ finishedAt: jails.finishedAt })
      .from(jails)
      .where(
        and(
          eq(jails.guestId, guestId),
          eq(jails.finish, 'forced'),
          gt(jails.finishedAt, now - FORCED_ENDS_SUSPENSION.windowMs),
          sql`not exists (select 1 from ${reservations} where ${reservations.id} = ${jails.reservationId} and ${reservations.isTrial})`,
        ),
      )
      .orderBy(asc(jails.finishedAt));
    await this.suspendAfter(tx, guestId, recent.map((row) => row.finishedAt ?? now), FORCED_ENDS_SUSPENSION);
  }

  /** Suspends the guest as `rule` says of the events at `times`, if it does. */
  private async suspendAfter(tx: Transaction, guestId: number, times: readonly number[], rule: SuspensionRule) {
    const until = suspensionEnd(rule, times, this.now());
    if (until === null) return;
    await tx
      .update(guests)
      .set({ suspendedUntil: sql`greatest(coalesce(${guests.suspendedUntil}, 0), ${until})`, updatedAt: this.now() })
      .where(eq(guests.id, guestId));
  }

  /** An alert inside a jail: logged, answered by the Warden, and the fourth within 20 minutes ends the jail. */
  private async raiseAlert(tx: Transaction, after: AfterCommit, jail: JailRow, kind: AlertKind): Promise<void> {
    const now = this.now();
    await tx.insert(jailAlerts).values({ reservationId: jail.reservationId, kind, time: now });
    const [window] = await tx
      .select({ alerts: count() })
      .from(jailAlerts)
      .where(and(eq(jailAlerts.reservationId, jail.reservationId), gt(jailAlerts.time, now - ALERT_WINDOW_MS)));
    const alertsInWindow = window?.alerts ?? 1;
    const guest = await this.guestRow(tx, jail.guestId);
    await this.speak(tx, after, jail, guest, { kind: 'alert', alert: kind, alertsInWindow });
    if (alertsForceEnd(alertsInWindow)) await this.finish(tx, after, jail, 'forced');
    else after.push(() => this.emit.liveJailsChanged([jail.reservationId], false));
  }

  /** A leave over 5 minutes or a break over 20 raises one alert each, with a reminder. */
  async raiseOverruns(): Promise<number> {
    const now = this.now();
    const due = await this.db
      .select({ reservationId: jails.reservationId })
      .from(jails)
      .where(
        and(
          eq(jails.state, 'live'),
          eq(jails.overrunAlerted, false),
          sql`((${jails.jailStatus} = 'leaving' and ${jails.statusSince} <= ${now - LEAVE_SEAT_ALLOWANCE_MS})
            or (${jails.jailStatus} = 'breaking' and ${jails.statusSince} <= ${now - BREAK_MS}))`,
        ),
      );
    let raised = 0;
    for (const { reservationId } of due) {
      const didRaise = await this.change(async (tx, after) => {
        const [jail] = await tx
          .update(jails)
          .set({ overrunAlerted: true })
          .where(and(eq(jails.reservationId, reservationId), eq(jails.state, 'live'), eq(jails.overrunAlerted, false)))
          .returning();
        if (jail === undefined) return false;
        await this.raiseAlert(tx, after, jail, jail.jailStatus === 'breaking' ? 'break_overrun' : 'leave_overrun');
        return true;
      });
      if (didRaise) raised += 1;
    }
    return raised;
  }

  /** Deletes the patrol images of jails that ended 7 days ago or more; the rest of their reports stay. */
  async purgePatrols(retentionMs: number, limit = 100): Promise<number> {
    const now = this.now();
    const due = await this.db
      .select({ reservationId: jails.reservationId })
      .from(jails)
      .where(and(eq(jails.state, 'finished'), isNull(jails.patrolsPurgedAt), lte(jails.finishedAt, now - retentionMs)))
      .limit(limit);
    for (const { reservationId } of due) {
      await this.db.transaction(async (tx) => {
        await tx.delete(activityLogs).where(and(eq(activityLogs.reservationId, reservationId), sql`${activityLogs.entry}->>'type' = 'patrol'`));
        await tx.update(jails).set({ patrolsPurgedAt: now }).where(eq(jails.reservationId, reservationId));
      });
    }
    return due.length;
  }

  // --- From the guest's device ------------------------------------------------------

  /**
   * The guest's device reports in (it connected, or its alive check came):
   * the first report of a jail marks it entered. Returns the live jail and
   * whether this was the first report, or null without a live jail.
   */
  private async reportIn(guestId: number): Promise<{ jail: JailRow; firstEntry: boolean } | null> {
    const now = this.now();
    const [before] = await this.db
      .select({ enteredAt: jails.enteredAt })
      .from(jails)
      .where(and(eq(jails.guestId, guestId), eq(jails.state, 'live')))
      .limit(1);
    if (before === undefined) return null;
    const [jail] = await this.db
      .update(jails)
      .set({ lastAliveAt: now, enteredAt: sql`coalesce(${jails.enteredAt}, ${now})` })
      .where(and(eq(jails.guestId, guestId), eq(jails.state, 'live')))
      .returning();
    if (jail === undefined) return null;
    return { jail, firstEntry: before.enteredAt === null };
  }

  /**
   * `initialize_from_guest`: the guest's whitelist, and their live jail if
   * one runs: the start for a first entry, the resume (with the status to
   * restore) for a device coming back.
   */
  async initialize(guestId: number, send: <Event extends keyof ServerToGuestEvents>(event: Event, ...args: Parameters<ServerToGuestEvents[Event]>) => void): Promise<GuestJail | null> {
    send('feature_images_to_guest', { featureImages: await this.featureImagesOf(guestId) });
    const reported = await this.reportIn(guestId);
    if (reported === null) return null;
    const { jail, firstEntry } = reported;
    const work = await workOf(this.db, jail.reservationId);
    const warden = await wardenOf(this.db, jail.wardenId);
    const guestJail = guestJailOf(jail, work);
    if (firstEntry) {
      // A device that was not there at the start gets it now, with the greeting (logged at the start already).
      send('jail_start_to_guest', { jail: guestJail, warden });
      const guest = await this.guestRow(this.db, guestId);
      for (const text of respond({ kind: 'start', work, endTime: jail.endTime }, guest.language, this.now(), guestTimeZone(guest))) {
        send('warden_dialog_event_to_guest', { dialog: { type: 1, text, by: 'virtual' } });
      }
    } else {
      send('jail_resume_to_guest', { guest: { jailStatus: jail.jailStatus, statusSince: jail.statusSince }, jail: guestJail, warden });
      await this.change(async (tx, after) => {
        await this.speak(tx, after, jail, await this.guestRow(tx, guestId), { kind: 'resume', work, endTime: jail.endTime });
      });
    }
    this.emit.liveJailsChanged([jail.reservationId], false);
    return guestJail;
  }

  /** `check_alive_from_guest`: the device is there; a status that differs from the server's is corrected. */
  async checkAlive(guestId: number, reportedStatus: JailStatus): Promise<{ jailStatus: JailStatus; statusSince: number; warden: RelayWarden | null } | null> {
    const reported = await this.reportIn(guestId);
    if (reported === null) return null;
    const { jail, firstEntry } = reported;
    if (firstEntry) this.emit.liveJailsChanged([jail.reservationId], false);
    if (jail.jailStatus === reportedStatus) return null;
    return { jailStatus: jail.jailStatus, statusSince: jail.statusSince, warden: await wardenOf(this.db, jail.wardenId) };
  }

  /** `jail_status_from_guest`: leaving, breaking or back in; the Warden answers; once per eventId. */
  async setStatus(guestId: number, eventId: string, status: JailStatus): Promise<Stored> {
    return this.change(async (tx, after) => {
      const jail = await this.lockLiveJailOfGuest(tx, guestId);
      // The same status again (a retry, or a second device) changes nothing.
      if (jail.jailStatus === status) return { duplicate: true };
      const now = this.now();
      const guest = await this.guestRow(tx, guestId);
      const lines = respond({ kind: 'status', from: jail.jailStatus, to: status }, guest.language, now, guestTimeZone(guest));
      // The change is logged with the event's id (the Warden's first line, or the status itself): a retry finds it.
      const first = lines[0];
      const entry: ActivityLog =
        first === undefined ? { type: 'instruction', time: now, instruction: { text: status } } : { type: 'dialog', time: now, dialog: { type: 1, text: first } };
      if ((await this.addLog(tx, after, jail.reservationId, entry, eventId)) === null) return { duplicate: true };
      await tx
        .update(jails)
        .set({
          jailStatus: status,
          statusSince: now,
          // A break or a leave that ends adds its length; focused time leaves both out.
          ...endedPauses(jail, now),
          overrunAlerted: false,
          enteredAt: sql`coalesce(${jails.enteredAt}, ${now})`,
          lastAliveAt: now,
        })
        .where(eq(jails.reservationId, jail.reservationId));
      for (const [index, text] of lines.entries()) {
        if (index > 0) await this.addLog(tx, after, jail.reservationId, { type: 'dialog', time: now, dialog: { type: 1, text } });
        after.push(() => this.emit.toGuest(guestId, 'warden_dialog_event_to_guest', { dialog: { type: 1, text, by: 'virtual' } }));
      }
      const warden = await wardenOf(tx, jail.wardenId);
      after.push(() => this.emit.toGuest(guestId, 'jail_update_to_guest', { guest: { jailStatus: status, statusSince: now }, warden }));
      // The end of a break reopens the camera on every device of the guest (SPEC §4, command 6).
      if (jail.jailStatus === 'breaking') after.push(() => this.emit.toGuest(guestId, 'video_reconnect_to_guest', {}));
      after.push(() => this.emit.liveJailsChanged([jail.reservationId], false));
      // /guest/read answers the guest's status from the live jail.
      after.push(() => this.options.invalidateGuest(guestId));
      return { duplicate: false };
    });
  }

  /** Sets the available commands of the live jail `which` names; the consoles see it. */
  private async setCommands(which: SQL, commands: number[], refusal: MessageKey) {
    const [jail] = await this.db
      .update(jails)
      .set({ commands })
      .where(and(which, eq(jails.state, 'live')))
      .returning({ reservationId: jails.reservationId, guestId: jails.guestId });
    if (jail === undefined) throw new RelayRefusal(refusal);
    this.emit.liveJailsChanged([jail.reservationId], false);
    return jail;
  }

  /** `update_commands_from_guest`: the commands the guest's screen offers now. */
  async setGuestCommands(guestId: number, commands: number[]): Promise<void> {
    await this.setCommands(eq(jails.guestId, guestId), commands, 'no_live_jail');
  }

  /** Any event from the device means the guest came in (not only the alive check). */
  private async markEntered(reservationId: number): Promise<void> {
    const now = this.now();
    await this.db
      .update(jails)
      .set({ enteredAt: sql`coalesce(${jails.enteredAt}, ${now})`, lastAliveAt: now })
      .where(eq(jails.reservationId, reservationId));
    this.emit.liveJailsChanged([reservationId], false);
  }

  /**
   * The hot path of the events that stream (motion, dialog, patrol): finds
   * the guest's open jail and adds the log, once per eventId, without a
   * transaction. Motion and dialog logs wait for the next turn of the event
   * loop and go in together, one statement for every event that came
   * meanwhile (`flushLogs`). A patrol goes alone and counts itself on the
   * jail's row, whose lock keeps two at once from passing 30. `logId` is
   * null for a retry; a patrol that found no room is refused.
   */
  private async appendGuestLog(guestId: number, entry: ActivityLog, eventId: string): Promise<{ jail: StreamedJail; logId: number | null }> {
    const row = entry.type === 'patrol' ? await this.appendPatrol(guestId, entry, eventId) : await this.queueLog(guestId, entry, eventId);
    if (row === undefined) {
      if (entry.type !== 'patrol') throw new RelayRefusal('no_live_jail');
      return this.whyNoPatrol(guestId, eventId, entry.time);
    }
    const jail = { reservationId: row.reservation_id, state: row.state };
    if (row.log_id === null) return { jail, logId: null };
    this.emit.logToWatchers(jail.reservationId, { ...entry, id: row.log_id });
    if (row.state === 'live' && row.entered_at === null) await this.markEntered(jail.reservationId);
    return { jail, logId: row.log_id };
  }

  private queueLog(guestId: number, entry: ActivityLog, eventId: string): Promise<AppendedRow | undefined> {
    return new Promise((resolve, reject) => {
      this.pendingLogs.push({ guestId, entry, eventId, resolve, reject });
      if (this.pendingLogs.length === 1) setImmediate(() => void this.flushLogs());
    });
  }

  /** Adds every queued log in one statement (an event's open jail is found as `appendPatrol` finds it). */
  private async flushLogs(): Promise<void> {
    const batch = this.pendingLogs.splice(0);
    if (batch.length === 0) return;
    const column = (name: string) => sql.identifier(name);
    try {
      const rows = await this.options.queryNamed<AppendedRow & { ord: number }>(
        'warden_append_logs',
        sql`with input as (
          select * from unnest(${sql.param(batch.map((log) => log.guestId))}::int[], ${sql.param(batch.map((log) => log.entry.time))}::bigint[],
            ${sql.param(batch.map((log) => JSON.stringify(log.entry)))}::jsonb[], ${sql.param(batch.map((log) => log.eventId))}::text[])
            with ordinality as input(guest_id, time, entry, event_id, ord)
        ), open_jail as (
          select distinct on (input.ord) input.ord, ${jails.reservationId} as reservation_id, ${jails.state} as state,
            ${jails.enteredAt}::float8 as entered_at, input.time, input.entry, input.event_id
          from input join ${jails} on ${jails.guestId} = input.guest_id and (${jails.state} = 'live' or ${jails.logsSettleAt} > input.time)
          order by input.ord, ${jails.startTime} desc
        ), added as (
          insert into ${activityLogs} (${column(activityLogs.reservationId.name)}, ${column(activityLogs.time.name)}, ${column(activityLogs.entry.name)}, ${column(activityLogs.eventId.name)})
          select reservation_id, time, entry, event_id from open_jail order by ord
          on conflict do nothing
          returning ${activityLogs.id} as id, ${activityLogs.reservationId} as reservation_id, ${activityLogs.eventId} as event_id
        )
        select open_jail.ord::int as ord, open_jail.reservation_id, open_jail.state, open_jail.entered_at, added.id as log_id
        from open_jail left join added on added.reservation_id = open_jail.reservation_id and added.event_id = open_jail.event_id`,
      );
      const byOrder = new Map(rows.map((row) => [row.ord, row]));
      const taken = new Set<number>();
      for (const [index, log] of batch.entries()) {
        const row = byOrder.get(index + 1);
        // The same event twice in one batch: the first has the log, the other is its retry.
        if (row !== undefined && row.log_id !== null && taken.has(row.log_id)) log.resolve({ ...row, log_id: null });
        else log.resolve(row);
        if (row?.log_id != null) taken.add(row.log_id);
      }
    } catch (error) {
      for (const log of batch) log.reject(error);
    }
  }

  private async appendPatrol(guestId: number, entry: ActivityLog, eventId: string): Promise<AppendedRow | undefined> {
    const now = entry.time;
    const column = (name: string) => sql.identifier(name);
    const openJail = sql`select ${jails.reservationId} from ${jails}
      where ${jails.guestId} = ${guestId} and (${jails.state} = 'live' or ${jails.logsSettleAt} > ${now})
      order by ${jails.startTime} desc limit 1`;
    const [row] = await this.options.queryNamed<AppendedRow>(
      'warden_append_patrol',
      sql`with open_jail as (
        update ${jails} set ${column(jails.patrolCount.name)} = ${jails.patrolCount} + 1
        where ${jails.reservationId} = (${openJail}) and ${jails.patrolCount} < ${PATROL_MAX_LOGS_PER_SESSION}
          and not exists (select 1 from ${activityLogs} where ${activityLogs.reservationId} = ${jails.reservationId} and ${activityLogs.eventId} = ${eventId})
        returning ${jails.reservationId} as reservation_id, ${jails.state} as state, ${jails.enteredAt}::float8 as entered_at
      ), added as (
        insert into ${activityLogs} (${column(activityLogs.reservationId.name)}, ${column(activityLogs.time.name)}, ${column(activityLogs.entry.name)}, ${column(activityLogs.eventId.name)})
        select reservation_id, ${now}, ${JSON.stringify(entry)}::jsonb, ${eventId} from open_jail
        on conflict do nothing
        returning ${activityLogs.id}
      )
      select reservation_id, state, entered_at, (select id from added) as log_id from open_jail`,
    );
    return row;
  }

  /** Why a patrol found no place: no open jail, a retry, or no room left. */
  private async whyNoPatrol(guestId: number, eventId: string, now: number): Promise<{ jail: StreamedJail; logId: null }> {
    const jail = await openJailOf(this.db, guestId, now);
    if (jail === null) throw new RelayRefusal('no_live_jail');
    const [existing] = await this.db
      .select({ id: activityLogs.id })
      .from(activityLogs)
      .where(and(eq(activityLogs.reservationId, jail.reservationId), eq(activityLogs.eventId, eventId)));
    if (existing === undefined) throw new RelayRefusal('patrol_limit_reached');
    return { jail, logId: null };
  }

  /** `guest_dialog_event_from_guest` (speaker 0, answered by the Warden) and `snitch_dialog_event_from_guest` (speaker 2). */
  async dialogFromGuest(guestId: number, eventId: string, text: string, speaker: 0 | 2): Promise<Stored> {
    const { jail, logId } = await this.appendGuestLog(guestId, { type: 'dialog', time: this.now(), dialog: { type: speaker, text } }, eventId);
    if (logId === null) return { duplicate: true };
    if (speaker === 0 && jail.state === 'live') {
      await this.change(async (tx, after) => {
        const [live] = await tx.select().from(jails).where(and(eq(jails.reservationId, jail.reservationId), eq(jails.state, 'live')));
        if (live === undefined) return;
        const guest = await this.guestRow(tx, guestId);
        const work = await workOf(tx, jail.reservationId);
        await this.speak(tx, after, live, guest, { kind: 'guest_said', text, work, endTime: live.endTime, commands: live.commands });
      });
    }
    return { duplicate: false };
  }

  /** The four motion events: a motion log; no motion, nodding and darkness are also alerts. */
  async motion(guestId: number, eventId: string, kind: MotionKind, type: 0 | 1): Promise<Stored> {
    const { jail, logId } = await this.appendGuestLog(guestId, { type: 'motion', time: this.now(), motion: { type, kind } }, eventId);
    if (logId === null) return { duplicate: true };
    if (jail.state === 'live' && isAlertKind(kind)) {
      await this.change(async (tx, after) => {
        const [locked] = await tx
          .select()
          .from(jails)
          .where(and(eq(jails.reservationId, jail.reservationId), eq(jails.state, 'live')))
          .for('update');
        if (locked !== undefined) await this.raiseAlert(tx, after, locked, kind);
      });
    }
    return { duplicate: false };
  }

  /** `patrol_from_guest`: a JPEG of at most 100 px and 24 KiB, at most 30 a jail. */
  async patrol(guestId: number, eventId: string, data: string): Promise<Stored> {
    const size = jpegDataUrlSize(data);
    if (!size.ok) throw new RelayRefusal('patrol_not_jpeg');
    if (Math.max(size.width, size.height) > PATROL_IMAGE_MAX_SIDE_PX || size.bytes > PATROL_IMAGE_MAX_BYTES) {
      throw new RelayRefusal('patrol_too_large');
    }
    const { jail, logId } = await this.appendGuestLog(guestId, { type: 'patrol', time: this.now(), patrol: { data } }, eventId);
    if (logId === null) return { duplicate: true };
    this.emit.liveJailsChanged([jail.reservationId], false);
    return { duplicate: false };
  }

  /** `jail_finish_early_from_guest`: the reason as an instruction log, then the early finish. */
  async finishEarly(guestId: number, eventId: string, reservationId: number, reason: string): Promise<Stored> {
    return this.change(async (tx, after) => {
      const jail = await this.lockLiveJailOfGuest(tx, guestId);
      if (jail.reservationId !== reservationId) throw new RelayRefusal('no_live_jail');
      const logId = await this.addLog(tx, after, jail.reservationId, { type: 'instruction', time: this.now(), instruction: { text: reason } }, eventId);
      if (logId === null) return { duplicate: true };
      await this.finish(tx, after, jail, 'early');
      return { duplicate: false };
    });
  }

  /** Whether the guest has a live jail (WebRTC signals pass between a guest and wardens only then). */
  async hasLiveJail(guestId: number): Promise<boolean> {
    const [row] = await this.db
      .select({ reservationId: jails.reservationId })
      .from(jails)
      .where(and(eq(jails.guestId, guestId), eq(jails.state, 'live')))
      .limit(1);
    return row !== undefined;
  }

  // --- From a human warden -------------------------------------------------------------

  /** The live jail a warden acts on, or the refusal 'jail_not_live'. */
  async liveJail(reservationId: number): Promise<JailRow> {
    const [jail] = await this.db
      .select()
      .from(jails)
      .where(and(eq(jails.reservationId, reservationId), eq(jails.state, 'live')));
    if (jail === undefined) throw new RelayRefusal('jail_not_live');
    return jail;
  }

  /** A warden speaks to the guest (a dialog log, shown as a warden's). */
  async wardenDialog(warden: RelayWarden, reservationId: number, eventId: string, text: string): Promise<Stored> {
    return this.change(async (tx, after) => {
      const jail = await this.lockLiveJail(tx, reservationId);
      const logId = await this.addLog(tx, after, reservationId, { type: 'dialog', time: this.now(), dialog: { type: 1, text } }, eventId);
      if (logId === null) return { duplicate: true };
      after.push(() => this.emit.toGuest(jail.guestId, 'warden_dialog_event_to_guest', { dialog: { type: 1, text, by: 'human' } }));
      this.options.log.info({ warden: warden.id, reservationId }, 'warden dialog');
      return { duplicate: false };
    });
  }

  /** A callup: a callup log, the guest's screen called to attention, and an SMS to their phone. */
  async callup(warden: RelayWarden, reservationId: number, eventId: string, text: string | undefined): Promise<Stored> {
    return this.change(async (tx, after) => {
      const jail = await this.lockLiveJail(tx, reservationId);
      const guest = await this.guestRow(tx, jail.guestId);
      const said = text ?? message(guest.language, 'callup_default');
      const logId = await this.addLog(tx, after, reservationId, { type: 'callup', time: this.now(), callup: { text: said } }, eventId);
      if (logId === null) return { duplicate: true };
      after.push(() => this.emit.toGuest(jail.guestId, 'focus_to_guest', { text: said }));
      if (guest.phone !== null) {
        const phone = guest.phone;
        after.push(() =>
          this.options.outbox.send({ channel: 'sms', to: phone, subject: '', text: message(guest.language, 'callup_sms', { text: said }) }),
        );
      }
      this.options.log.info({ warden: warden.id, reservationId }, 'warden callup');
      return { duplicate: false };
    });
  }

  /** A warden sets the guest's available commands. */
  async wardenCommands(reservationId: number, commands: number[]): Promise<void> {
    const jail = await this.setCommands(eq(jails.reservationId, reservationId), commands, 'jail_not_live');
    this.emit.toGuest(jail.guestId, 'update_commands_to_guest', { commands });
  }

  /** A warden approves the scene of a patrol image: it joins the guest's whitelist, sent to their device. */
  async approveScene(warden: RelayWarden, reservationId: number, patrolLogId: number): Promise<void> {
    const jail = await this.liveJail(reservationId);
    const [log] = await this.db
      .select({ entry: activityLogs.entry })
      .from(activityLogs)
      .where(and(eq(activityLogs.id, patrolLogId), eq(activityLogs.reservationId, reservationId)));
    if (log === undefined || log.entry.type !== 'patrol') throw new RelayRefusal('patrol_log_unknown');
    await this.db
      .insert(featureImages)
      .values({ guestId: jail.guestId, data: log.entry.patrol.data, sourceLogId: patrolLogId, wardenId: warden.id, createdAt: this.now() })
      .onConflictDoNothing();
    await this.sendFeatureImages(jail.guestId);
  }

  /** Sends the guest's devices their whitelist as it is now (a scene was approved or removed). */
  async sendFeatureImages(guestId: number): Promise<void> {
    this.emit.toGuest(guestId, 'feature_images_to_guest', { featureImages: await this.featureImagesOf(guestId) });
  }

  /** The guest's approved scenes, oldest first. */
  async featureImagesOf(guestId: number): Promise<{ id: number; data: string }[]> {
    return this.db
      .select({ id: featureImages.id, data: featureImages.data })
      .from(featureImages)
      .where(eq(featureImages.guestId, guestId))
      .orderBy(featureImages.id);
  }

  /** A warden finishes the jail: the reason as an instruction log. */
  async wardenFinish(reservationId: number, eventId: string, reason: string): Promise<Stored> {
    return this.change(async (tx, after) => {
      const jail = await this.lockLiveJail(tx, reservationId);
      const logId = await this.addLog(tx, after, reservationId, { type: 'instruction', time: this.now(), instruction: { text: reason } }, eventId);
      if (logId === null) return { duplicate: true };
      await this.finish(tx, after, jail, 'warden');
      return { duplicate: false };
    });
  }

  /** A warden asks the guest's device for a patrol image now. */
  async requestPatrol(reservationId: number): Promise<void> {
    const jail = await this.liveJail(reservationId);
    this.emit.toGuest(jail.guestId, 'patrol_to_guest', {});
  }
}

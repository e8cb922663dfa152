import { and, eq, sql } from 'drizzle-orm';
import { endedPauses } from '../../shared/focused-time.ts';
import { type Language, PATROL_IMAGE_MAX_SIDE_PX } from '../../shared/constants.ts';
import type { ActivityLog } from '../../shared/api/reservation.ts';
import { PATROL_IMAGE_MAX_BYTES, type GuestJail, type RelayWarden, type ServerToGuestEvents } from '../../shared/relay.ts';
import { message } from '../../shared/messages.ts';
import type { NamedStatement } from '../db/database.ts';
import { jails, type JailRow } from '../db/schema/index.ts';
import { TurnBatch } from '../lib/turn-batch.ts';
import { guestTimeZone } from '../services/reservations.ts';
import { RelayRefusal, type JailChanges, type Stored, type Transaction } from './jail-changes.ts';
import { jpegDataUrlSize } from './jpeg.ts';
import { featureImagesOf, guestJailOf, wardenOf, workOf } from './live-view.ts';
import type { LogWriter, StreamedJail } from './log-writer.ts';
import { respond } from './responder.ts';
import type { Transitions } from './transitions.ts';
import { ALERT_MOTION_KINDS, type AlertKind, type JailStatus, type MotionKind } from '../../shared/jail-vocabulary.ts';

/**
 * Decides what each event from the guest's device does to their jail
 * (docs/jail.md, Relay): reporting in (the first report marks the jail
 * entered), the jail status (leaving, breaking, back in), the commands the
 * screen offers, dialog (answered by the virtual Warden), motion (some of it
 * an alert), patrol images (checked, at most a jail's limit) and the early
 * finish.
 */

function isAlertKind(kind: MotionKind): kind is MotionKind & AlertKind {
  return (ALERT_MOTION_KINDS as readonly MotionKind[]).includes(kind);
}

/** What an alive check finds: the guest's live jail after the report, and whether it was the jail's first. */
interface AliveRow {
  ord: number;
  reservation_id: number;
  jail_status: JailStatus;
  status_since: number;
  warden_id: number | null;
  first_entry: boolean;
}

export class GuestEvents {
  /** The alive checks of one turn of the event loop, reported in one statement (`reportAlive`). */
  private readonly aliveChecks = new TurnBatch<{ guestId: number; now: number }, AliveRow | undefined>((batch) => this.reportAlive(batch));

  /** `reportAlive`'s statement, prepared once. */
  private readonly reportAliveStatement: NamedStatement<AliveRow>;

  constructor(
    private readonly changes: JailChanges,
    private readonly transitions: Transitions,
    private readonly logWriter: LogWriter,
  ) {
    const column = (name: string) => sql.identifier(name);
    this.reportAliveStatement = changes.options.prepareNamed<AliveRow>(
      'warden_report_alive',
      sql`with input as (
          select * from unnest(${sql.placeholder('guestIds')}::int[], ${sql.placeholder('times')}::bigint[]) with ordinality as input(guest_id, time, ord)
        ), live as (
          select distinct on (input.ord) input.ord, input.time, ${jails.reservationId} as reservation_id, ${jails.enteredAt} is null as first_entry
          from input join ${jails} on ${jails.guestId} = input.guest_id and ${jails.state} = 'live'
          order by input.ord, ${jails.startTime} desc
        ), locked as (
          select ${jails.reservationId} as reservation_id from ${jails}
          where ${jails.reservationId} in (select reservation_id from live) and ${jails.state} = 'live'
          order by ${jails.reservationId}
          for no key update
        ), reported as (
          update ${jails} set ${column(jails.lastAliveAt.name)} = latest.time, ${column(jails.enteredAt.name)} = coalesce(${jails.enteredAt}, latest.time)
          from (select live.reservation_id, max(live.time) as time from live join locked on locked.reservation_id = live.reservation_id
            group by live.reservation_id) as latest
          where ${jails.reservationId} = latest.reservation_id and ${jails.state} = 'live'
          returning ${jails.reservationId} as reservation_id, ${jails.jailStatus} as jail_status, ${jails.statusSince}::float8 as status_since,
            ${jails.wardenId} as warden_id
        )
        select live.ord::int as ord, live.first_entry, reported.* from live join reported on reported.reservation_id = live.reservation_id`,
    );
  }

  private lockLiveJailOfGuest(tx: Transaction, guestId: number): Promise<JailRow> {
    return this.changes.lockLive(tx, eq(jails.guestId, guestId), 'no_live_jail');
  }

  /**
   * The guest's device reports in (it connected, or its alive check came):
   * the first report of a jail marks it entered. Returns the live jail and
   * whether this was the first report, or null without a live jail.
   */
  private async reportIn(guestId: number): Promise<{ jail: JailRow; firstEntry: boolean } | null> {
    const { db } = this.changes;
    const now = this.changes.now();
    const [before] = await db
      .select({ enteredAt: jails.enteredAt })
      .from(jails)
      .where(and(eq(jails.guestId, guestId), eq(jails.state, 'live')))
      .limit(1);
    if (before === undefined) return null;
    const [jail] = await db
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
  async initialize(
    guestId: number,
    send: <Event extends keyof ServerToGuestEvents>(event: Event, ...args: Parameters<ServerToGuestEvents[Event]>) => void,
  ): Promise<GuestJail | null> {
    const { db } = this.changes;
    send('feature_images_to_guest', { featureImages: await featureImagesOf(db, guestId) });
    const reported = await this.reportIn(guestId);
    if (reported === null) return null;
    const { jail, firstEntry } = reported;
    const work = await workOf(db, jail.reservationId);
    const warden = await wardenOf(db, jail.wardenId);
    const guestJail = guestJailOf(jail, work);
    if (firstEntry) {
      // A device that was not there at the start gets it now, with the greeting (logged at the start already).
      send('jail_start_to_guest', { jail: guestJail, warden });
      const guest = await this.changes.guestRow(db, guestId);
      for (const text of respond({ kind: 'start', work, endTime: jail.endTime }, guest.language, this.changes.now(), guestTimeZone(guest))) {
        send('warden_dialog_event_to_guest', { dialog: { type: 1, text, by: 'virtual' } });
      }
    } else {
      send('jail_resume_to_guest', { guest: { jailStatus: jail.jailStatus, statusSince: jail.statusSince }, jail: guestJail, warden });
      await this.changes.change(async (tx, after) => {
        await this.changes.speak(tx, after, jail, await this.changes.guestRow(tx, guestId), { kind: 'resume', work, endTime: jail.endTime });
      });
    }
    this.changes.emit.liveJailsChanged([jail.reservationId], false);
    return guestJail;
  }

  /** `check_alive_from_guest`: the device is there; a status that differs from the server's is corrected. */
  async checkAlive(guestId: number, reportedStatus: JailStatus): Promise<{ jailStatus: JailStatus; statusSince: number; warden: RelayWarden | null } | null> {
    const reported = await this.aliveChecks.add({ guestId, now: this.changes.now() });
    if (reported === undefined) return null;
    if (reported.first_entry) this.changes.emit.liveJailsChanged([reported.reservation_id], false);
    if (reported.jail_status === reportedStatus) return null;
    return { jailStatus: reported.jail_status, statusSince: reported.status_since, warden: await wardenOf(this.changes.db, reported.warden_id) };
  }

  /**
   * Reports in every alive check of a batch, as `reportIn` does one: the
   * guest's live jail marked alive (and entered, the first time), in one
   * statement. A guest twice in a batch (two devices) is reported once. The
   * jails are locked in the order of their ids before the update, as the
   * patrols lock theirs (log-writer.ts), so that two batches wait for each
   * other instead of deadlocking.
   */
  private async reportAlive(batch: readonly { guestId: number; now: number }[]): Promise<(AliveRow | undefined)[]> {
    const rows = await this.reportAliveStatement({ guestIds: batch.map((check) => check.guestId), times: batch.map((check) => check.now) });
    const byOrder = new Map(rows.map((row) => [row.ord, row]));
    return batch.map((_, index) => byOrder.get(index + 1));
  }

  /**
   * `jail_status_from_guest`: leaving, breaking or back in; the Warden's answer is logged in `language`, the
   * device's, which has said it already in that language (docs/jail.md, What the Warden says); once per eventId.
   */
  async setStatus(guestId: number, eventId: string, status: JailStatus, language: Language): Promise<Stored> {
    return this.changes.change(async (tx, after) => {
      const jail = await this.lockLiveJailOfGuest(tx, guestId);
      // The same status again (a retry, or a second device) changes nothing.
      if (jail.jailStatus === status) return { duplicate: true };
      this.changes.assertRoomForLog(jail);
      const now = this.changes.now();
      // The change is logged with the event's id, so a retry finds it; the report draws the seat's timeline from these logs.
      const entry: ActivityLog = { type: 'status', time: now, status: { jailStatus: status } };
      if ((await this.changes.addLog(tx, after, jail.reservationId, entry, eventId)) === null) return { duplicate: true };
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
      const guest = await this.changes.guestRow(tx, guestId);
      await this.changes.speak(tx, after, jail, { ...guest, language }, { kind: 'status', from: jail.jailStatus, to: status });
      const warden = await wardenOf(tx, jail.wardenId);
      after.push(() => this.changes.emit.toGuest(guestId, 'jail_update_to_guest', { guest: { jailStatus: status, statusSince: now }, warden }));
      // The end of a break reopens the camera on every device of the guest (docs/jail.md, Commands).
      if (jail.jailStatus === 'breaking') after.push(() => this.changes.emit.toGuest(guestId, 'video_reconnect_to_guest', {}));
      after.push(() => this.changes.emit.liveJailsChanged([jail.reservationId], false));
      // /guest/read answers the guest's status from the live jail.
      after.push(() => this.changes.options.invalidateGuest(guestId));
      return { duplicate: false };
    });
  }

  /** `update_commands_from_guest`: the commands the guest's screen offers now. */
  async setGuestCommands(guestId: number, commands: number[]): Promise<void> {
    await this.changes.setCommands(eq(jails.guestId, guestId), commands, 'no_live_jail');
  }

  /** Any event from the device means the guest came in (not only the alive check). */
  private async markEntered(reservationId: number): Promise<void> {
    const now = this.changes.now();
    await this.changes.db
      .update(jails)
      .set({ enteredAt: sql`coalesce(${jails.enteredAt}, ${now})`, lastAliveAt: now })
      .where(eq(jails.reservationId, reservationId));
    this.changes.emit.liveJailsChanged([reservationId], false);
  }

  /**
   * The hot path of the events that stream (motion, dialog, patrol): the log
   * writer adds the log to the guest's open jail, once per eventId; a new log
   * goes to the consoles that watch the jail and marks a live jail entered.
   * `logId` is null for a retry.
   */
  private async appendGuestLog(guestId: number, entry: ActivityLog, eventId: string): Promise<{ jail: StreamedJail; logId: number | null }> {
    const { jail, entered, logId } = await this.logWriter.append(guestId, entry, eventId);
    if (logId === null) return { jail, logId };
    this.changes.emit.logToWatchers(jail.reservationId, { ...entry, id: logId });
    if (jail.state === 'live' && !entered) await this.markEntered(jail.reservationId);
    return { jail, logId };
  }

  /** `guest_dialog_event_from_guest` (speaker 0, answered by the Warden) and `snitch_dialog_event_from_guest` (speaker 2). */
  async dialogFromGuest(guestId: number, eventId: string, text: string, speaker: 0 | 2): Promise<Stored> {
    const { jail, logId } = await this.appendGuestLog(guestId, { type: 'dialog', time: this.changes.now(), dialog: { type: speaker, text } }, eventId);
    if (logId === null) return { duplicate: true };
    if (speaker === 0 && jail.state === 'live') {
      await this.changes.change(async (tx, after) => {
        const [live] = await tx
          .select()
          .from(jails)
          .where(and(eq(jails.reservationId, jail.reservationId), eq(jails.state, 'live')));
        if (live === undefined) return;
        const guest = await this.changes.guestRow(tx, guestId);
        const work = await workOf(tx, jail.reservationId);
        await this.changes.speak(tx, after, live, guest, { kind: 'guest_said', text, work, endTime: live.endTime, commands: live.commands });
      });
    }
    return { duplicate: false };
  }

  /**
   * The motion events: a motion log; no motion, nodding, darkness and away are
   * also alerts, and back (seen again after an away) is greeted by the Warden.
   */
  async motion(guestId: number, eventId: string, kind: MotionKind, type: 0 | 1): Promise<Stored> {
    const { jail, logId } = await this.appendGuestLog(guestId, { type: 'motion', time: this.changes.now(), motion: { type, kind } }, eventId);
    if (logId === null) return { duplicate: true };
    if (jail.state === 'live' && (isAlertKind(kind) || kind === 'back')) {
      await this.changes.change(async (tx, after) => {
        const [locked] = await tx
          .select()
          .from(jails)
          .where(and(eq(jails.reservationId, jail.reservationId), eq(jails.state, 'live')))
          .for('update');
        if (locked === undefined) return;
        if (isAlertKind(kind)) {
          await this.transitions.raiseAlert(tx, after, locked, kind);
          return;
        }
        await this.changes.speak(tx, after, locked, await this.changes.guestRow(tx, guestId), { kind: 'back' });
        // The consoles' card stops showing the seat as empty.
        after.push(() => this.changes.emit.liveJailsChanged([locked.reservationId], false));
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
    const { jail, logId } = await this.appendGuestLog(guestId, { type: 'patrol', time: this.changes.now(), patrol: { data } }, eventId);
    if (logId === null) return { duplicate: true };
    this.changes.emit.liveJailsChanged([jail.reservationId], false);
    return { duplicate: false };
  }

  /** `jail_finish_early_from_guest`: the reason as an instruction log, then the early finish. */
  async finishEarly(guestId: number, eventId: string, reservationId: number, reason: string): Promise<Stored> {
    return this.changes.change(async (tx, after) => {
      const jail = await this.lockLiveJailOfGuest(tx, guestId);
      if (jail.reservationId !== reservationId) throw new RelayRefusal('no_live_jail');
      const logId = await this.changes.addLog(
        tx,
        after,
        jail.reservationId,
        { type: 'instruction', time: this.changes.now(), instruction: { text: reason } },
        eventId,
      );
      if (logId === null) return { duplicate: true };
      await this.transitions.finish(tx, after, jail, 'early');
      return { duplicate: false };
    });
  }

  /**
   * The guest is deleting the account (services/account-deletion.ts): a
   * live jail is finished first, as an early finish by the guest (the
   * early-finish block is what a re-made account inherits), with the reason
   * as an instruction log, so that the guest's devices and the wardens'
   * consoles see it end. Returns whether there was one.
   */
  async finishForAccountDeletion(guestId: number): Promise<boolean> {
    return this.changes.change(async (tx, after) => {
      const [jail] = await tx
        .select()
        .from(jails)
        .where(and(eq(jails.guestId, guestId), eq(jails.state, 'live')))
        .limit(1)
        .for('update');
      if (jail === undefined) return false;
      const guest = await this.changes.guestRow(tx, guestId);
      const text = message(guest.language, 'jail_finished_account_deleted');
      await this.changes.addLog(tx, after, jail.reservationId, { type: 'instruction', time: this.changes.now(), instruction: { text } });
      await this.transitions.finish(tx, after, jail, 'early');
      return true;
    });
  }

  /** Whether the guest has a live jail (WebRTC signals pass between a guest and wardens only then). */
  async hasLiveJail(guestId: number): Promise<boolean> {
    const [row] = await this.changes.db
      .select({ reservationId: jails.reservationId })
      .from(jails)
      .where(and(eq(jails.guestId, guestId), eq(jails.state, 'live')))
      .limit(1);
    return row !== undefined;
  }
}

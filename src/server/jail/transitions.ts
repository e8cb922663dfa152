import { and, eq, gt, isNull, lte, not, sql } from 'drizzle-orm';
import { focusedMs } from '../../shared/focused-time.ts';
import { BREAK_MS, LEAVE_SEAT_ALLOWANCE_MS } from '../../shared/penalties.ts';
import { activityLogs, jails, reservations, wardens, type JailRow } from '../db/schema/index.ts';
import { isHeld } from '../services/pause-sql.ts';
import { finishHeldOccurrences, finishOccurrence } from '../services/reservations.ts';
import { recordTriggerDelivery } from '../services/triggers/deliveries.ts';
import { addJailedHours, jailedHours } from '../services/payments/usage.ts';
import type { AfterCommit, JailChanges, Transaction } from './jail-changes.ts';
import { guestJailOf, wardenOf, workOf } from './live-view.ts';
import type { Penalties } from './penalties.ts';
import type { AlertKind, FinishKind, JailStatus } from '../../shared/jail-vocabulary.ts';

/**
 * Decides when a jail changes state (docs/jail.md, Scheduler): a
 * reservation's jail starts when its start has come (with a warden
 * assigned) unless a pause holds it, finishes at its end (ended, or ignored if the guest never came
 * in), early, by a warden or forced by alerts, and what every finish does
 * (the reservation rolled forward, the jailed hours, the trigger, the closing
 * line). It also raises the alerts of a leave or break that ran over, and
 * purges patrol images after their retention. The scheduler (scheduler.ts)
 * runs `startDue`, `finishDue`, `raiseOverruns` and `purgePatrols`.
 */

/** How long after a jail finishes its report still takes late events (docs/jail.md, The report). */
const LOGS_SETTLE_MS = 2 * 60_000;

export class Transitions {
  constructor(
    private readonly changes: JailChanges,
    private readonly penalties: Penalties,
  ) {}

  /**
   * Starts every jail whose start has come and whose end has not. The insert
   * is the claim: one row per reservation, whichever server gets there first.
   */
  async startDue(): Promise<number> {
    const { db } = this.changes;
    const now = this.changes.now();
    // Held occurrences that are over make way for the next ones, which may start now.
    await finishHeldOccurrences(db, now);
    const started = await db
      .insert(jails)
      .select(
        db
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
            logCount: sql<number>`0`.as('log_count'),
            finishedAt: sql<number | null>`null`.as('finished_at'),
            finish: sql<FinishKind | null>`null`.as('finish'),
            isTrial: reservations.isTrial,
            focusedMs: sql<number | null>`null`.as('focused_ms'),
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
              // A pause holds it (docs/rules.md, Pauses): no jail, so never ignored either.
              not(isHeld),
            ),
          ),
      )
      .onConflictDoNothing()
      .returning();
    if (started.length === 0) return 0;
    await this.assignWardens(started);
    for (const jail of started) {
      await this.changes.change(async (tx, after) => {
        const [current] = await tx.select().from(jails).where(eq(jails.reservationId, jail.reservationId));
        if (current === undefined) return;
        const guest = await this.changes.guestRow(tx, jail.guestId);
        const work = await workOf(tx, jail.reservationId);
        const warden = await wardenOf(tx, current.wardenId);
        after.push(() => this.changes.emit.toGuest(jail.guestId, 'jail_start_to_guest', { jail: guestJailOf(current, work), warden }));
        await this.changes.speak(tx, after, current, guest, { kind: 'start', work, endTime: current.endTime });
      });
      await this.changes.options.invalidateGuest(jail.guestId);
    }
    this.changes.emit.liveJailsChanged(
      started.map((jail) => jail.reservationId),
      true,
    );
    return started.length;
  }

  /** Each new jail gets the warden with the fewest live jails (none while no warden exists). */
  private async assignWardens(started: readonly JailRow[]): Promise<void> {
    const { db } = this.changes;
    const loads = await db
      .select({
        id: wardens.id,
        live: sql<number>`(select count(*) from ${jails} where ${jails.wardenId} = ${wardens.id} and ${jails.state} = 'live')`.mapWith(Number),
      })
      .from(wardens)
      .orderBy(wardens.id);
    if (loads.length === 0) return;
    for (const jail of started) {
      loads.sort((a, b) => a.live - b.live || a.id - b.id);
      const [least] = loads;
      if (least === undefined) return;
      least.live += 1;
      await db.update(jails).set({ wardenId: least.id }).where(eq(jails.reservationId, jail.reservationId));
    }
  }

  /** Finishes the live jails whose end has come, one claimed row at a time. */
  async finishDue(limit = 500): Promise<number> {
    let finished = 0;
    while (finished < limit) {
      const now = this.changes.now();
      const done = await this.changes.change(async (tx, after) => {
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
  async finish(tx: Transaction, after: AfterCommit, jail: JailRow, kind: FinishKind): Promise<void> {
    const now = this.changes.now();
    await tx
      .update(jails)
      .set({ state: 'finished', finish: kind, finishedAt: now, logsSettleAt: now + LOGS_SETTLE_MS, focusedMs: focusedMs(jail, now) })
      .where(eq(jails.reservationId, jail.reservationId));
    await finishOccurrence(tx, jail.reservationId, now);
    const guest = await this.changes.guestRow(tx, jail.guestId);
    const work = await workOf(tx, jail.reservationId);
    // A try-anyway jail (docs/try-anyway.md) counts for nothing.
    const counts = !jail.isTrial;
    if (counts) await addJailedHours(tx, guest, jail.reservationId, jailedHours(jail, now), now);
    if (counts) await this.penalties.ofFinish(tx, after, jail, guest, work, kind);
    // The guest's trigger is called by the delivery worker (docs/collaboration.md).
    if (counts) await recordTriggerDelivery(tx, jail, guest, work, now);
    await this.changes.speak(tx, after, jail, guest, { kind: 'finish', finish: kind, work });
    after.push(() => this.changes.emit.toGuest(jail.guestId, 'jail_finish_to_guest', { reservationId: jail.reservationId, finish: kind }));
    after.push(() => this.changes.options.invalidateGuest(jail.guestId));
    after.push(() => this.changes.emit.liveJailsChanged([jail.reservationId], true));
  }

  /** An alert inside a locked live jail: logged, answered by the Warden, and the one too many ends the jail. */
  async raiseAlert(tx: Transaction, after: AfterCommit, jail: JailRow, kind: AlertKind): Promise<void> {
    const { alertsInWindow, forcesEnd } = await this.penalties.recordAlert(tx, jail, kind);
    const guest = await this.changes.guestRow(tx, jail.guestId);
    await this.changes.speak(tx, after, jail, guest, { kind: 'alert', alert: kind, alertsInWindow });
    if (forcesEnd) await this.finish(tx, after, jail, 'forced');
    else after.push(() => this.changes.emit.liveJailsChanged([jail.reservationId], false));
  }

  /** A leave over 5 minutes or a break over 20 raises one alert each, with a reminder. */
  async raiseOverruns(): Promise<number> {
    const now = this.changes.now();
    const due = await this.changes.db
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
      const didRaise = await this.changes.change(async (tx, after) => {
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
    const { db } = this.changes;
    const now = this.changes.now();
    const due = await db
      .select({ reservationId: jails.reservationId })
      .from(jails)
      .where(and(eq(jails.state, 'finished'), isNull(jails.patrolsPurgedAt), lte(jails.finishedAt, now - retentionMs)))
      .limit(limit);
    for (const { reservationId } of due) {
      await db.transaction(async (tx) => {
        await tx.delete(activityLogs).where(and(eq(activityLogs.reservationId, reservationId), sql`${activityLogs.entry}->>'type' = 'patrol'`));
        await tx.update(jails).set({ patrolsPurgedAt: now }).where(eq(jails.reservationId, reservationId));
      });
    }
    return due.length;
  }
}

import { and, asc, count, eq, gt, sql } from 'drizzle-orm';
import {
  ALERT_WINDOW_MS,
  alertsForceEnd,
  earlyFinishBlock,
  FORCED_ENDS_SUSPENSION,
  IGNORED_JAILS_SUSPENSION,
  suspensionEnd,
  type SuspensionRule,
} from '../../shared/penalties.ts';
import { message } from '../../shared/messages.ts';
import { formatDateTime } from '../../shared/time-zone.ts';
import { appUrl } from '../config.ts';
import { guests, jailAlerts, jails, lazyAlerts, reservations, type GuestRow, type JailRow } from '../db/schema/index.ts';
import { guestTimeZone } from '../services/reservations.ts';
import type { AfterCommit, JailChanges, Transaction } from './jail-changes.ts';
import type { AlertKind, FinishKind } from '../../shared/jail-vocabulary.ts';

/**
 * Decides what a guest's conduct in a jail costs them (docs/jail.md,
 * Alerts and sanctions): whether an alert forces the jail's end, and what a finish
 * brings: a lazy alert (with its mail) for an ignored jail, a suspension
 * after too many lazy alerts or forced ends within their window, and the
 * early finish block. It writes the penalty; the transitions (transitions.ts)
 * finish the jail.
 */

export class Penalties {
  constructor(private readonly changes: JailChanges) {}

  /** Records an alert inside a jail: how many fell within the window, and whether that forces the jail's end. */
  async recordAlert(tx: Transaction, jail: JailRow, kind: AlertKind): Promise<{ alertsInWindow: number; forcesEnd: boolean }> {
    const now = this.changes.now();
    await tx.insert(jailAlerts).values({ reservationId: jail.reservationId, kind, time: now });
    const [window] = await tx
      .select({ alerts: count() })
      .from(jailAlerts)
      .where(and(eq(jailAlerts.reservationId, jail.reservationId), gt(jailAlerts.time, now - ALERT_WINDOW_MS)));
    const alertsInWindow = window?.alerts ?? 1;
    return { alertsInWindow, forcesEnd: alertsForceEnd(alertsInWindow) };
  }

  /** What a counted jail's finish of `kind` brings the guest: a lazy alert, a suspension or the early finish block. */
  async ofFinish(tx: Transaction, after: AfterCommit, jail: JailRow, guest: GuestRow, work: string, kind: FinishKind): Promise<void> {
    if (kind === 'ignored') await this.countIgnored(tx, after, jail, guest, work);
    if (kind === 'forced') await this.countForced(tx, jail.guestId);
    const block = kind === 'early' ? earlyFinishBlock(guest.earlyFinishBlockUntil, jail.endTime) : null;
    if (block !== null) await tx.update(guests).set({ earlyFinishBlockUntil: block, updatedAt: this.changes.now() }).where(eq(guests.id, guest.id));
  }

  /** An ignored jail: a lazy alert, a mail (and its log), and at three within a week a suspension. */
  private async countIgnored(tx: Transaction, after: AfterCommit, jail: JailRow, guest: GuestRow, work: string): Promise<void> {
    const now = this.changes.now();
    await tx.insert(lazyAlerts).values({ guestId: guest.id, reservationId: jail.reservationId, createdAt: now });
    const recent = await tx
      .select({ createdAt: lazyAlerts.createdAt })
      .from(lazyAlerts)
      .where(and(eq(lazyAlerts.guestId, guest.id), gt(lazyAlerts.createdAt, now - IGNORED_JAILS_SUSPENSION.windowMs)))
      .orderBy(asc(lazyAlerts.createdAt));
    await this.suspendAfter(
      tx,
      guest.id,
      recent.map((row) => row.createdAt),
      IGNORED_JAILS_SUSPENSION,
    );
    const subject = message(guest.language, 'ignored_jail_subject');
    // A jail booked without a work is named by its start alone.
    const text = message(guest.language, work.trim() === '' ? 'ignored_jail_text_no_work' : 'ignored_jail_text', {
      work,
      start: formatDateTime(jail.startTime, guestTimeZone(guest), guest.language),
      count: recent.length,
      url: `${appUrl(this.changes.options.config)}/reservations`,
    });
    await this.changes.addLog(tx, after, jail.reservationId, { type: 'mail', time: now, mail: { text: subject } });
    after.push(() => this.changes.options.outbox.send({ channel: 'email', to: guest.email, subject, text }));
  }

  /** Three forced ends within a week suspend booking until 7 days after the oldest of them. */
  private async countForced(tx: Transaction, guestId: number): Promise<void> {
    const now = this.changes.now();
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
    await this.suspendAfter(
      tx,
      guestId,
      recent.map((row) => row.finishedAt ?? now),
      FORCED_ENDS_SUSPENSION,
    );
  }

  /** Suspends the guest as `rule` says of the events at `times`, if it does. */
  private async suspendAfter(tx: Transaction, guestId: number, times: readonly number[], rule: SuspensionRule) {
    const until = suspensionEnd(rule, times, this.changes.now());
    if (until === null) return;
    await tx
      .update(guests)
      .set({ suspendedUntil: sql`greatest(coalesce(${guests.suspendedUntil}, 0), ${until})`, updatedAt: this.changes.now() })
      .where(eq(guests.id, guestId));
  }
}

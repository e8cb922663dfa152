import { and, eq } from 'drizzle-orm';
import { message } from '../../shared/messages.ts';
import type { RelayWarden } from '../../shared/relay.ts';
import { activityLogs, featureImages, jails, type JailRow } from '../db/schema/index.ts';
import { RelayRefusal, type JailChanges, type Stored, type Transaction } from './jail-changes.ts';
import type { Transitions } from './transitions.ts';

/**
 * Decides what each event from a human warden's console does to a live jail
 * (docs/jail.md, Relay): a warden's dialog, a callup (with its SMS), the
 * guest's commands, a scene approved into the guest's whitelist, a patrol
 * image asked for, and the finish by a warden.
 */

export class WardenEvents {
  constructor(
    private readonly changes: JailChanges,
    private readonly transitions: Transitions,
  ) {}

  private lockLiveJail(tx: Transaction, reservationId: number): Promise<JailRow> {
    return this.changes.lockLive(tx, eq(jails.reservationId, reservationId), 'jail_not_live');
  }

  /** The live jail a warden acts on, or the refusal 'jail_not_live'. */
  async liveJail(reservationId: number): Promise<JailRow> {
    const [jail] = await this.changes.db
      .select()
      .from(jails)
      .where(and(eq(jails.reservationId, reservationId), eq(jails.state, 'live')));
    if (jail === undefined) throw new RelayRefusal('jail_not_live');
    return jail;
  }

  /** A human warden speaks to the guest (a dialog log, shown as a human warden's). */
  async wardenDialog(warden: RelayWarden, reservationId: number, eventId: string, text: string): Promise<Stored> {
    return this.changes.change(async (tx, after) => {
      const jail = await this.lockLiveJail(tx, reservationId);
      const logId = await this.changes.addLog(
        tx,
        after,
        reservationId,
        { type: 'dialog', time: this.changes.now(), dialog: { type: 1, text, by: 'human' } },
        eventId,
      );
      if (logId === null) return { duplicate: true };
      after.push(() => this.changes.emit.toGuest(jail.guestId, 'warden_dialog_event_to_guest', { dialog: { type: 1, text, by: 'human' } }));
      this.changes.options.log.info({ warden: warden.id, reservationId }, 'warden dialog');
      return { duplicate: false };
    });
  }

  /** A callup: a callup log, the guest's screen called to attention, and an SMS to their phone. */
  async callup(warden: RelayWarden, reservationId: number, eventId: string, text: string | undefined): Promise<Stored> {
    return this.changes.change(async (tx, after) => {
      const jail = await this.lockLiveJail(tx, reservationId);
      const guest = await this.changes.guestRow(tx, jail.guestId);
      const said = text ?? message(guest.language, 'callup_default');
      const logId = await this.changes.addLog(tx, after, reservationId, { type: 'callup', time: this.changes.now(), callup: { text: said } }, eventId);
      if (logId === null) return { duplicate: true };
      after.push(() => this.changes.emit.toGuest(jail.guestId, 'focus_to_guest', { text: said }));
      if (guest.phone !== null) {
        const phone = guest.phone;
        after.push(() =>
          this.changes.options.outbox.send({ channel: 'sms', to: phone, subject: '', text: message(guest.language, 'callup_sms', { text: said }) }),
        );
      }
      this.changes.options.log.info({ warden: warden.id, reservationId }, 'warden callup');
      return { duplicate: false };
    });
  }

  /** A warden sets the guest's available commands. */
  async wardenCommands(reservationId: number, commands: number[]): Promise<void> {
    const jail = await this.changes.setCommands(eq(jails.reservationId, reservationId), commands, 'jail_not_live');
    this.changes.emit.toGuest(jail.guestId, 'update_commands_to_guest', { commands });
  }

  /** A warden approves the scene of a patrol image: it joins the guest's whitelist, sent to their device. */
  async approveScene(warden: RelayWarden, reservationId: number, patrolLogId: number): Promise<void> {
    const { db } = this.changes;
    const jail = await this.liveJail(reservationId);
    const [log] = await db
      .select({ entry: activityLogs.entry })
      .from(activityLogs)
      .where(and(eq(activityLogs.id, patrolLogId), eq(activityLogs.reservationId, reservationId)));
    if (log === undefined || log.entry.type !== 'patrol') throw new RelayRefusal('patrol_log_unknown');
    await db
      .insert(featureImages)
      .values({ guestId: jail.guestId, data: log.entry.patrol.data, sourceLogId: patrolLogId, wardenId: warden.id, createdAt: this.changes.now() })
      .onConflictDoNothing();
    await this.changes.sendFeatureImages(jail.guestId);
  }

  /** A warden finishes the jail: the reason as an instruction log. */
  async wardenFinish(reservationId: number, eventId: string, reason: string): Promise<Stored> {
    return this.changes.change(async (tx, after) => {
      const jail = await this.lockLiveJail(tx, reservationId);
      const logId = await this.changes.addLog(
        tx,
        after,
        reservationId,
        { type: 'instruction', time: this.changes.now(), instruction: { text: reason } },
        eventId,
      );
      if (logId === null) return { duplicate: true };
      await this.transitions.finish(tx, after, jail, 'warden');
      return { duplicate: false };
    });
  }

  /** A warden asks the guest's device for a patrol image now. */
  async requestPatrol(reservationId: number): Promise<void> {
    const jail = await this.liveJail(reservationId);
    this.changes.emit.toGuest(jail.guestId, 'patrol_to_guest', {});
  }
}

import { GuestEvents } from './guest-events.ts';
import { JailChanges, type JailEngineOptions, type RelayEmitter } from './jail-changes.ts';
import { LogWriter } from './log-writer.ts';
import { Penalties } from './penalties.ts';
import { Transitions } from './transitions.ts';
import { WardenEvents } from './warden-events.ts';

/**
 * The jail engine (docs/jail.md): every change to a jail happens in the
 * database first; the events it causes are sent once the change is
 * committed (jail-changes.ts). This composes the modules that each decide
 * one thing: the batched log writer (log-writer.ts), penalties
 * (penalties.ts), the transitions of a jail (transitions.ts), what guests
 * do (guest-events.ts) and what wardens do (warden-events.ts). The relay
 * (relay.ts) calls the guest and warden operations; the scheduler
 * (scheduler.ts) calls `startDue`, `finishDue`, `raiseOverruns` and
 * `purgePatrols`.
 */
export class JailEngine {
  private readonly changes: JailChanges;
  private readonly transitions: Transitions;
  private readonly guests: GuestEvents;
  private readonly wardens: WardenEvents;

  constructor(options: JailEngineOptions) {
    this.changes = new JailChanges(options);
    this.transitions = new Transitions(this.changes, new Penalties(this.changes));
    this.guests = new GuestEvents(this.changes, this.transitions, new LogWriter(options.db, options.prepareNamed));
    this.wardens = new WardenEvents(this.changes, this.transitions);
  }

  /** The relay connects itself once its server exists. */
  connect(emitter: RelayEmitter): void {
    this.changes.connect(emitter);
  }

  // The scheduler's passes (transitions.ts).
  readonly startDue = () => this.transitions.startDue();
  readonly finishDue = (limit?: number) => this.transitions.finishDue(limit);
  readonly raiseOverruns = () => this.transitions.raiseOverruns();
  readonly purgePatrols = (retentionMs: number, limit?: number) => this.transitions.purgePatrols(retentionMs, limit);

  // From the guest's device (guest-events.ts).
  readonly initialize: GuestEvents['initialize'] = (guestId, send) => this.guests.initialize(guestId, send);
  readonly checkAlive: GuestEvents['checkAlive'] = (guestId, reportedStatus) => this.guests.checkAlive(guestId, reportedStatus);
  readonly setStatus: GuestEvents['setStatus'] = (guestId, eventId, status) => this.guests.setStatus(guestId, eventId, status);
  readonly setGuestCommands: GuestEvents['setGuestCommands'] = (guestId, commands) => this.guests.setGuestCommands(guestId, commands);
  readonly dialogFromGuest: GuestEvents['dialogFromGuest'] = (guestId, eventId, text, speaker) => this.guests.dialogFromGuest(guestId, eventId, text, speaker);
  readonly motion: GuestEvents['motion'] = (guestId, eventId, kind, type) => this.guests.motion(guestId, eventId, kind, type);
  readonly patrol: GuestEvents['patrol'] = (guestId, eventId, data) => this.guests.patrol(guestId, eventId, data);
  readonly finishEarly: GuestEvents['finishEarly'] = (guestId, eventId, reservationId, reason) =>
    this.guests.finishEarly(guestId, eventId, reservationId, reason);
  readonly hasLiveJail: GuestEvents['hasLiveJail'] = (guestId) => this.guests.hasLiveJail(guestId);
  readonly finishForAccountDeletion: GuestEvents['finishForAccountDeletion'] = (guestId) => this.guests.finishForAccountDeletion(guestId);

  // From a human warden (warden-events.ts).
  readonly liveJail: WardenEvents['liveJail'] = (reservationId) => this.wardens.liveJail(reservationId);
  readonly wardenDialog: WardenEvents['wardenDialog'] = (warden, reservationId, eventId, text) =>
    this.wardens.wardenDialog(warden, reservationId, eventId, text);
  readonly callup: WardenEvents['callup'] = (warden, reservationId, eventId, text) => this.wardens.callup(warden, reservationId, eventId, text);
  readonly wardenCommands: WardenEvents['wardenCommands'] = (reservationId, commands) => this.wardens.wardenCommands(reservationId, commands);
  readonly approveScene: WardenEvents['approveScene'] = (warden, reservationId, patrolLogId) => this.wardens.approveScene(warden, reservationId, patrolLogId);
  readonly wardenFinish: WardenEvents['wardenFinish'] = (reservationId, eventId, reason) => this.wardens.wardenFinish(reservationId, eventId, reason);
  readonly requestPatrol: WardenEvents['requestPatrol'] = (reservationId) => this.wardens.requestPatrol(reservationId);

  /** Sends the guest's devices their whitelist as it is now (a scene was approved or removed). */
  sendFeatureImages(guestId: number): Promise<void> {
    return this.changes.sendFeatureImages(guestId);
  }
}

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
 * do (guest-events.ts) and what wardens do (warden-events.ts). Callers
 * reach each part directly: the guest's socket (relay-guest.ts) calls
 * `guests`, the console's (relay-warden.ts) `wardens`, and the scheduler
 * (scheduler.ts) runs its passes on `transitions`.
 */
export class JailEngine {
  private readonly changes: JailChanges;
  /** The scheduler's passes: starting, finishing, overruns, patrol purges. */
  readonly transitions: Transitions;
  /** What a guest's device does (the guest's socket, relay-guest.ts). */
  readonly guests: GuestEvents;
  /** What a human warden does (the console's socket, relay-warden.ts). */
  readonly wardens: WardenEvents;

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

  /** Sends the guest's devices their whitelist as it is now (a scene was approved or removed). */
  sendFeatureImages(guestId: number): Promise<void> {
    return this.changes.sendFeatureImages(guestId);
  }
}

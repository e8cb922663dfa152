import { io, type Socket } from 'socket.io-client';
import type { Language } from '../../../shared/constants.ts';
import {
  RELAY_PATH,
  SERVER_HUNG_UP,
  type GuestJail,
  type GuestToServerEvents,
  type RelayAck,
  type ServerToGuestEvents,
  type WebrtcHandshake,
} from '../../../shared/relay.ts';
import type { MotionEventName } from '../../../shared/jail-vocabulary.ts';
import { RELAY_RECONNECT_ATTEMPTS, RELAY_RECONNECT_DELAY_MAX_MS, RELAY_RECONNECT_DELAY_MS } from '../../app/reconnect.ts';

/**
 * The guest's connection to the relay (docs/jail.md, Relay): socket.io with
 * the session as its handshake, reconnecting after 1 s up to 5 s apart, 20
 * times, then `onConnectionLost`. It reconnects after any drop, also when
 * the server hung up (a restart, a session the server ended: the handshake
 * then says which), and stops only when the handshake is refused
 * (`onRefused`). Every event that makes a log gets an `eventId` and is kept
 * until the server acknowledges it; after a reconnect the kept ones are sent
 * again, in order, and one whose ack does not come in time on a connection
 * that holds is sent again then (the server stores each once).
 */

export type GuestSocket = Socket<ServerToGuestEvents, GuestToServerEvents>;

/** The events that make a log on the server: sent with an eventId, kept until acknowledged. */
export type LoggedEvent =
  | 'jail_status_from_guest'
  | 'guest_dialog_event_from_guest'
  | 'snitch_dialog_event_from_guest'
  | MotionEventName
  | 'patrol_from_guest'
  | 'jail_finish_early_from_guest';

/** The fields of an event beside `api`, `guest` and `eventId`, which the relay client adds. */
export type EventFields<Event extends keyof GuestToServerEvents> = Omit<Parameters<GuestToServerEvents[Event]>[0], 'api' | 'guest' | 'eventId'>;

export interface GuestRelayOptions {
  /** The server; the page's own origin when absent. */
  url?: string;
  session: { id: number; token: string };
  /** The language of the refusals (read at each send). */
  language(): Language;
  /** The relay is gone for good (20 failed reconnects): the page tells the guest and reloads. */
  onConnectionLost(): void;
  /**
   * The handshake was refused (the session ended, or the server could not
   * check it), with the server's words: the relay stops until `reconnect()`.
   */
  onRefused?(reason: string): void;
  /**
   * Connected (again): runs once the events kept from before have been
   * answered, so that what it asks the server already counts them.
   */
  onConnected?(): void;
  /** Headers of the handshake where the runtime allows them (Node tests name their Origin). */
  extraHeaders?: Record<string, string>;
  /** Tests shorten the reconnection; the page keeps docs/rules.md's. */
  reconnection?: { delayMs: number; delayMaxMs: number; attempts: number };
  /** How long an event waits for its ack before it is sent again (now, or on the next connection). */
  ackTimeoutMs?: number;
}

const ACK_TIMEOUT_MS = 10_000;

/** A fresh event id (docs/jail.md, Delivery: 8-64 of A-Za-z0-9_-). */
export function newEventId(): string {
  return crypto.randomUUID().replaceAll('-', '');
}

/** Why an event was refused: the server's words. */
export class RelayRefusedError extends Error {
  override name = 'RelayRefusedError';
}

interface Kept {
  event: LoggedEvent;
  payload: Record<string, unknown>;
  settle(ack: RelayAck): void;
  fail(error: Error): void;
}

export class GuestRelay {
  readonly socket: GuestSocket;
  /** Events sent and not yet acknowledged, oldest first, by eventId. */
  private readonly kept = new Map<string, Kept>();
  /** The reconnect after the server hung up, while it waits. */
  private hangUpRetry: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly options: GuestRelayOptions) {
    const reconnection = options.reconnection ?? {
      delayMs: RELAY_RECONNECT_DELAY_MS,
      delayMaxMs: RELAY_RECONNECT_DELAY_MAX_MS,
      attempts: RELAY_RECONNECT_ATTEMPTS,
    };
    const settings = {
      path: RELAY_PATH,
      auth: { guest: options.session },
      transports: ['websocket'],
      reconnectionDelay: reconnection.delayMs,
      reconnectionDelayMax: reconnection.delayMaxMs,
      reconnectionAttempts: reconnection.attempts,
      extraHeaders: options.extraHeaders,
    };
    this.socket = options.url === undefined ? io(settings) : io(options.url, settings);
    this.socket.io.on('reconnect_failed', () => options.onConnectionLost());
    // Connected (again, after a drop): what was not acknowledged goes again, in order.
    this.socket.on('connect', () => {
      const resent = [...this.kept].map(([eventId, kept]) => this.transmit(eventId, kept));
      void Promise.all(resent).then(() => {
        if (this.socket.connected) options.onConnected?.();
      });
    });
    // socket.io reconnects by itself after a drop, but not after the server
    // hung up: then the handshake of a new connection tells whether the
    // session still holds (a server going down for a restart; an ended
    // session is refused there).
    this.socket.on('disconnect', (reason) => {
      if (reason !== SERVER_HUNG_UP) return;
      clearTimeout(this.hangUpRetry);
      this.hangUpRetry = setTimeout(() => this.reconnect(), reconnection.delayMs);
    });
    // Refused at the handshake: socket.io gives up (the socket is no longer active), and so does the relay.
    this.socket.on('connect_error', (error) => {
      if (!this.socket.active) options.onRefused?.(error.message);
    });
  }

  /** Connects again (after `onRefused`, once the session was found to hold). */
  reconnect(): void {
    if (!this.socket.connected) this.socket.connect();
  }

  private envelope(): { api: { language: Language }; guest: { id: number } } {
    return { api: { language: this.options.language() }, guest: { id: this.options.session.id } };
  }

  /**
   * Sends an event that makes a log; resolves when the server has stored it
   * (or had stored it before: a retry), rejects with its words when refused.
   */
  sendLogged<Event extends LoggedEvent>(event: Event, fields: EventFields<Event>): Promise<RelayAck> {
    const eventId = newEventId();
    return new Promise((resolve, reject) => {
      const kept: Kept = {
        event,
        payload: { ...this.envelope(), ...fields, eventId },
        settle: resolve,
        fail: reject,
      };
      this.kept.set(eventId, kept);
      void this.transmit(eventId, kept);
    });
  }

  /** Sends a kept event; resolves once it is answered or found unanswered (then kept, and sent again). */
  private transmit(eventId: string, kept: Kept): Promise<void> {
    if (!this.socket.connected) return Promise.resolve(); // sent on the reconnect
    return this.emitWithAck(kept.event, kept.payload).then(
      (ack: RelayAck) => {
        if (!this.kept.has(eventId)) return;
        this.kept.delete(eventId);
        if (ack.ok) kept.settle(ack);
        else kept.fail(new RelayRefusedError(ack.error));
      },
      // No ack in time. Dropped: kept for the reconnect, which sends it again.
      // Still connected (a server too busy to answer in time): sent again now,
      // with its eventId, so the server stores it once whichever copy it reads.
      () => {
        if (this.socket.connected && this.kept.has(eventId)) void this.transmit(eventId, kept);
      },
    );
  }

  /** One event with its ack; rejects when none comes in time. */
  private emitWithAck(event: string, payload: unknown): Promise<RelayAck & Record<string, unknown>> {
    // The event maps type each event on its own; the payloads here were built for the event they go with.
    const untyped: Socket = this.socket;
    return untyped.timeout(this.options.ackTimeoutMs ?? ACK_TIMEOUT_MS).emitWithAck(event, payload) as Promise<RelayAck & Record<string, unknown>>;
  }

  private async answered(event: string, payload: unknown): Promise<RelayAck & Record<string, unknown>> {
    const ack = await this.emitWithAck(event, payload);
    if (!ack.ok) throw new RelayRefusedError(ack.error);
    return ack;
  }

  /**
   * `initialize_from_guest`: who this device is; answers the live jail, if
   * one runs.
   */
  async initialize(userAgent: string, version: number): Promise<GuestJail | null> {
    const { api, guest } = this.envelope();
    const ack = await this.answered('initialize_from_guest', { api: { ...api, userAgent, version }, guest });
    return (ack.jail as GuestJail | null | undefined) ?? null;
  }

  /** A WebRTC signalling message to the warden watching (the relay carries it); rejects when refused. */
  async handshake(message: WebrtcHandshake): Promise<void> {
    await this.answered('webrtc_handshake', message);
  }

  /** `check_alive_from_guest` (every 30 s) or `update_commands_from_guest`; rejects when refused or unanswered. */
  async send<Event extends 'check_alive_from_guest' | 'update_commands_from_guest'>(event: Event, fields: EventFields<Event>): Promise<void> {
    await this.answered(event, { ...this.envelope(), ...fields });
  }

  /** How many events wait for their ack. */
  get waiting(): number {
    return this.kept.size;
  }

  close(): void {
    clearTimeout(this.hangUpRetry);
    this.socket.close();
    for (const kept of this.kept.values()) kept.fail(new Error('the relay connection was closed'));
    this.kept.clear();
  }
}

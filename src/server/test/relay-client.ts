import { randomBytes } from 'node:crypto';
import { io, type Socket } from 'socket.io-client';
import { RELAY_PATH, type RelayAck } from '../../shared/relay.ts';

/**
 * A real socket.io client for the relay tests: it records every event it
 * receives, waits for the next one that matches, and sends events with
 * their ack.
 */

export interface Received {
  event: string;
  payload: unknown;
}

/** A fresh event id (docs/jail.md, Delivery). */
export function eventId(): string {
  return randomBytes(12).toString('base64url');
}

/** Resolves with the reason when the server ends the client's socket. */
export function disconnected(client: RelayClient): Promise<string> {
  return new Promise((resolve) => client.socket.once('disconnect', (reason: string) => resolve(reason)));
}

export class RelayClient {
  readonly received: Received[] = [];
  private readonly waiters: { event: string; match: (payload: unknown) => boolean; resolve: (payload: unknown) => void }[] = [];

  private constructor(readonly socket: Socket) {
    socket.onAny((event: string, payload: unknown) => {
      this.received.push({ event, payload });
      const index = this.waiters.findIndex((waiter) => waiter.event === event && waiter.match(payload));
      const waiter = this.waiters[index];
      if (waiter === undefined) return;
      this.waiters.splice(index, 1);
      waiter.resolve(payload);
    });
  }

  /** Connects to the relay at `url` with the handshake `auth`; rejects with the server's reason when refused. */
  static connect(url: string, auth: Record<string, unknown>, origin: string = url): Promise<RelayClient> {
    const socket = io(url, { path: RELAY_PATH, auth, extraHeaders: { origin }, transports: ['websocket'], reconnection: false, forceNew: true });
    const client = new RelayClient(socket);
    return new Promise((resolve, reject) => {
      socket.once('connect', () => resolve(client));
      socket.once('connect_error', (error: Error) => {
        socket.close();
        reject(error);
      });
    });
  }

  /** Sends an event and resolves with its ack (rejects after `timeoutMs` without one). */
  send<Ack = RelayAck>(event: string, payload: unknown, timeoutMs = 10_000): Promise<Ack> {
    return this.socket.timeout(timeoutMs).emitWithAck(event, payload) as Promise<Ack>;
  }

  /** The next `event` received from now on whose payload matches. */
  next<Payload>(event: string, match: (payload: Payload) => boolean = () => true, timeoutMs = 10_000): Promise<Payload> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${event} within ${timeoutMs} ms`)), timeoutMs);
      this.waiters.push({
        event,
        match: (payload) => match(payload as Payload),
        resolve: (payload) => {
          clearTimeout(timer);
          resolve(payload as Payload);
        },
      });
    });
  }

  /** The first `event` received: one already here, or else the next (a connect-time event may come after the first acks). */
  first<Payload>(event: string, timeoutMs = 10_000): Promise<Payload> {
    const [received] = this.all<Payload>(event);
    return received === undefined ? this.next<Payload>(event, () => true, timeoutMs) : Promise.resolve(received);
  }

  /** The payloads of `event` received so far. */
  all<Payload>(event: string): Payload[] {
    return this.received.filter((received) => received.event === event).map((received) => received.payload as Payload);
  }

  close(): void {
    this.socket.close();
  }
}

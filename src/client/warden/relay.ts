import { io, type Socket } from 'socket.io-client';
import { RELAY_PATH, SERVER_HUNG_UP, type RelayAck, type RelayAuth, type ServerToWardenEvents, type WardenToServerEvents } from '../../shared/relay.ts';
import { errorShown, jailClosed, jailOpened, jailLogReceived, liveJailsReceived, liveJailUpdated, relayStatusChanged } from './consoleSlice.ts';
import { sessionUsed } from './sessionSlice.ts';
import type { ConsoleStore } from './store.ts';
import { RELAY_RECONNECT_DELAY_MAX_MS, RELAY_RECONNECT_DELAY_MS } from '../app/reconnect.ts';

export type WardenSocket = Socket<ServerToWardenEvents, WardenToServerEvents>;
export type WardenEvent = keyof WardenToServerEvents;
export type PayloadOf<Event extends WardenEvent> = Parameters<WardenToServerEvents[Event]>[0];
export type AckOf<Event extends WardenEvent> = Parameters<Parameters<WardenToServerEvents[Event]>[1]>[0];

/** How long an event waits for its ack before the warden is told the relay did not answer. */
const ACK_TIMEOUT_MS = 10_000;

/** A fresh id for an event that creates a log (relay.ts `eventIdSchema`: 8-64 of A-Za-z0-9_-). */
export function newEventId(): string {
  return crypto.randomUUID().replaceAll('-', '');
}

/**
 * Connects to the relay with the console session's token and the language
 * refusals should come in, read again at every (re)connection. socket.io
 * reconnects by itself after a drop, 1 s growing to 5 s apart (the guest's
 * schedule) and without a limit: a console is a watching station, it comes
 * back whenever the relay does.
 */
export function connectRelay(token: string, language: () => 'ja' | 'en'): WardenSocket {
  const auth = (send: (auth: RelayAuth) => void) => send({ warden: { token, language: language() } });
  return io({
    path: RELAY_PATH,
    auth,
    // WebSocket only: no sticky sessions needed behind several servers.
    transports: ['websocket'],
    reconnectionDelay: RELAY_RECONNECT_DELAY_MS,
    reconnectionDelayMax: RELAY_RECONNECT_DELAY_MAX_MS,
  });
}

/** Sends an event and waits for its ack; null when none came within `timeoutMs`. */
async function emitWithAck<Event extends WardenEvent>(
  socket: WardenSocket,
  event: Event,
  payload: PayloadOf<Event>,
  timeoutMs = ACK_TIMEOUT_MS,
): Promise<AckOf<Event> | null> {
  const timed = socket.timeout(timeoutMs);
  // socket.io's typings cannot follow a generic event name through emitWithAck.
  const send = timed.emitWithAck.bind(timed) as (event: Event, payload: PayloadOf<Event>) => Promise<AckOf<Event>>;
  try {
    return await send(event, payload);
  } catch {
    return null;
  }
}

/**
 * Sends an event for the console and waits for its ack; null when none came
 * within `timeoutMs`. An answered event is use of the console session (the
 * server's idle time starts again), and so is it here.
 */
export async function emitAsConsole<Event extends WardenEvent>(
  socket: WardenSocket,
  store: ConsoleStore,
  event: Event,
  payload: PayloadOf<Event>,
  timeoutMs = ACK_TIMEOUT_MS,
): Promise<AckOf<Event> | null> {
  const ack = await emitWithAck(socket, event, payload, timeoutMs);
  if (ack !== null) store.dispatch(sessionUsed(Date.now()));
  return ack;
}

/** The error of a refused ack, or the text for no answer; null when it was accepted. */
export function ackError(ack: RelayAck | null, noAnswer: string): string | null {
  if (ack === null) return noAnswer;
  return ack.ok ? null : ack.error;
}

/**
 * Opens the store's open jail at the relay: when the warden opens one, and
 * again after each reconnect (the relay forgets it with the connection).
 * Until the relay answers, this console is not in the jail's room and its
 * timeline misses what the jail logs, so an open that gets no answer (a
 * server still starting) is sent again on the same connection while the
 * same jail stays open; one sent or lost while the relay is away is left to
 * the reconnect. A refusal (the jail ended) is shown to the warden; a jail
 * never opened is then closed, while one opened before keeps what was read.
 */
export async function openJailAtRelay(socket: WardenSocket, store: ConsoleStore, ackTimeoutMs = ACK_TIMEOUT_MS): Promise<void> {
  const connection = socket.id;
  for (;;) {
    const reservationId = store.getState().console.openJail?.reservationId;
    if (reservationId === undefined || !socket.connected || socket.id !== connection) return;
    const ack = await emitAsConsole(socket, store, 'open_jail_from_warden', { reservationId }, ackTimeoutMs);
    const open = store.getState().console.openJail;
    if (open?.reservationId !== reservationId) return;
    if (ack === null) continue;
    if (ack.ok && ack.jail !== undefined) {
      store.dispatch(jailOpened({ jail: ack.jail, logs: ack.logs ?? [], hasEarlier: ack.hasEarlier ?? false }));
    } else if (!ack.ok) {
      store.dispatch(errorShown(ack.error));
      if (open.phase === 'opening') store.dispatch(jailClosed());
    }
    return;
  }
}

/**
 * Feeds the relay's events into the store. The console reconnects after any
 * drop, also when the server hung up (a server stopping, or ending this
 * session: then the handshake is refused), and stops only when the
 * handshake is refused: `onRefused` runs. After a reconnect the relay has
 * forgotten which jail this console had open: it is opened again
 * (openJailAtRelay), and its logs merge with those already shown; the live
 * list comes with the connection. `ackTimeoutMs`: how long that waits for the
 * relay's answer before asking again.
 */
export function wireRelay(socket: WardenSocket, store: ConsoleStore, onRefused: () => void, ackTimeoutMs = ACK_TIMEOUT_MS): () => void {
  let hangUpRetry: ReturnType<typeof setTimeout> | undefined;
  socket.on('connect', () => {
    store.dispatch(relayStatusChanged('connected'));
    void openJailAtRelay(socket, store, ackTimeoutMs);
  });
  socket.on('disconnect', (reason) => {
    store.dispatch(relayStatusChanged('reconnecting'));
    if (reason !== SERVER_HUNG_UP) return;
    clearTimeout(hangUpRetry);
    hangUpRetry = setTimeout(() => socket.connect(), RELAY_RECONNECT_DELAY_MS);
  });
  socket.on('connect_error', () => {
    // Refused at the handshake: socket.io does not try again by itself.
    if (!socket.active) onRefused();
  });
  socket.on('live_jails_to_warden', ({ jails, serverTime }) => {
    store.dispatch(liveJailsReceived({ jails, serverTime, receivedAt: Date.now() }));
  });
  socket.on('live_jail_to_warden', ({ jail, serverTime }) => {
    store.dispatch(liveJailUpdated({ jail, serverTime, receivedAt: Date.now() }));
  });
  socket.on('jail_log_to_warden', (payload) => {
    store.dispatch(jailLogReceived(payload));
  });
  return () => clearTimeout(hangUpRetry);
}

/**
 * The load side of `npm run bench:relay` (bench/relay.ts), run as a child
 * process so that the simulated guests do not share the bench's event loop:
 * one socket.io client per guest (websocket only), connected at staggered
 * times, each sending a motion event a second, an alive check every 30 s and
 * a patrol image every 10 s, phased evenly over the second. Every ack's
 * round trip is recorded while the measuring window is open; any ack that is
 * not `{ok: true}` stops the run, and one that does not come within 10 s is
 * recorded as infinite (an overloaded server).
 */

import { performance } from 'node:perf_hooks';
import { io, type Socket } from 'socket.io-client';
import { RELAY_PATH, type GuestJail, type RelayAck } from '../src/shared/relay.ts';

export interface LoadGuest {
  id: number;
  token: string;
}

export type ToLoad =
  | {
      type: 'start';
      url: string;
      guests: LoadGuest[];
      /** This worker's first guest's place among all guests, for the phases. */
      firstIndex: number;
      total: number;
      /** Wall-clock ms every worker counts its connections and seconds from. */
      epoch: number;
      connectSpreadMs: number;
      patrolData: string;
    }
  | { type: 'window'; open: boolean }
  | { type: 'stop' };

export const EVENT_KINDS = ['motion', 'alive', 'patrol'] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

export type FromLoad = { type: 'ready' } | { type: 'samples'; samples: Record<EventKind, number[]>; cpuMs: number } | { type: 'failed'; error: string };

const ACK_TIMEOUT_MS = 10_000;
/** A jail starts within a scheduler pass or a few of its start; past this the run is broken. */
const JAIL_WAIT_MS = 120_000;
const PATROL_EVERY_S = 10;
const ALIVE_EVERY_S = 30;

function report(message: FromLoad): void {
  process.send?.(message);
}

function fail(error: string): never {
  report({ type: 'failed', error });
  process.exit(1);
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

let recording = false;
let samples: Record<EventKind, number[]> = { motion: [], alive: [], patrol: [] };
/** Acks still awaited for events sent while the window was open. */
let pendingInWindow = 0;
let windowDrained: (() => void) | null = null;
let cpuAtOpen = process.cpuUsage();
const sockets: Socket[] = [];
/** Guests whose initialize answered with their live jail. */
let inJail = 0;
let stopping = false;

async function send(socket: Socket, kind: EventKind, event: string, payload: unknown): Promise<void> {
  const counted = recording;
  if (counted) pendingInWindow += 1;
  const sentAt = performance.now();
  let roundTrip: number;
  try {
    const ack = (await socket.timeout(ACK_TIMEOUT_MS).emitWithAck(event, payload)) as RelayAck;
    if (!ack.ok) fail(`${event} answered ${JSON.stringify(ack)}`);
    roundTrip = performance.now() - sentAt;
  } catch (error) {
    if (stopping) return;
    if (!(error instanceof Error) || !/timed out/.test(error.message)) fail(`${event}: ${String(error)}`);
    // An overloaded server: counted as an ack that never came, so that it shows in the percentiles.
    roundTrip = Number.POSITIVE_INFINITY;
  }
  if (!counted) return;
  samples[kind].push(roundTrip);
  pendingInWindow -= 1;
  if (pendingInWindow === 0) windowDrained?.();
}

function connect(url: string, guest: LoadGuest): Promise<Socket> {
  const socket = io(url, {
    path: RELAY_PATH,
    auth: { guest },
    extraHeaders: { origin: url },
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    // A busy server accepts slowly; give up only well past socket.io's 20 s.
    timeout: 60_000,
  });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

let eventCounter = 0;
const eventId = (guestId: number) => `${guestId.toString(36)}-${(eventCounter += 1).toString(36).padStart(8, '0')}`;

/** One guest: connect at its turn, wait for its jail, then its events at its phase of every second. */
async function runGuest(url: string, guest: LoadGuest, index: number, total: number, epoch: number, connectSpreadMs: number, patrolData: string) {
  await delay(epoch + (index / total) * connectSpreadMs - Date.now());
  const socket = await connect(url, guest).catch((error: unknown) => fail(`guest ${guest.id} could not connect: ${String(error)}`));
  sockets.push(socket);
  socket.on('disconnect', (reason) => {
    if (!stopping) fail(`guest ${guest.id} disconnected: ${reason}`);
  });
  const api = { language: 'en' as const };
  const initialize = { api: { ...api, userAgent: 'bench:relay', version: 1 }, guest: { id: guest.id } };
  const waitUntil = Date.now() + JAIL_WAIT_MS;
  for (;;) {
    const answer = (await socket.timeout(ACK_TIMEOUT_MS).emitWithAck('initialize_from_guest', initialize)) as RelayAck & { jail?: GuestJail | null };
    if (!answer.ok) fail(`initialize_from_guest answered ${JSON.stringify(answer)}`);
    if (answer.jail) break;
    // PGlite cannot be counted from outside while the server runs: ask again until the scheduler has started the jail.
    if (Date.now() > waitUntil) fail(`guest ${guest.id} has no live jail after ${JAIL_WAIT_MS} ms`);
    await delay(500);
  }
  inJail += 1;

  // Whole seconds after the connection spread, at this guest's phase.
  const phaseMs = (index / total) * 1000;
  let second = Math.ceil((Date.now() - epoch - connectSpreadMs) / 1000) + 1;
  const from = { api, guest: { id: guest.id } };
  while (!stopping) {
    await delay(epoch + connectSpreadMs + second * 1000 + phaseMs - Date.now());
    if (stopping) return;
    void send(socket, 'motion', 'motion_event_from_guest', { ...from, eventId: eventId(guest.id), motion: { type: 1 } });
    if ((second + index) % PATROL_EVERY_S === 0) {
      void send(socket, 'patrol', 'patrol_from_guest', { ...from, eventId: eventId(guest.id), patrol: { data: patrolData } });
    }
    if ((second + index) % ALIVE_EVERY_S === 0) void send(socket, 'alive', 'check_alive_from_guest', { ...from, jailStatus: 'injail' });
    second += 1;
  }
}

process.on('message', (message: ToLoad) => {
  if (message.type === 'start') {
    const { url, guests, firstIndex, total, epoch, connectSpreadMs, patrolData } = message;
    guests.forEach((guest, offset) => {
      runGuest(url, guest, firstIndex + offset, total, epoch, connectSpreadMs, patrolData).catch((error: unknown) =>
        fail(`guest ${guest.id}: ${error instanceof Error ? error.message : String(error)}`),
      );
    });
    const readyCheck = setInterval(() => {
      if (inJail < guests.length) return;
      clearInterval(readyCheck);
      report({ type: 'ready' });
    }, 250);
    return;
  }
  if (message.type === 'window') {
    if (message.open) {
      samples = { motion: [], alive: [], patrol: [] };
      cpuAtOpen = process.cpuUsage();
      recording = true;
      return;
    }
    recording = false;
    const cpu = process.cpuUsage(cpuAtOpen);
    const drained = pendingInWindow === 0 ? Promise.resolve() : new Promise<void>((resolve) => (windowDrained = resolve));
    void drained.then(() => {
      windowDrained = null;
      report({ type: 'samples', samples, cpuMs: (cpu.user + cpu.system) / 1000 });
    });
    return;
  }
  stopping = true;
  for (const socket of sockets) socket.close();
  setTimeout(() => process.exit(0), 200);
});

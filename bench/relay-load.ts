/**
 * The load side of `npm run bench:relay` (bench/relay.ts), run as a child
 * process so that the simulated guests do not share the bench's event loop:
 * one socket.io client per guest (websocket only), connected at staggered
 * times, each sending what its mix says (bench/relay-mix.ts) at its own
 * phase of each period, so the load is even. Every ack's round trip is
 * recorded in the measuring window open when the event was sent; any ack
 * that is not `{ok: true}` stops the run, one that does not come within 10 s
 * is recorded as infinite (an overloaded server), and a guest whose socket
 * drops is counted as a disconnect (it sends nothing more).
 */

import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { io, type Socket } from 'socket.io-client';
import { RELAY_PATH, type GuestJail, type RelayAck } from '../src/shared/relay.ts';
import type { SeededGuest } from './live-guests.ts';
import { MIXES, PatrolSchedule, type MixName } from './relay-mix.ts';

export type ToLoad =
  | {
      type: 'start';
      url: string;
      guests: SeededGuest[];
      /** This worker's first guest's place among all guests, for the phases. */
      firstIndex: number;
      total: number;
      /** Wall-clock ms every worker counts its connections and periods from. */
      epoch: number;
      connectSpreadMs: number;
      patrolData: string;
      mix: MixName;
    }
  /** Opens measuring window `open` (null: none) and closes the one before, whose samples come once its acks are in. */
  | { type: 'window'; open: number | null }
  | { type: 'stop' };

export const EVENT_KINDS = ['motion', 'alive', 'patrol'] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

/**
 * One closed window: the round trips by kind (infinite: no ack within 10 s),
 * this process's CPU, the guests that dropped, and how late this process's
 * own event loop ran (p99 and max, ms): an ack that came meanwhile waited
 * that long in this process before its round trip was taken.
 */
export interface WindowSamples {
  samples: Record<EventKind, number[]>;
  cpuMs: number;
  disconnects: number;
  lagP99Ms: number;
  lagMaxMs: number;
}

export type FromLoad = { type: 'ready' } | ({ type: 'samples'; window: number } & WindowSamples) | { type: 'failed'; error: string };

const ACK_TIMEOUT_MS = 10_000;
/** Connecting and the first initialize: a server busy with a crowd of connections accepts slowly (socket.io's own connect timeout is 20 s). */
const SETUP_TIMEOUT_MS = 60_000;
/** A jail starts within a scheduler pass or a few of its start; past this the run is broken. */
const JAIL_WAIT_MS = 180_000;

function report(message: FromLoad): void {
  process.send?.(message);
}

function fail(error: string): never {
  report({ type: 'failed', error });
  process.exit(1);
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

interface Window extends WindowSamples {
  index: number;
  /** Acks still awaited for events sent in this window. */
  pending: number;
  closed: boolean;
  cpuAtOpen: NodeJS.CpuUsage;
}

/** This process's event-loop delay, sampled every millisecond; a sample's value includes that millisecond. */
const LAG_RESOLUTION_MS = 1;
const lag = monitorEventLoopDelay({ resolution: LAG_RESOLUTION_MS });
lag.enable();
const lagMs = (nanoseconds: number) => Math.max(0, nanoseconds / 1e6 - LAG_RESOLUTION_MS);

let current: Window | null = null;
const sockets: Socket[] = [];
/** Guests whose initialize answered with their live jail. */
let inJail = 0;
let stopping = false;

function reportIfDone(window: Window): void {
  if (!window.closed || window.pending > 0) return;
  const { samples, cpuMs, disconnects, lagP99Ms, lagMaxMs } = window;
  report({ type: 'samples', window: window.index, samples, cpuMs, disconnects, lagP99Ms, lagMaxMs });
}

async function send(socket: Socket, kind: EventKind, event: string, payload: unknown): Promise<void> {
  const window = current;
  if (window !== null) window.pending += 1;
  const sentAt = performance.now();
  let roundTrip: number;
  try {
    const ack = (await socket.timeout(ACK_TIMEOUT_MS).emitWithAck(event, payload)) as RelayAck;
    if (!ack.ok) fail(`${event} answered ${JSON.stringify(ack)}`);
    roundTrip = performance.now() - sentAt;
  } catch (error) {
    if (stopping) return;
    if (!(error instanceof Error) || !/timed out/.test(error.message)) fail(`${event}: ${String(error)}`);
    // An overloaded server, or a dropped socket: an ack that never came, so that it shows in the percentiles.
    roundTrip = Number.POSITIVE_INFINITY;
  }
  if (window === null) return;
  window.samples[kind].push(roundTrip);
  window.pending -= 1;
  reportIfDone(window);
}

function connect(url: string, guest: SeededGuest): Promise<Socket> {
  const socket = io(url, {
    path: RELAY_PATH,
    auth: { guest },
    extraHeaders: { origin: url },
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    timeout: SETUP_TIMEOUT_MS,
  });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

/** A failed connection with its cause (socket.io's error names the transport; the cause is in its `description`). */
function connectErrorOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const { description } = error as Error & { description?: unknown };
  const cause =
    description instanceof Error
      ? description.message
      : typeof description === 'object' && description !== null
        ? String((description as { message?: unknown }).message ?? '')
        : '';
  return cause === '' ? error.message : `${error.message} (${cause})`;
}

let eventCounter = 0;
const eventId = (guestId: number) => `${guestId.toString(36)}-${(eventCounter += 1).toString(36).padStart(8, '0')}`;

/** Calls `act` every `periodMs` from `startAt`, at this guest's `phase` (0 to 1) of the period, while the run goes on and `going()`. */
function every(periodMs: number, phase: number, startAt: number, going: () => boolean, act: (now: number) => void): void {
  let next = startAt + phase * periodMs;
  const tick = () => {
    if (stopping || !going()) return;
    act(Date.now());
    next += periodMs;
    setTimeout(tick, Math.max(0, next - Date.now()));
  };
  setTimeout(tick, Math.max(0, next - Date.now()));
}

interface GuestRun {
  url: string;
  guest: SeededGuest;
  index: number;
  total: number;
  epoch: number;
  connectSpreadMs: number;
  patrolData: string;
  mix: MixName;
}

/** One guest: connect at its turn, wait for its jail, then the mix's events at its phase of each period. */
async function runGuest({ url, guest, index, total, epoch, connectSpreadMs, patrolData, mix: mixName }: GuestRun): Promise<void> {
  const mix = MIXES[mixName];
  await delay(epoch + (index / total) * connectSpreadMs - Date.now());
  const socket = await connect(url, guest).catch((error: unknown) => fail(`guest ${guest.id} could not connect: ${connectErrorOf(error)}`));
  sockets.push(socket);
  let dropped = false;
  socket.on('disconnect', (reason) => {
    if (stopping) return;
    dropped = true;
    if (current !== null) current.disconnects += 1;
    else fail(`guest ${guest.id} disconnected before measuring: ${reason}`);
  });
  const api = { language: 'en' as const };
  const initialize = { api: { ...api, userAgent: 'bench:relay', version: 1 }, guest: { id: guest.id } };
  const waitUntil = Date.now() + JAIL_WAIT_MS;
  for (;;) {
    const answer = (await socket.timeout(SETUP_TIMEOUT_MS).emitWithAck('initialize_from_guest', initialize)) as RelayAck & { jail?: GuestJail | null };
    if (!answer.ok) fail(`initialize_from_guest answered ${JSON.stringify(answer)}`);
    if (answer.jail) break;
    // PGlite cannot be counted from outside while the server runs: ask again until the scheduler has started the jail.
    if (Date.now() > waitUntil) fail(`guest ${guest.id} has no live jail after ${JAIL_WAIT_MS} ms`);
    await delay(500);
  }
  inJail += 1;

  // The page's camera opens once it is in its jail; its periods run from then, each at this guest's phase.
  const phase = index / total;
  const from = { api, guest: { id: guest.id } };
  const inJailAt = Date.now();
  const repeat = (periodMs: number, startAt: number, act: (now: number) => void) => every(periodMs, phase, startAt, () => !dropped, act);
  const { motion } = mix;
  repeat(motion.periodMs, inJailAt, () => {
    void send(socket, 'motion', motion.event, { ...from, eventId: eventId(guest.id), motion: { type: motion.type } });
  });
  repeat(mix.alivePeriodMs, inJailAt, () => {
    void send(socket, 'alive', 'check_alive_from_guest', { ...from, jailStatus: 'injail' });
  });
  const patrols = new PatrolSchedule(mix.patrol, inJailAt);
  // The first check comes a whole period after the camera opened, as on the page.
  repeat(patrols.checkPeriodMs, inJailAt + patrols.checkPeriodMs, (now) => {
    if (patrols.due(now)) void send(socket, 'patrol', 'patrol_from_guest', { ...from, eventId: eventId(guest.id), patrol: { data: patrolData } });
  });
}

function emptySamples(): Record<EventKind, number[]> {
  return { motion: [], alive: [], patrol: [] };
}

process.on('message', (message: ToLoad) => {
  if (message.type === 'start') {
    const { guests, firstIndex, ...run } = message;
    guests.forEach((guest, offset) => {
      runGuest({ ...run, guest, index: firstIndex + offset }).catch((error: unknown) =>
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
    const closing = current;
    const lagAtClose = closing === null ? null : { p99: lag.percentile(99), max: lag.max };
    lag.reset();
    current =
      message.open === null
        ? null
        : {
            index: message.open,
            samples: emptySamples(),
            cpuMs: 0,
            disconnects: 0,
            lagP99Ms: 0,
            lagMaxMs: 0,
            pending: 0,
            closed: false,
            cpuAtOpen: process.cpuUsage(),
          };
    if (closing !== null) {
      const cpu = process.cpuUsage(closing.cpuAtOpen);
      closing.cpuMs = (cpu.user + cpu.system) / 1000;
      closing.lagP99Ms = lagMs(lagAtClose?.p99 ?? 0);
      closing.lagMaxMs = lagMs(lagAtClose?.max ?? 0);
      closing.closed = true;
      reportIfDone(closing);
    }
    return;
  }
  stopping = true;
  for (const socket of sockets) socket.close();
  setTimeout(() => process.exit(0), 200);
});

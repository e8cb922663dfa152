/**
 * What a page and the relay say to each other over one socket.io connection,
 * frame by frame (`npm run bench:live-traffic`). Over a WebSocket each frame
 * is one engine.io packet (open, ping, pong, message, …); a message carries a
 * socket.io packet (connect, an event by name, an ack, …), and binary
 * attachments follow their packet in frames of their own. Frames are decoded
 * with the parsers socket.io itself uses, each ack is named after the event it
 * answers, and the messages are summed per direction, per kind and per name,
 * with the motion events by their `type` and the relay mix a guest sends.
 */
import { decodePacket } from 'engine.io-parser';
import { Decoder, PacketType, type Packet } from 'socket.io-parser';
import { PATROL_CHECK_INTERVAL_MS, PATROL_FIRST_SCREENSHOT_DELAY_MS, patrolChance } from '../src/shared/constants.ts';
import { MOTION_EVENTS } from '../src/shared/jail-vocabulary.ts';

/** `up`: the page to the server; `down`: the server to the page. */
export type Direction = 'up' | 'down';

/**
 * One decoded message: an engine.io packet of its own (`engine`: ping, pong,
 * open…), a socket.io packet that is no event (`socket`: connect,
 * disconnect…), an event by its name with its arguments, or an ack named
 * after the event it answers (`unanswered event` when that was not seen).
 */
export interface Message {
  kind: 'engine' | 'socket' | 'event' | 'ack';
  name: string;
  /** The frames' payload bytes on the wire (UTF-8 text or binary), attachments included. */
  bytes: number;
  /** An event's arguments after its name, or an ack's. */
  args: unknown[];
}

const SOCKET_PACKET_NAMES: Record<number, string> = {
  [PacketType.CONNECT]: 'connect',
  [PacketType.DISCONNECT]: 'disconnect',
  [PacketType.CONNECT_ERROR]: 'connect_error',
};

function frameBytes(frame: string | Uint8Array): number {
  return typeof frame === 'string' ? Buffer.byteLength(frame, 'utf8') : frame.byteLength;
}

/** An engine.io packet of its own, or a socket.io packet with all its frames. */
type Completed = { engine: string; bytes: number } | { packet: Packet; bytes: number };

/** One direction of one connection: its socket.io decoder keeps a binary packet until its attachments came. */
class DirectionDecoder {
  private readonly decoder = new Decoder();
  private readonly decoded: Packet[] = [];
  /** Bytes of the frames of the packet being reassembled. */
  private pendingBytes = 0;

  constructor() {
    this.decoder.on('decoded', (packet) => this.decoded.push(packet));
  }

  /** The packets this frame completes (none while a binary packet waits for attachments). */
  add(frame: string | Uint8Array): Completed[] {
    // A binary frame is a message's data as it is; a text frame starts with its engine.io type.
    const engine = typeof frame === 'string' ? decodePacket(frame, 'nodebuffer') : { type: 'message' as const, data: Buffer.from(frame) };
    if (engine.type === 'error') throw new Error(`not an engine.io packet: ${String(frame).slice(0, 80)}`);
    if (engine.type !== 'message') return [{ engine: engine.type, bytes: frameBytes(frame) }];
    this.pendingBytes += frameBytes(frame);
    this.decoder.add(engine.data);
    const done = this.decoded.splice(0).map((packet) => ({ packet, bytes: this.pendingBytes }));
    if (done.length > 0) this.pendingBytes = 0;
    return done;
  }
}

/** One socket.io connection (a WebSocket) seen from the page: frames in, named messages out. */
export class ConnectionTraffic {
  private readonly decoders = { up: new DirectionDecoder(), down: new DirectionDecoder() };
  /** Events that asked for an ack, by ack id, per direction they went. */
  private readonly awaitingAck = { up: new Map<number, string>(), down: new Map<number, string>() };

  /** Decodes one frame that went `direction`. Throws on a frame that is not engine.io/socket.io. */
  frame(direction: Direction, frame: string | Uint8Array): Message[] {
    return this.decoders[direction].add(frame).map((completed): Message => {
      const { bytes } = completed;
      if ('engine' in completed) return { kind: 'engine', name: completed.engine, bytes, args: [] };
      const { packet } = completed;
      const args: unknown[] = Array.isArray(packet.data) ? packet.data : [];
      if (packet.type === PacketType.EVENT || packet.type === PacketType.BINARY_EVENT) {
        const [name, ...rest] = args;
        if (typeof name !== 'string') throw new Error(`an event without a name: ${JSON.stringify(packet.data)}`);
        if (packet.id !== undefined) this.awaitingAck[direction].set(packet.id, name);
        return { kind: 'event', name, bytes, args: rest };
      }
      if (packet.type === PacketType.ACK || packet.type === PacketType.BINARY_ACK) {
        const asked = this.awaitingAck[direction === 'up' ? 'down' : 'up'];
        const name = packet.id === undefined ? undefined : asked.get(packet.id);
        if (packet.id !== undefined) asked.delete(packet.id);
        return { kind: 'ack', name: name ?? 'unanswered event', bytes, args };
      }
      return { kind: 'socket', name: SOCKET_PACKET_NAMES[packet.type] ?? `type ${packet.type}`, bytes, args };
    });
  }
}

/** A message with when it crossed, in ms since the measurement began. */
export interface TimedMessage extends Message {
  direction: Direction;
  timeMs: number;
}

/** Count, rate and size of one kind of message. */
export interface Figure {
  count: number;
  perMinute: number;
  meanBytes: number;
}

export interface MessageRow extends Figure {
  direction: Direction;
  kind: Message['kind'];
  name: string;
}

export interface MotionRow extends Figure {
  event: string;
  /** The `motion.type` the event carried (1 motion seen, 0 none). */
  type: number | null;
}

/** What one guest's page sends a minute, in the terms of the relay bench (bench/relay-load.ts). */
export interface RelayMix {
  motionEventsPerMinute: number;
  aliveChecksPerMinute: number;
  patrolsPerMinute: number;
  patrolMeanBytes: number;
  otherEventsPerMinute: number;
  /** Which events those are. */
  otherEvents: string[];
}

export interface TrafficSummary {
  minutes: number;
  rows: MessageRow[];
  /** Acks that answered `ok: false` (a refused event), either way. */
  refusedAcks: number;
  motion: MotionRow[];
  patrols: Figure;
  relayMix: RelayMix;
}

function figure(messages: readonly Message[], minutes: number): Figure {
  const bytes = messages.reduce((total, message) => total + message.bytes, 0);
  return { count: messages.length, perMinute: messages.length / minutes, meanBytes: messages.length === 0 ? 0 : bytes / messages.length };
}

function groupBy<Item>(items: readonly Item[], key: (item: Item) => string): Map<string, Item[]> {
  const groups = new Map<string, Item[]>();
  for (const item of items) {
    const name = key(item);
    const group = groups.get(name);
    if (group === undefined) groups.set(name, [item]);
    else group.push(item);
  }
  return groups;
}

const isMotionEvent = (name: string) => Object.hasOwn(MOTION_EVENTS, name);
const PATROL_EVENT = 'patrol_from_guest';
const ALIVE_EVENT = 'check_alive_from_guest';

/** The `motion.type` a motion event carried; null for any other message. */
export function motionTypeOf(message: Message): number | null {
  const motion = (message.args[0] as { motion?: { type?: unknown } } | undefined)?.motion;
  return typeof motion?.type === 'number' ? motion.type : null;
}

/** Sums the messages of `minutes` of one guest's page: per direction, kind and name (most frequent first), the motion events by type, the patrols and the relay mix. */
export function summarise(messages: readonly TimedMessage[], minutes: number): TrafficSummary {
  if (!(minutes > 0)) throw new RangeError(`a summary needs a positive duration, not ${minutes} minutes`);
  const rows = [...groupBy(messages, (message) => `${message.direction} ${message.kind} ${message.name}`).values()]
    .map((group) => {
      const { direction, kind, name } = group[0]!;
      return { direction, kind, name, ...figure(group, minutes) };
    })
    .sort((a, b) => a.direction.localeCompare(b.direction) || b.count - a.count || a.name.localeCompare(b.name));
  const sentEvents = messages.filter((message) => message.direction === 'up' && message.kind === 'event');
  const motionEvents = sentEvents.filter((message) => isMotionEvent(message.name));
  const motion = [...groupBy(motionEvents, (message) => `${message.name} ${motionTypeOf(message)}`).values()].map((group) => ({
    event: group[0]!.name,
    type: motionTypeOf(group[0]!),
    ...figure(group, minutes),
  }));
  const patrols = figure(
    sentEvents.filter((message) => message.name === PATROL_EVENT),
    minutes,
  );
  const others = sentEvents.filter((message) => !isMotionEvent(message.name) && message.name !== PATROL_EVENT && message.name !== ALIVE_EVENT);
  const refusedAcks = messages.filter((message) => message.kind === 'ack' && (message.args[0] as { ok?: unknown } | undefined)?.ok === false).length;
  return {
    minutes,
    rows,
    refusedAcks,
    motion,
    patrols,
    relayMix: {
      motionEventsPerMinute: motionEvents.length / minutes,
      aliveChecksPerMinute: sentEvents.filter((message) => message.name === ALIVE_EVENT).length / minutes,
      patrolsPerMinute: patrols.perMinute,
      patrolMeanBytes: patrols.meanBytes,
      otherEventsPerMinute: others.length / minutes,
      otherEvents: [...new Set(others.map((message) => message.name))],
    },
  };
}

/**
 * How many patrol images the patrol rule (docs/rules.md, Patrol) expects in
 * `minutes` of a camera that is on: a check every 10 s, the first image at
 * the first check 10 s in, then at each check with the chance of the minutes
 * since the last image (`patrolChance`). Exact over the checks, carrying the
 * chance of each count of checks since the last image. The cap of 30 a
 * session is left out: the measurement is far shorter than it.
 */
export function expectedPatrols(minutes: number): number {
  const checks = Math.floor((minutes * 60_000) / PATROL_CHECK_INTERVAL_MS);
  // sinceLast[k]: the chance that the last image was taken k checks ago; empty before the first image.
  let sinceLast: number[] = [];
  let expected = 0;
  for (let check = 1; check <= checks; check++) {
    if (sinceLast.length === 0) {
      if (check * PATROL_CHECK_INTERVAL_MS < PATROL_FIRST_SCREENSHOT_DELAY_MS) continue;
      expected += 1;
      sinceLast = [0, 1];
      continue;
    }
    const next = [0, 0];
    for (let k = 1; k < sinceLast.length; k++) {
      const due = sinceLast[k]! * patrolChance((k * PATROL_CHECK_INTERVAL_MS) / 60_000);
      expected += due;
      next[1]! += due;
      next[k + 1] = sinceLast[k]! - due;
    }
    sinceLast = next;
  }
  return expected;
}

import { encodePacket, type Packet as EnginePacket } from 'engine.io-parser';
import { Encoder, PacketType, type Packet } from 'socket.io-parser';
import { describe, expect, it } from 'vitest';
import { isPatrolDue } from '../src/client/features/jail/session-rules.ts';
import { PATROL_CHECK_INTERVAL_MS } from '../src/shared/constants.ts';
import { seededRandom } from './frames.ts';
import { ConnectionTraffic, expectedPatrols, summarise, type Direction, type TimedMessage } from './traffic.ts';

/** The WebSocket frames socket.io sends for `packet`: engine.io messages, binary attachments as they are. */
function framesOf(packet: Packet): (string | Buffer)[] {
  return new Encoder().encode(packet).map((part: string | Buffer) => {
    if (typeof part !== 'string') return part;
    let frame = '';
    encodePacket({ type: 'message', data: part } satisfies EnginePacket, true, (encoded) => {
      frame = encoded as string;
    });
    return frame;
  });
}

function engineFrame(type: EnginePacket['type']): string {
  let frame = '';
  encodePacket({ type }, true, (encoded) => {
    frame = encoded as string;
  });
  return frame;
}

function feed(connection: ConnectionTraffic, direction: Direction, packet: Packet) {
  return framesOf(packet).flatMap((frame) => connection.frame(direction, frame));
}

describe('decoding a relay connection', () => {
  it('names engine.io pings, pongs and the open packet, with their bytes', () => {
    const connection = new ConnectionTraffic();
    const open = `0${JSON.stringify({ sid: 'abc', upgrades: [], pingInterval: 25000, pingTimeout: 20000, maxPayload: 1e6 })}`;
    expect(connection.frame('down', open)).toEqual([{ kind: 'engine', name: 'open', bytes: open.length, args: [] }]);
    expect(connection.frame('down', engineFrame('ping'))).toEqual([{ kind: 'engine', name: 'ping', bytes: 1, args: [] }]);
    expect(connection.frame('up', engineFrame('pong'))).toEqual([{ kind: 'engine', name: 'pong', bytes: 1, args: [] }]);
  });

  it('names events, and each ack after the event it answers, per direction', () => {
    const connection = new ConnectionTraffic();
    const [connect] = feed(connection, 'up', { type: PacketType.CONNECT, nsp: '/', data: { guest: { id: 1, token: 't' } } });
    expect(connect).toMatchObject({ kind: 'socket', name: 'connect' });
    const motion = { api: { language: 'en' }, guest: { id: 1 }, eventId: 'abcdefgh', motion: { type: 1, time: 5 } };
    const [event] = feed(connection, 'up', { type: PacketType.EVENT, nsp: '/', id: 7, data: ['motion_event_from_guest', motion] });
    expect(event).toMatchObject({ kind: 'event', name: 'motion_event_from_guest', args: [motion] });
    // The server's own event with an ack id 7 does not take the guest's event's name.
    const [pushed] = feed(connection, 'down', { type: PacketType.EVENT, nsp: '/', id: 7, data: ['patrol_to_guest', {}] });
    expect(pushed).toMatchObject({ kind: 'event', name: 'patrol_to_guest' });
    const [ack] = feed(connection, 'down', { type: PacketType.ACK, nsp: '/', id: 7, data: [{ ok: true }] });
    expect(ack).toMatchObject({ kind: 'ack', name: 'motion_event_from_guest', args: [{ ok: true }] });
    const [answered] = feed(connection, 'up', { type: PacketType.ACK, nsp: '/', id: 7, data: [{ ok: true }] });
    expect(answered).toMatchObject({ kind: 'ack', name: 'patrol_to_guest' });
    // An id is answered once: a second ack has no event.
    const [again] = feed(connection, 'down', { type: PacketType.ACK, nsp: '/', id: 7, data: [{ ok: true }] });
    expect(again).toMatchObject({ kind: 'ack', name: 'unanswered event' });
  });

  it('counts UTF-8 bytes, and a binary event once with its attachments', () => {
    const connection = new ConnectionTraffic();
    const frame = framesOf({ type: PacketType.EVENT, nsp: '/', data: ['guest_dialog_event_from_guest', { dialog: { text: 'こんにちは' } }] });
    expect(frame).toHaveLength(1);
    const [dialog] = connection.frame('up', frame[0]!);
    expect(dialog?.bytes).toBe(Buffer.byteLength(frame[0] as string));
    expect(dialog?.bytes).toBe((frame[0] as string).length + 10); // five characters of three bytes each

    const binary = framesOf({ type: PacketType.EVENT, nsp: '/', data: ['picture', Buffer.alloc(300, 7)] });
    expect(binary).toHaveLength(2);
    expect(connection.frame('up', binary[0]!)).toEqual([]);
    const [picture] = connection.frame('up', binary[1]!);
    expect(picture).toMatchObject({ kind: 'event', name: 'picture' });
    expect(picture?.bytes).toBe(Buffer.byteLength(binary[0] as string) + 300);
  });

  it('refuses what is not socket.io', () => {
    expect(() => new ConnectionTraffic().frame('up', 'x')).toThrow(/not an engine.io packet/);
    expect(() => new ConnectionTraffic().frame('up', '4{not a packet')).toThrow();
    expect(() => new ConnectionTraffic().frame('up', Buffer.from([1, 2, 3]))).toThrow();
  });
});

function message(direction: Direction, kind: TimedMessage['kind'], name: string, bytes: number, args: unknown[] = []): TimedMessage {
  return { direction, kind, name, bytes, args, timeMs: 0 };
}

describe("summing a page's traffic", () => {
  it('gives rates and sizes per direction and name, the motion events by type and the relay mix', () => {
    const motion = (type: 0 | 1) => [{ motion: { type, time: 1 } }];
    const messages = [
      message('up', 'event', 'check_alive_from_guest', 100),
      message('up', 'event', 'check_alive_from_guest', 102),
      message('up', 'event', 'check_alive_from_guest', 104),
      message('up', 'event', 'check_alive_from_guest', 106),
      message('down', 'ack', 'check_alive_from_guest', 20, [{ ok: true }]),
      message('down', 'ack', 'patrol_from_guest', 40, [{ ok: false, error: 'The patrol image is too large.' }]),
      message('up', 'event', 'no_motion_event_from_guest', 150, motion(0)),
      message('up', 'event', 'motion_event_from_guest', 150, motion(1)),
      message('up', 'event', 'motion_event_from_guest', 152, motion(1)),
      message('up', 'event', 'patrol_from_guest', 4000),
      message('up', 'event', 'initialize_from_guest', 300),
      message('up', 'engine', 'pong', 1),
      message('down', 'engine', 'ping', 1),
    ];
    const summary = summarise(messages, 2);
    expect(summary.rows.find((row) => row.direction === 'up' && row.name === 'check_alive_from_guest')).toEqual({
      direction: 'up',
      kind: 'event',
      name: 'check_alive_from_guest',
      count: 4,
      perMinute: 2,
      meanBytes: 103,
    });
    expect(summary.rows.find((row) => row.direction === 'down' && row.name === 'check_alive_from_guest')).toMatchObject({ kind: 'ack', count: 1 });
    expect(summary.refusedAcks).toBe(1);
    expect(summary.rows.find((row) => row.kind === 'engine' && row.name === 'ping')).toMatchObject({ direction: 'down', count: 1, perMinute: 0.5 });
    expect(summary.motion).toEqual([
      { event: 'no_motion_event_from_guest', type: 0, count: 1, perMinute: 0.5, meanBytes: 150 },
      { event: 'motion_event_from_guest', type: 1, count: 2, perMinute: 1, meanBytes: 151 },
    ]);
    expect(summary.patrols).toEqual({ count: 1, perMinute: 0.5, meanBytes: 4000 });
    expect(summary.relayMix).toEqual({
      motionEventsPerMinute: 1.5,
      aliveChecksPerMinute: 2,
      patrolsPerMinute: 0.5,
      patrolMeanBytes: 4000,
      otherEventsPerMinute: 0.5,
      otherEvents: ['initialize_from_guest'],
    });
  });

  it('needs a positive duration', () => {
    expect(() => summarise([], 0)).toThrow(RangeError);
  });
});

describe('the patrols the rule expects', () => {
  /** The mean count of patrols the page's own rule (`isPatrolDue`, checked every 10 s) takes in `minutes`, over `runs` seeded runs. */
  function simulated(minutes: number, runs: number): number {
    const next = seededRandom(19);
    let taken = 0;
    for (let run = 0; run < runs; run++) {
      let state = { setupAt: 0, lastPatrolAt: null as number | null, taken: 0 };
      for (let now = PATROL_CHECK_INTERVAL_MS; now <= minutes * 60_000; now += PATROL_CHECK_INTERVAL_MS) {
        if (isPatrolDue(state, now, next() / 2 ** 32)) state = { ...state, lastPatrolAt: now, taken: state.taken + 1 };
      }
      taken += state.taken;
    }
    return taken / runs;
  }

  it('is the first image at 10 s, then what the page takes on average', () => {
    expect(expectedPatrols(9 / 60)).toBe(0);
    expect(expectedPatrols(10 / 60)).toBe(1);
    for (const minutes of [1, 10, 30]) expect(expectedPatrols(minutes)).toBeCloseTo(simulated(minutes, 20_000), 1);
  });
});

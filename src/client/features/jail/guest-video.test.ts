import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { WebrtcHandshake, WebrtcHandshakeDelivered } from '../../../shared/relay.ts';
import { GuestVideo } from './guest-video.ts';

/** A stand-in for the browser's peer connection: the test moves its connection state. */
class FakePeer {
  static made: FakePeer[] = [];
  connectionState: RTCPeerConnectionState = 'new';
  remoteDescription: RTCSessionDescriptionInit | null = null;
  onicecandidate: ((event: { candidate: null }) => void) | null = null;
  onconnectionstatechange: (() => void) | null = null;
  closed = false;

  constructor(readonly config?: RTCConfiguration) {
    FakePeer.made.push(this);
  }

  addTrack(): void {}
  getSenders(): RTCRtpSender[] {
    return [];
  }
  async setRemoteDescription(description: RTCSessionDescriptionInit): Promise<void> {
    this.remoteDescription = description;
  }
  async addIceCandidate(): Promise<void> {}
  async createAnswer(): Promise<RTCSessionDescriptionInit> {
    return { type: 'answer', sdp: 'v=0 answer' };
  }
  async setLocalDescription(): Promise<void> {}
  /** Like the browser's, closing fires no state change. */
  close(): void {
    this.closed = true;
    this.connectionState = 'closed';
  }

  /** The browser reports a new connection state. */
  becomes(state: RTCPeerConnectionState): void {
    this.connectionState = state;
    this.onconnectionstatechange?.();
  }
}

const TRACK = { kind: 'video' };
const STREAM = { getVideoTracks: () => [TRACK] } as unknown as MediaStream;

function offerFrom(warden: string): WebrtcHandshakeDelivered {
  return { to: 'guest:7', from: warden, type: 'offer', description: { type: 'offer', sdp: 'v=0 offer' } };
}

function hangupFrom(warden: string): WebrtcHandshakeDelivered {
  return { to: 'guest:7', from: warden, type: 'hangup' };
}

describe('GuestVideo: how many wardens watch', () => {
  let stream: MediaStream | null;
  let sent: WebrtcHandshake[];
  let video: GuestVideo;
  /** The count each time the video said it changed. */
  let reported: number[];

  beforeEach(() => {
    FakePeer.made = [];
    vi.stubGlobal('RTCPeerConnection', FakePeer);
    stream = STREAM;
    sent = [];
    reported = [];
    video = new GuestVideo({
      signal: async (message) => {
        sent.push(message);
      },
      stream: () => stream,
    });
    video.subscribe(() => reported.push(video.watching));
  });

  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('answers through the STUN and TURN servers that came with the offer, and without any when none came', async () => {
    const iceServers = [{ urls: 'turns:turn.example:5349', username: '1700000000:guest-7', credential: 'c2VjcmV0' }];
    await video.receive({ ...offerFrom('warden:1'), iceServers });
    expect(FakePeer.made[0]?.config).toEqual({ iceServers });
    await video.receive(offerFrom('warden:2'));
    expect(FakePeer.made[1]?.config).toEqual({ iceServers: [] });
  });

  it('counts a warden once the call connects, not at the offer or the answer', async () => {
    await video.receive(offerFrom('warden:1'));
    expect(sent).toEqual([{ to: 'warden:1', type: 'answer', description: { type: 'answer', sdp: 'v=0 answer' } }]);
    FakePeer.made[0]!.becomes('connecting');
    expect(video.watching).toBe(0);
    expect(reported).toEqual([]);

    FakePeer.made[0]!.becomes('connected');
    expect(video.watching).toBe(1);
    expect(reported).toEqual([1]);
    // A short drop may come back by itself: still watching, nothing new to say.
    FakePeer.made[0]!.becomes('disconnected');
    FakePeer.made[0]!.becomes('connected');
    expect(reported).toEqual([1]);
  });

  it('a second warden adds one; each hangup takes one away', async () => {
    await video.receive(offerFrom('warden:1'));
    FakePeer.made[0]!.becomes('connected');
    await video.receive(offerFrom('warden:2'));
    FakePeer.made[1]!.becomes('connected');
    expect(video.watching).toBe(2);

    await video.receive(hangupFrom('warden:1'));
    expect(FakePeer.made[0]!.closed).toBe(true);
    expect(video.watching).toBe(1);
    await video.receive(hangupFrom('warden:2'));
    expect(video.watching).toBe(0);
    expect(reported).toEqual([1, 2, 1, 0]);
  });

  it('a failed connection stops the watching', async () => {
    await video.receive(offerFrom('warden:1'));
    FakePeer.made[0]!.becomes('connected');
    FakePeer.made[0]!.becomes('failed');
    expect(FakePeer.made[0]!.closed).toBe(true);
    expect(video.watching).toBe(0);
    expect(reported).toEqual([1, 0]);
  });

  it('a call that never got through was never watching: its end says nothing', async () => {
    await video.receive(offerFrom('warden:1'));
    FakePeer.made[0]!.becomes('failed');
    await video.receive(offerFrom('warden:2'));
    await video.receive(hangupFrom('warden:2'));
    expect(video.watching).toBe(0);
    expect(reported).toEqual([]);
  });

  it('the same warden calling again replaces the call', async () => {
    await video.receive(offerFrom('warden:1'));
    FakePeer.made[0]!.becomes('connected');
    await video.receive(offerFrom('warden:1'));
    expect(FakePeer.made[0]!.closed).toBe(true);
    // The old peer's late news is not the new call's.
    FakePeer.made[0]!.becomes('connected');
    expect(video.watching).toBe(0);
    FakePeer.made[1]!.becomes('connected');
    expect(video.watching).toBe(1);
    expect(reported).toEqual([1, 0, 1]);
  });

  it('a break closes the camera: every call ends and each warden is told', async () => {
    await video.receive(offerFrom('warden:1'));
    FakePeer.made[0]!.becomes('connected');
    await video.receive(offerFrom('warden:2'));
    FakePeer.made[1]!.becomes('connected');
    sent = [];

    stream = null;
    await video.streamChanged();
    expect(video.watching).toBe(0);
    expect(FakePeer.made.every((peer) => peer.closed)).toBe(true);
    expect(sent).toEqual([
      { to: 'warden:1', type: 'hangup' },
      { to: 'warden:2', type: 'hangup' },
    ]);
    expect(reported.at(-1)).toBe(0);

    // An offer on the break is hung up at once and never counts.
    await video.receive(offerFrom('warden:3'));
    expect(sent.at(-1)).toEqual({ to: 'warden:3', type: 'hangup' });
    expect(video.watching).toBe(0);
  });

  it('stops telling a listener that unsubscribed', async () => {
    const later: number[] = [];
    const unsubscribe = video.subscribe(() => later.push(video.watching));
    await video.receive(offerFrom('warden:1'));
    FakePeer.made[0]!.becomes('connected');
    unsubscribe();
    video.hangUpAll();
    expect(later).toEqual([1]);
    expect(reported).toEqual([1, 0]);
  });
});

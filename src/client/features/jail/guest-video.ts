/**
 * The guest's side of a warden's "watch live" (docs/jail.md, Live video):
 * the console calls with an offer over the relay; this device answers with
 * the stream the camera analyses, one peer connection per warden watching.
 * A break closes the stream, and with it every call (docs/jail.md, Commands).
 * It is the one home of how many wardens watch: the screen subscribes to it.
 */
import type { WebrtcHandshake, WebrtcHandshakeDelivered } from '../../../shared/relay.ts';

export interface GuestVideoOptions {
  /** Sends a signalling message to a warden through the relay. */
  signal(message: WebrtcHandshake): Promise<void>;
  /** The stream a warden sees; null while the camera is closed (a break). */
  stream(): MediaStream | null;
  /** What went wrong with a call (for the error log); the call is closed. */
  onError?(error: unknown): void;
}

interface Call {
  peer: RTCPeerConnection;
  /** Candidates that arrived before the offer was applied. */
  early: RTCIceCandidateInit[];
  /** Whether the call got through: from then on the warden sees the picture. */
  connected: boolean;
}

export class GuestVideo {
  private readonly calls = new Map<string, Call>();
  private readonly listeners = new Set<() => void>();

  constructor(private readonly options: GuestVideoOptions) {}

  /**
   * How many wardens are watching: calls that got through and are not over
   * (an offer being answered does not count: no picture has gone yet).
   */
  get watching(): number {
    let count = 0;
    for (const call of this.calls.values()) if (call.connected) count += 1;
    return count;
  }

  /** `listener` is called whenever `watching` changes; answers the unsubscribe. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  private watchingChanged(): void {
    for (const listener of this.listeners) listener();
  }

  /** A signalling message from a warden. */
  async receive(message: WebrtcHandshakeDelivered): Promise<void> {
    const { from } = message;
    if (!from.startsWith('warden:')) return;
    try {
      if (message.type === 'offer' && message.description?.type === 'offer') {
        await this.answer(from, message.description, message.iceServers ?? []);
      } else if (message.type === 'candidate' && message.candidate !== undefined) {
        const call = this.calls.get(from);
        if (call === undefined) return;
        if (call.peer.remoteDescription === null) call.early.push(message.candidate);
        else await call.peer.addIceCandidate(message.candidate);
      } else if (message.type === 'hangup') {
        this.close(from);
      }
    } catch (error) {
      this.hangUp(from);
      this.options.onError?.(error);
    }
  }

  /** Answers through the STUN and TURN servers the relay gave with the offer, their TURN credentials made for this call. */
  private async answer(from: string, offer: RTCSessionDescriptionInit, iceServers: RTCIceServer[]): Promise<void> {
    this.close(from);
    const stream = this.options.stream();
    if (stream === null) {
      // No picture to give (on a break): the console shows the call ended.
      await this.options.signal({ to: from, type: 'hangup' });
      return;
    }
    const peer = new RTCPeerConnection({ iceServers });
    const call: Call = { peer, early: [], connected: false };
    this.calls.set(from, call);
    for (const track of stream.getVideoTracks()) peer.addTrack(track, stream);
    peer.onicecandidate = (event) => {
      const found = event.candidate;
      if (found === null) return;
      void this.options
        .signal({ to: from, type: 'candidate', candidate: { candidate: found.candidate, sdpMid: found.sdpMid, sdpMLineIndex: found.sdpMLineIndex } })
        .catch(() => undefined);
    };
    peer.onconnectionstatechange = () => {
      if (this.calls.get(from)?.peer !== peer) return;
      // The warden watches from 'connected' on, not from the offer or the answer: media
      // flows only once ICE and DTLS are through, which is what 'connected' says. So the
      // guest is never told of a call that never got through (no route, refused), and
      // the picture never reaches a warden before the guest is told. A 'disconnected'
      // call may come back by itself and still counts; 'failed' is over.
      if (peer.connectionState === 'connected' && !call.connected) {
        call.connected = true;
        this.watchingChanged();
      } else if (peer.connectionState === 'failed') {
        this.close(from);
      }
    };
    await peer.setRemoteDescription(offer);
    for (const candidate of call.early.splice(0)) await peer.addIceCandidate(candidate);
    const answer = await peer.createAnswer();
    await peer.setLocalDescription(answer);
    await this.options.signal({ to: from, type: 'answer', description: { type: 'answer', sdp: answer.sdp ?? '' } });
  }

  /** The camera changed (another source, or reopened after a break): every call shows the new picture. */
  async streamChanged(): Promise<void> {
    const track = this.options.stream()?.getVideoTracks()[0] ?? null;
    if (track === null) {
      this.hangUpAll();
      return;
    }
    for (const { peer } of this.calls.values()) {
      for (const sender of peer.getSenders()) {
        if (sender.track?.kind !== 'video' && sender.track !== null) continue;
        await sender.replaceTrack(track).catch(() => undefined);
      }
    }
  }

  /** Ends every call and tells each warden (a break, leaving the page). */
  hangUpAll(): void {
    for (const from of [...this.calls.keys()]) this.hangUp(from);
  }

  private hangUp(from: string): void {
    if (!this.calls.has(from)) return;
    this.close(from);
    void this.options.signal({ to: from, type: 'hangup' }).catch(() => undefined);
  }

  private close(from: string): void {
    const call = this.calls.get(from);
    if (call === undefined) return;
    this.calls.delete(from);
    call.peer.close();
    if (call.connected) this.watchingChanged();
  }
}

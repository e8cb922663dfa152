import type { WebrtcHandshakeDelivered } from '../../shared/relay.ts';

/**
 * "Watch live" as a state machine. The console is the caller: it sends the
 * offer (`offering`), the guest's device answers (`connecting`), the video
 * track arrives (`live`). The guest may hang up (`ended`); anything going
 * wrong is `failed` with the reason; stopping returns to `idle`.
 */
export type VideoPhase = 'idle' | 'offering' | 'connecting' | 'live' | 'ended' | 'failed';

export interface VideoState {
  phase: VideoPhase;
  /** Why it failed. */
  reason: string | null;
}

export type VideoEvent =
  | { type: 'start' }
  | { type: 'answered' }
  | { type: 'track' }
  | { type: 'hungUp' }
  | { type: 'stopped' }
  | { type: 'failed'; reason: string };

export const IDLE_VIDEO: VideoState = { phase: 'idle', reason: null };

/** Whether a peer connection exists in this phase (and must be closed on leaving it). */
export function isWatching(phase: VideoPhase): boolean {
  return phase === 'offering' || phase === 'connecting' || phase === 'live';
}

export function videoReducer(state: VideoState, event: VideoEvent): VideoState {
  switch (event.type) {
    case 'start':
      return isWatching(state.phase) ? state : { phase: 'offering', reason: null };
    case 'answered':
      return state.phase === 'offering' ? { phase: 'connecting', reason: null } : state;
    case 'track':
      return isWatching(state.phase) ? { phase: 'live', reason: null } : state;
    case 'hungUp':
      return isWatching(state.phase) ? { phase: 'ended', reason: null } : state;
    case 'stopped':
      return IDLE_VIDEO;
    case 'failed':
      return isWatching(state.phase) ? { phase: 'failed', reason: event.reason } : state;
  }
}

/** The handshake address of a guest's devices. */
export function guestAddress(guestId: number): string {
  return `guest:${guestId}`;
}

/** What a handshake message from the watched guest means for the call; null for another sender or a malformed one. */
export function handshakeStep(
  message: WebrtcHandshakeDelivered,
  guestId: number,
): { type: 'answer'; description: RTCSessionDescriptionInit } | { type: 'candidate'; candidate: RTCIceCandidateInit } | { type: 'hangup' } | null {
  if (message.from !== guestAddress(guestId)) return null;
  if (message.type === 'answer' && message.description?.type === 'answer') return { type: 'answer', description: message.description };
  if (message.type === 'candidate' && message.candidate !== undefined) return { type: 'candidate', candidate: message.candidate };
  if (message.type === 'hangup') return { type: 'hangup' };
  return null;
}

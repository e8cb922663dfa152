import { describe, expect, it } from 'vitest';
import { guestAddress, handshakeStep, IDLE_VIDEO, isWatching, videoReducer, type VideoEvent, type VideoState } from './signalling.ts';

function run(events: VideoEvent[], from: VideoState = IDLE_VIDEO): VideoState {
  return events.reduce(videoReducer, from);
}

describe('the watch-live state machine', () => {
  it('goes from the offer to the answer to the video', () => {
    expect(run([{ type: 'start' }]).phase).toBe('offering');
    expect(run([{ type: 'start' }, { type: 'answered' }]).phase).toBe('connecting');
    expect(run([{ type: 'start' }, { type: 'answered' }, { type: 'track' }]).phase).toBe('live');
  });

  it('ends when the guest hangs up, fails with a reason, and stops back to idle', () => {
    expect(run([{ type: 'start' }, { type: 'answered' }, { type: 'track' }, { type: 'hungUp' }]).phase).toBe('ended');
    expect(run([{ type: 'start' }, { type: 'failed', reason: 'ICE failed' }])).toEqual({ phase: 'failed', reason: 'ICE failed' });
    expect(run([{ type: 'start' }, { type: 'track' }, { type: 'stopped' }])).toEqual(IDLE_VIDEO);
    expect(run([{ type: 'start' }, { type: 'failed', reason: 'x' }, { type: 'start' }])).toEqual({ phase: 'offering', reason: null });
  });

  it('ignores what cannot happen in a phase', () => {
    expect(run([{ type: 'answered' }, { type: 'track' }, { type: 'hungUp' }, { type: 'failed', reason: 'late' }])).toEqual(IDLE_VIDEO);
    const live = run([{ type: 'start' }, { type: 'answered' }, { type: 'track' }]);
    expect(videoReducer(live, { type: 'start' })).toBe(live);
    expect(videoReducer(live, { type: 'answered' })).toBe(live);
    expect(['offering', 'connecting', 'live'].every((phase) => isWatching(phase as VideoState['phase']))).toBe(true);
    expect(isWatching('ended')).toBe(false);
  });
});

describe('handshake messages', () => {
  const from = guestAddress(7);

  it('reads the answer, candidates and hang-up of the watched guest', () => {
    const description = { type: 'answer' as const, sdp: 'v=0' };
    expect(handshakeStep({ from, to: 'warden:1', type: 'answer', description }, 7)).toEqual({ type: 'answer', description });
    const candidate = { candidate: 'candidate:1 1 udp 1 10.0.0.1 5000 typ host', sdpMid: '0', sdpMLineIndex: 0 };
    expect(handshakeStep({ from, to: 'warden:1', type: 'candidate', candidate }, 7)).toEqual({ type: 'candidate', candidate });
    expect(handshakeStep({ from, to: 'warden:1', type: 'hangup' }, 7)).toEqual({ type: 'hangup' });
  });

  it('ignores other guests, an offer, and messages without their part', () => {
    expect(handshakeStep({ from: guestAddress(8), to: 'warden:1', type: 'hangup' }, 7)).toBeNull();
    expect(handshakeStep({ from, to: 'warden:1', type: 'offer', description: { type: 'offer', sdp: 'v=0' } }, 7)).toBeNull();
    expect(handshakeStep({ from, to: 'warden:1', type: 'answer' }, 7)).toBeNull();
    expect(handshakeStep({ from, to: 'warden:1', type: 'candidate' }, 7)).toBeNull();
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CHECK_IN_WINDOW_MS } from '../../../shared/constants.ts';
import type { VisionEvents } from '../../vision/analyser.ts';
import { CheckIn, type CheckInReason } from './check-in.ts';
import type { AnalysedFrame } from './jail-camera.ts';

const START = 1_700_000_000_000;
const QUIET: VisionEvents = { motion: false, noMotion: false, darkness: false, nodding: false, away: false, back: false };
const FACE = { x: 0.5, y: 0.4, size: 0.3 };

/** A frame of a camera with a face detector: the face seen unless `face` is null. */
function frame(events: Partial<VisionEvents>, options: Partial<Omit<AnalysedFrame, 'events'>> = {}): AnalysedFrame {
  return { events: { ...QUIET, ...events }, faceDetector: true, face: FACE, noddingByFace: false, ...options };
}
const empty = (events: Partial<VisionEvents> = {}) => frame(events, { face: null });

function watch(inSeat = true) {
  const sent: { event: string; type: 0 | 1; timeMs: number }[] = [];
  const asked: CheckInReason[] = [];
  const settled: boolean[] = [];
  const checkIn = new CheckIn({
    send: (report, timeMs) => sent.push({ event: report.event, type: report.type, timeMs }),
    onAsk: (reason) => asked.push(reason),
    onSettled: (answered) => settled.push(answered),
    inSeat: () => inSeat,
  });
  const at = (ms: number) => START + ms;
  return { checkIn, sent, asked, settled, at, events: () => sent.map((report) => report.event) };
}

beforeEach(() => {
  vi.useFakeTimers({ now: START });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('strong evidence', () => {
  it('is sent at once: no motion, darkness, motion again, nodding followed on the face', () => {
    const { checkIn, sent, asked, at } = watch();
    checkIn.frame(frame({ noMotion: true }), at(0));
    checkIn.frame(frame({ motion: true }), at(1_000));
    checkIn.frame(frame({ darkness: true }), at(2_000));
    checkIn.frame(frame({ nodding: true }, { noddingByFace: true }), at(3_000));
    expect(sent).toEqual([
      { event: 'no_motion_event_from_guest', type: 0, timeMs: at(0) },
      { event: 'motion_event_from_guest', type: 1, timeMs: at(1_000) },
      { event: 'darkness_event_from_guest', type: 0, timeMs: at(2_000) },
      { event: 'nodding_motion_event_from_guest', type: 1, timeMs: at(3_000) },
    ]);
    expect(asked).toEqual([]);
  });

  it('without a face detector (the JavaScript pipeline) no motion goes at once, as before', () => {
    const { checkIn, events, at } = watch();
    checkIn.frame(frame({ noMotion: true }, { faceDetector: false, face: null }), at(0));
    expect(events()).toEqual(['no_motion_event_from_guest']);
  });
});

describe('weak evidence is asked about first', () => {
  it('an away unanswered for the window is sent with the time it was seen; its back follows', () => {
    const { checkIn, sent, asked, settled, at } = watch();
    checkIn.frame(empty({ away: true }), at(0));
    expect(asked).toEqual(['away']);
    vi.advanceTimersByTime(CHECK_IN_WINDOW_MS - 1);
    expect(sent).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(sent).toEqual([{ event: 'away_event_from_guest', type: 0, timeMs: at(0) }]);
    expect(settled).toEqual([false]);
    // Over: a late tap answers nothing.
    checkIn.answer();
    expect(settled).toEqual([false]);
    checkIn.frame(frame({ back: true }), at(60_000));
    expect(sent.map((report) => report.event)).toEqual(['away_event_from_guest', 'back_event_from_guest']);
  });

  it('nodding seen on the motion alone is asked about; a tap on "I\'m here" answers it and nothing is sent', () => {
    const { checkIn, sent, asked, settled, at } = watch();
    checkIn.frame(empty({ nodding: true }), at(0));
    expect(asked).toEqual(['nodding']);
    vi.advanceTimersByTime(10_000);
    checkIn.answer();
    expect(settled).toEqual([true]);
    vi.advanceTimersByTime(CHECK_IN_WINDOW_MS);
    expect(sent).toEqual([]);
    // Answering again is nothing.
    checkIn.answer();
    expect(settled).toEqual([true]);
  });

  it('the face seen again answers an away: neither the away nor its back is sent', () => {
    const { checkIn, sent, settled, at } = watch();
    checkIn.frame(empty({ away: true }), at(0));
    checkIn.frame(frame({}), at(5_000));
    expect(settled).toEqual([true]);
    checkIn.frame(frame({ back: true }), at(6_000));
    vi.advanceTimersByTime(CHECK_IN_WINDOW_MS);
    expect(sent).toEqual([]);
  });

  it('the back event answers an away even without a face in its frame', () => {
    const { checkIn, sent, settled, at } = watch();
    checkIn.frame(empty({ away: true }), at(0));
    checkIn.frame(empty({ back: true }), at(5_000));
    vi.advanceTimersByTime(CHECK_IN_WINDOW_MS);
    expect(settled).toEqual([true]);
    expect(sent).toEqual([]);
  });

  it('asks once while a question is open, and sends all it held when unanswered', () => {
    const { checkIn, asked, events, at } = watch();
    checkIn.frame(empty({ nodding: true }), at(0));
    checkIn.frame(empty({ away: true }), at(10_000));
    expect(asked).toEqual(['nodding']);
    vi.advanceTimersByTime(CHECK_IN_WINDOW_MS);
    expect(events()).toEqual(['nodding_motion_event_from_guest', 'away_event_from_guest']);
  });

  it('an away during a leave or a break is no news: not asked, not sent, and no back either', () => {
    const { checkIn, asked, sent, at } = watch(false);
    checkIn.frame(empty({ away: true }), at(0));
    checkIn.frame(frame({ back: true }), at(60_000));
    vi.advanceTimersByTime(CHECK_IN_WINDOW_MS);
    expect(asked).toEqual([]);
    expect(sent).toEqual([]);
  });

  it('dispose drops an open question without sending it', () => {
    const { checkIn, sent, settled, at } = watch();
    checkIn.frame(empty({ away: true }), at(0));
    checkIn.dispose();
    vi.advanceTimersByTime(CHECK_IN_WINDOW_MS);
    checkIn.answer();
    expect(sent).toEqual([]);
    expect(settled).toEqual([]);
  });
});

describe('an empty seat is told once', () => {
  it('a frame with away and no motion reports away only', () => {
    const { checkIn, events, at } = watch();
    checkIn.frame(empty({ away: true, noMotion: true }), at(0));
    vi.advanceTimersByTime(CHECK_IN_WINDOW_MS);
    expect(events()).toEqual(['away_event_from_guest']);
  });

  it('a no-motion event while nobody is in sight waits, and the away of the same spell replaces it', () => {
    const { checkIn, events, at } = watch();
    checkIn.frame(empty({ noMotion: true }), at(0));
    expect(events()).toEqual([]);
    checkIn.frame(empty({ away: true }), at(20_000));
    vi.advanceTimersByTime(CHECK_IN_WINDOW_MS);
    expect(events()).toEqual(['away_event_from_guest']);
  });

  it('a no-motion event during an away already told, or being asked about, is dropped', () => {
    const { checkIn, events, at } = watch();
    checkIn.frame(empty({ away: true }), at(0));
    checkIn.frame(empty({ noMotion: true }), at(1_000));
    vi.advanceTimersByTime(CHECK_IN_WINDOW_MS);
    checkIn.frame(frame({ noMotion: true }, { faceDetector: false, face: null }), at(40_000));
    expect(events()).toEqual(['away_event_from_guest']);
  });

  it('a held no-motion event is sent when the face is seen again (the guest sat still), dropped when motion comes without one', () => {
    const seen = watch();
    seen.checkIn.frame(empty({ noMotion: true }), seen.at(0));
    seen.checkIn.frame(frame({ motion: true }), seen.at(3_000));
    expect(seen.sent).toEqual([
      { event: 'no_motion_event_from_guest', type: 0, timeMs: seen.at(0) },
      { event: 'motion_event_from_guest', type: 1, timeMs: seen.at(3_000) },
    ]);
    const unseen = watch();
    unseen.checkIn.frame(empty({ noMotion: true }), unseen.at(0));
    unseen.checkIn.frame(empty({ motion: true }), unseen.at(3_000));
    expect(unseen.events()).toEqual(['motion_event_from_guest']);
  });
});

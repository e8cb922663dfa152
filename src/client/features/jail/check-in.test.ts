import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CHECK_IN_WINDOW_MS } from '../../../shared/constants.ts';
import type { VisionEvents } from '../../vision/analyser.ts';
import { CheckIn } from './check-in.ts';
import type { AnalysedFrame } from './jail-camera.ts';

const START = 1_700_000_000_000;
const QUIET: VisionEvents = { motion: false, noMotion: false, darkness: false, nodding: false, away: false, back: false };
const FACE = { x: 0.5, y: 0.4, size: 0.3 };

/** A frame of a camera with a face detector: the face seen unless `face` is null. */
function frame(events: Partial<VisionEvents>, options: Partial<Omit<AnalysedFrame, 'events'>> = {}): AnalysedFrame {
  return { events: { ...QUIET, ...events }, faceDetector: true, face: FACE, ...options };
}
const empty = (events: Partial<VisionEvents> = {}) => frame(events, { face: null });

function watch(inSeat = true) {
  const sent: { event: string; type: 0 | 1; timeMs: number }[] = [];
  let asked = 0;
  const settled: boolean[] = [];
  const checkIn = new CheckIn({
    send: (report, timeMs) => sent.push({ event: report.event, type: report.type, timeMs }),
    onAsk: () => {
      asked += 1;
    },
    onSettled: (answered) => settled.push(answered),
    inSeat: () => inSeat,
  });
  const at = (ms: number) => START + ms;
  return { checkIn, sent, asked: () => asked, settled, at, events: () => sent.map((report) => report.event) };
}

beforeEach(() => {
  vi.useFakeTimers({ now: START });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('what is sent at once', () => {
  it('no motion, darkness, motion again and nodding (judged on the face) are sent as they come', () => {
    const { checkIn, sent, asked, at } = watch();
    checkIn.frame(frame({ noMotion: true }), at(0));
    checkIn.frame(frame({ motion: true }), at(1_000));
    checkIn.frame(frame({ darkness: true }, { face: null }), at(2_000));
    checkIn.frame(frame({ nodding: true }), at(3_000));
    expect(sent).toEqual([
      { event: 'no_motion_event_from_guest', type: 0, timeMs: at(0) },
      { event: 'motion_event_from_guest', type: 1, timeMs: at(1_000) },
      { event: 'darkness_event_from_guest', type: 0, timeMs: at(2_000) },
      { event: 'nodding_motion_event_from_guest', type: 1, timeMs: at(3_000) },
    ]);
    expect(asked()).toBe(0);
  });

  it('without a face detector (the JavaScript pipeline) no motion goes at once, as before', () => {
    const { checkIn, events, at } = watch();
    checkIn.frame(frame({ noMotion: true }, { faceDetector: false, face: null }), at(0));
    expect(events()).toEqual(['no_motion_event_from_guest']);
  });
});

describe('an empty seat is asked about first', () => {
  it('an away unanswered for the window is sent with the time it was seen; its back follows', () => {
    const { checkIn, sent, asked, settled, at } = watch();
    checkIn.frame(empty({ away: true }), at(0));
    expect(asked()).toBe(1);
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

  it('a tap on "I\'m here" answers it: nothing is sent, neither the away nor a back', () => {
    const { checkIn, sent, settled, at } = watch();
    checkIn.frame(empty({ away: true }), at(0));
    vi.advanceTimersByTime(10_000);
    checkIn.answer();
    expect(settled).toEqual([true]);
    vi.advanceTimersByTime(CHECK_IN_WINDOW_MS);
    checkIn.frame(frame({ back: true }), at(40_000));
    expect(sent).toEqual([]);
    // Answering again is nothing.
    checkIn.answer();
    expect(settled).toEqual([true]);
  });

  it('the face seen again answers it, and so does the back event without a face in its frame', () => {
    const seen = watch();
    seen.checkIn.frame(empty({ away: true }), seen.at(0));
    seen.checkIn.frame(frame({}), seen.at(5_000));
    const back = watch();
    back.checkIn.frame(empty({ away: true }), back.at(0));
    back.checkIn.frame(empty({ back: true }), back.at(5_000));
    vi.advanceTimersByTime(CHECK_IN_WINDOW_MS);
    for (const { settled, sent } of [seen, back]) {
      expect(settled).toEqual([true]);
      expect(sent).toEqual([]);
    }
  });

  it('an away during a leave or a break is no news: not asked, not sent, and no back either', () => {
    const { checkIn, asked, sent, at } = watch(false);
    checkIn.frame(empty({ away: true }), at(0));
    checkIn.frame(frame({ back: true }), at(60_000));
    vi.advanceTimersByTime(CHECK_IN_WINDOW_MS);
    expect(asked()).toBe(0);
    expect(sent).toEqual([]);
  });

  it('what else happens while it asks is sent at once', () => {
    const { checkIn, events, at } = watch();
    checkIn.frame(empty({ away: true }), at(0));
    checkIn.frame(empty({ darkness: true }), at(10_000));
    expect(events()).toEqual(['darkness_event_from_guest']);
    vi.advanceTimersByTime(CHECK_IN_WINDOW_MS);
    expect(events()).toEqual(['darkness_event_from_guest', 'away_event_from_guest']);
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

import { describe, expect, it } from 'vitest';
import type { VisionEvents } from '../../vision/analyser.ts';
import { motionReports, type AnalysedFrame } from './jail-camera.ts';

const none: VisionEvents = { motion: false, noMotion: false, darkness: false, nodding: false, away: false, back: false };

function frame(events: Partial<VisionEvents>): AnalysedFrame {
  return { events: { ...none, ...events }, faceDetector: true, face: null };
}

describe('what the camera reports to the relay', () => {
  it('nothing for a frame without events', () => {
    expect(motionReports(frame({}))).toEqual([]);
  });

  it('each event of a frame as its relay event, motion seen (1) or not (0)', () => {
    expect(motionReports(frame({ motion: true }))).toEqual([{ event: 'motion_event_from_guest', type: 1 }]);
    expect(motionReports(frame({ noMotion: true }))).toEqual([{ event: 'no_motion_event_from_guest', type: 0 }]);
    expect(motionReports(frame({ darkness: true }))).toEqual([{ event: 'darkness_event_from_guest', type: 0 }]);
    expect(motionReports(frame({ away: true }))).toEqual([{ event: 'away_event_from_guest', type: 0 }]);
    expect(motionReports(frame({ back: true }))).toEqual([{ event: 'back_event_from_guest', type: 1 }]);
    expect(motionReports(frame({ motion: true, darkness: true, nodding: true })).map((report) => report.event)).toEqual([
      'motion_event_from_guest',
      'nodding_motion_event_from_guest',
      'darkness_event_from_guest',
    ]);
  });
});

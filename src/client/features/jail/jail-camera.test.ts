import { describe, expect, it } from 'vitest';
import { motionReports } from './jail-camera.ts';

const none = { motion: false, noMotion: false, darkness: false, nodding: false };

describe('what the camera reports to the relay', () => {
  it('nothing for a frame without events', () => {
    expect(motionReports(none)).toEqual([]);
  });

  it('each event of a frame as its relay event, motion seen (1) or not (0)', () => {
    expect(motionReports({ ...none, motion: true })).toEqual([{ event: 'motion_event_from_guest', type: 1 }]);
    expect(motionReports({ ...none, noMotion: true })).toEqual([{ event: 'no_motion_event_from_guest', type: 0 }]);
    expect(motionReports({ ...none, nodding: true })).toEqual([{ event: 'nodding_motion_event_from_guest', type: 1 }]);
    expect(motionReports({ ...none, darkness: true })).toEqual([{ event: 'darkness_event_from_guest', type: 0 }]);
    expect(motionReports({ motion: true, noMotion: false, darkness: true, nodding: true }).map((report) => report.event)).toEqual([
      'motion_event_from_guest',
      'nodding_motion_event_from_guest',
      'darkness_event_from_guest',
    ]);
  });
});

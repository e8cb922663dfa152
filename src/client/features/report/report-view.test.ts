import { describe, expect, it } from 'vitest';
import type { ActivityLog } from '../../../shared/api/reservation.ts';
import {
  absentParts,
  finishReason,
  inTimeOrder,
  isAlertMarker,
  markersBySegment,
  markersOf,
  pauseCounts,
  segmentsOf,
  shareOf,
  stepMarkers,
  wholeMinutes,
} from './report-view.ts';

const MINUTE = 60_000;
const START = 1_000 * MINUTE;
const END = START + 60 * MINUTE;
const at = (minutes: number) => START + minutes * MINUTE;
const status = (minutes: number, jailStatus: 'injail' | 'leaving' | 'breaking'): ActivityLog => ({ type: 'status', time: at(minutes), status: { jailStatus } });
const motion = (minutes: number, kind: 'motion' | 'away' | 'back'): ActivityLog => ({
  type: 'motion',
  time: at(minutes),
  motion: { type: kind === 'away' ? 0 : 1, kind },
});

describe('the segments of a jail', () => {
  it('waits until the guest came in, then follows the status logs to the end', () => {
    const logs: ActivityLog[] = [
      { type: 'dialog', time: at(2), dialog: { type: 1, text: 'Welcome' } },
      status(10, 'leaving'),
      status(16, 'injail'),
      status(30, 'breaking'),
      status(45, 'injail'),
    ];
    expect(segmentsOf(logs, { enteredAt: at(2), finishedAt: END + 1_000 }, START, END)).toEqual([
      { kind: 'waiting', from: START, to: at(2) },
      { kind: 'seat', from: at(2), to: at(10) },
      { kind: 'leave', from: at(10), to: at(16) },
      { kind: 'seat', from: at(16), to: at(30) },
      { kind: 'break', from: at(30), to: at(45) },
      { kind: 'seat', from: at(45), to: END },
    ]);
  });

  it('runs a leave under way to an early finish, then shows the rest as ended', () => {
    expect(segmentsOf([status(20, 'leaving')], { enteredAt: START - MINUTE, finishedAt: at(25) }, START, END)).toEqual([
      { kind: 'seat', from: START, to: at(20) },
      { kind: 'leave', from: at(20), to: at(25) },
      { kind: 'ended', from: at(25), to: END },
    ]);
  });

  it('cuts away out of the seat from each away event to its back event', () => {
    const logs: ActivityLog[] = [
      motion(12, 'away'),
      { type: 'dialog', time: at(12), dialog: { type: 1, text: 'You left your seat.' } },
      motion(14, 'motion'),
      motion(20, 'back'),
      motion(40, 'away'),
      motion(42, 'back'),
    ];
    expect(segmentsOf(logs, { enteredAt: START, finishedAt: END }, START, END)).toEqual([
      { kind: 'seat', from: START, to: at(12) },
      { kind: 'away', from: at(12), to: at(20) },
      { kind: 'seat', from: at(20), to: at(40) },
      { kind: 'away', from: at(40), to: at(42) },
      { kind: 'seat', from: at(42), to: END },
    ]);
  });

  it('runs an away without its back to the finish, and ends one at a command', () => {
    expect(segmentsOf([motion(50, 'away')], { enteredAt: START, finishedAt: at(55) }, START, END)).toEqual([
      { kind: 'seat', from: START, to: at(50) },
      { kind: 'away', from: at(50), to: at(55) },
      { kind: 'ended', from: at(55), to: END },
    ]);
    // A break given on the device ends the away: the guest was there to give it; the seat afterwards is the seat.
    expect(segmentsOf([motion(10, 'away'), status(15, 'breaking'), status(35, 'injail')], { enteredAt: START, finishedAt: END }, START, END)).toEqual([
      { kind: 'seat', from: START, to: at(10) },
      { kind: 'away', from: at(10), to: at(15) },
      { kind: 'break', from: at(15), to: at(35) },
      { kind: 'seat', from: at(35), to: END },
    ]);
  });

  it('merges a repeated status and keeps logs after the finish inside it', () => {
    expect(segmentsOf([status(5, 'injail'), status(50, 'breaking')], { enteredAt: START, finishedAt: at(40) }, START, END)).toEqual([
      { kind: 'seat', from: START, to: at(40) },
      { kind: 'ended', from: at(40), to: END },
    ]);
  });

  it('waits throughout a jail never entered', () => {
    expect(segmentsOf([], { enteredAt: null, finishedAt: END }, START, END)).toEqual([{ kind: 'waiting', from: START, to: END }]);
  });
});

describe('the marked moments', () => {
  const logs: ActivityLog[] = [
    { type: 'motion', time: at(1), motion: { type: 1, kind: 'motion' } },
    { type: 'motion', time: at(2), motion: { type: 0 } },
    { type: 'motion', time: at(3), motion: { type: 0, kind: 'darkness' } },
    { type: 'motion', time: at(4), motion: { type: 0, kind: 'nodding' } },
    { type: 'dialog', time: at(5), dialog: { type: 0, text: 'How long?' } },
    { type: 'dialog', time: at(5), dialog: { type: 1, text: '55 minutes left.', by: 'virtual' } },
    { type: 'dialog', time: at(6), dialog: { type: 2, text: 'snitch' } },
    { type: 'dialog', time: at(6), dialog: { type: 1, text: 'Keep going, you are doing well.', by: 'human' } },
    { type: 'callup', time: at(7), callup: { text: 'Are you there?' } },
    { type: 'patrol', time: at(8), patrol: { data: 'data:image/jpeg;base64,AA' } },
    { type: 'instruction', time: at(9), instruction: { text: 'Done' } },
    status(9, 'leaving'),
  ];

  it('marks the camera alerts, the words (the Warden’s apart from a human warden’s) and the patrols; leaves plain motion and the rest to the log', () => {
    expect(markersOf(logs)).toEqual([
      { kind: 'no_motion', time: at(2) },
      { kind: 'darkness', time: at(3) },
      { kind: 'nodding', time: at(4) },
      { kind: 'guest', time: at(5), text: 'How long?' },
      { kind: 'warden', time: at(5), text: '55 minutes left.' },
      { kind: 'human', time: at(6), text: 'Keep going, you are doing well.' },
      { kind: 'human', time: at(7), text: 'Are you there?' },
      { kind: 'patrol', time: at(8), image: 'data:image/jpeg;base64,AA' },
    ]);
  });

  it('marks an away as an alert and leaves its back to the segments', () => {
    expect(markersOf([motion(10, 'away'), motion(12, 'back')])).toEqual([{ kind: 'away', time: at(10) }]);
    expect(isAlertMarker('away')).toBe(true);
    expect(isAlertMarker('back')).toBe(false);
    expect(isAlertMarker('warden')).toBe(false);
  });

  it('puts each moment in the segment it falls in', () => {
    const segments = segmentsOf([status(3, 'breaking'), status(6, 'injail')], { enteredAt: START, finishedAt: END }, START, END);
    const grouped = markersBySegment(segments, markersOf(logs));
    expect(grouped.map((markers) => markers.map((marker) => marker.kind))).toEqual([
      ['no_motion'],
      ['darkness', 'nodding', 'guest', 'warden'],
      ['human', 'human', 'patrol'],
    ]);
  });

  it('reads a warden’s line logged before the speaker was recorded as the Warden’s', () => {
    expect(markersOf([{ type: 'dialog', time: at(5), dialog: { type: 1, text: 'Old line' } }])).toEqual([{ kind: 'warden', time: at(5), text: 'Old line' }]);
  });
});

describe('the figures', () => {
  it('counts the leaves and the breaks from the status logs', () => {
    expect(pauseCounts([status(1, 'leaving'), status(2, 'injail'), status(3, 'breaking'), status(4, 'injail'), status(5, 'leaving')])).toEqual({
      leaves: 2,
      breaks: 1,
    });
  });

  it('places a time on the jail, and rounds minutes down', () => {
    expect(shareOf(at(15), START, END)).toBe(0.25);
    expect(shareOf(END + MINUTE, START, END)).toBe(1);
    expect(shareOf(START - MINUTE, START, END)).toBe(0);
    expect(wholeMinutes(MINUTE * 2 - 1)).toBe(1);
  });
});

describe('the reason for an early finish', () => {
  it('is the last instruction log, or none', () => {
    expect(finishReason([status(1, 'leaving'), { type: 'instruction', time: at(2), instruction: { text: 'A delivery came' } }])).toBe('A delivery came');
    expect(finishReason([status(1, 'leaving')])).toBeNull();
  });
});

describe('the plan on the timeline', () => {
  const steps = [
    { number: 1, minutes: 0, at: START, title: 'Read the notes' },
    { number: 2, minutes: 15, at: START + 15 * MINUTE, title: 'Outline the argument' },
    { number: 3, minutes: 45, at: START + 45 * MINUTE, title: 'Write the conclusion' },
  ];

  it('marks the steps begun before the finish, by name, in time order with the rest', () => {
    const marked = stepMarkers(steps, START + 30 * MINUTE);
    expect(marked).toEqual([
      { kind: 'step', time: START, text: 'Read the notes' },
      { kind: 'step', time: START + 15 * MINUTE, text: 'Outline the argument' },
    ]);
    expect(inTimeOrder([{ kind: 'patrol', time: START + MINUTE }, ...marked]).map((marker) => marker.kind)).toEqual(['step', 'patrol', 'step']);
  });
});

describe('the parts a jail did not have', () => {
  it('names each part without a marker, and the plan only when none was booked', () => {
    expect(absentParts([], 0)).toEqual(['alerts', 'words', 'plan', 'patrols']);
    expect(
      absentParts(
        [
          { kind: 'nodding', time: at(5) },
          { kind: 'human', time: at(6), text: 'Hello' },
        ],
        2,
      ),
    ).toEqual(['patrols']);
    expect(
      absentParts(
        [
          { kind: 'guest', time: at(5), text: 'Hi' },
          { kind: 'patrol', time: at(6), image: 'data:' },
        ],
        0,
      ),
    ).toEqual(['alerts', 'plan']);
  });
});

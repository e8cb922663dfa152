import { describe, expect, it } from 'vitest';
import { allowanceLeft, availableCommands, commandOutcome, countdownText, elapsedShare, isPatrolDue, isRemainingTimeShown } from './session-rules.ts';

const MINUTE = 60_000;

describe('commands and status', () => {
  it('offers 1-4 in the jail, only 5 while leaving, only 6 on a break', () => {
    expect(availableCommands('injail')).toEqual([1, 2, 3, 4]);
    expect(availableCommands('leaving')).toEqual([5]);
    expect(availableCommands('breaking')).toEqual([6]);
    // A warden may set the normal ones; leave and break still offer only their way back.
    expect(availableCommands('injail', [1, 3])).toEqual([1, 3]);
    expect(availableCommands('leaving', [1, 3])).toEqual([5]);
  });

  it('leave the seat and come back; a break closes the camera and its end reopens it', () => {
    expect(commandOutcome(1, 'injail')).toEqual({ status: 'leaving', effect: 'none' });
    expect(commandOutcome(5, 'leaving')).toEqual({ status: 'injail', effect: 'none' });
    expect(commandOutcome(2, 'injail')).toEqual({ status: 'breaking', effect: 'close_camera' });
    expect(commandOutcome(6, 'breaking')).toEqual({ status: 'injail', effect: 'reopen_camera' });
  });

  it('finish early opens the reason form and talk talks, without a status change', () => {
    expect(commandOutcome(3, 'injail')).toEqual({ status: 'injail', effect: 'open_finish_form' });
    expect(commandOutcome(4, 'injail')).toEqual({ status: 'injail', effect: 'talk' });
  });

  it('refuses a command that is not on offer', () => {
    expect(commandOutcome(5, 'injail')).toBeNull();
    expect(commandOutcome(1, 'leaving')).toBeNull();
    expect(commandOutcome(3, 'breaking')).toBeNull();
    expect(commandOutcome(2, 'injail', [1, 3])).toBeNull();
  });
});

describe('countdowns', () => {
  it('counts 5 minutes for a leave and 20 for a break, never below zero', () => {
    expect(allowanceLeft('leaving', 0, 2 * MINUTE)).toBe(3 * MINUTE);
    expect(allowanceLeft('breaking', 0, 2 * MINUTE)).toBe(18 * MINUTE);
    expect(allowanceLeft('leaving', 0, 6 * MINUTE)).toBe(0);
    expect(allowanceLeft('injail', 0, MINUTE)).toBeNull();
  });

  it('shows the remaining time from 30 minutes before the end', () => {
    expect(isRemainingTimeShown(60 * MINUTE, 29 * MINUTE)).toBe(false);
    expect(isRemainingTimeShown(60 * MINUTE, 30 * MINUTE)).toBe(true);
    expect(isRemainingTimeShown(60 * MINUTE, 59 * MINUTE)).toBe(true);
  });
});

describe('patrol', () => {
  it('takes the first image 10 s after setup, whatever the draw', () => {
    expect(isPatrolDue({ setupAt: 0, lastPatrolAt: null, taken: 0 }, 9_999, 0)).toBe(false);
    expect(isPatrolDue({ setupAt: 0, lastPatrolAt: null, taken: 0 }, 10_000, 0.99)).toBe(true);
  });

  it('then with chance minutes since the last / 90', () => {
    const state = { setupAt: 0, lastPatrolAt: 0, taken: 1 };
    // 9 minutes since the last: chance 0.1.
    expect(isPatrolDue(state, 9 * MINUTE, 0.099)).toBe(true);
    expect(isPatrolDue(state, 9 * MINUTE, 0.1)).toBe(false);
    // 90 minutes or more: certain.
    expect(isPatrolDue(state, 90 * MINUTE, 0.999)).toBe(true);
  });

  it('never takes a 31st image', () => {
    expect(isPatrolDue({ setupAt: 0, lastPatrolAt: 0, taken: 30 }, 200 * MINUTE, 0)).toBe(false);
  });
});

describe('elapsedShare', () => {
  const start = 10 * 60 * MINUTE;
  const end = start + 60 * MINUTE;

  it('grows from 0 at the start to 1 at the end', () => {
    expect(elapsedShare(start, end, start)).toBe(0);
    expect(elapsedShare(start, end, start + 15 * MINUTE)).toBe(0.25);
    expect(elapsedShare(start, end, start + 45 * MINUTE)).toBe(0.75);
    expect(elapsedShare(start, end, end)).toBe(1);
  });

  it('stays at 0 before the start and at 1 after the end', () => {
    expect(elapsedShare(start, end, start - 5 * MINUTE)).toBe(0);
    expect(elapsedShare(start, end, end + 5 * MINUTE)).toBe(1);
  });

  it('never divides by a window of no length', () => {
    expect(elapsedShare(start, start, start - 1)).toBe(0);
    expect(elapsedShare(start, start, start)).toBe(1);
  });
});

describe('countdownText', () => {
  it.each([
    [0, '0:00'],
    [-5_000, '0:00'],
    [1, '0:01'],
    [59_000, '0:59'],
    [7 * MINUTE + 5_000, '7:05'],
    [59 * MINUTE + 59_500, '1:00:00'],
    [62 * MINUTE + 9_000, '1:02:09'],
    [8 * 60 * MINUTE, '8:00:00'],
  ])('%i ms is %s', (ms, text) => {
    expect(countdownText(ms)).toBe(text);
  });
});

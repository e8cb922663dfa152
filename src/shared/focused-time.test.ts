import { describe, expect, it } from 'vitest';
import { endedPauses, focusedMs, heldMs, jailFigures, type JailTimes } from './focused-time.ts';

const MINUTE = 60_000;
const jail: JailTimes = {
  startTime: 0,
  endTime: 60 * MINUTE,
  enteredAt: 2 * MINUTE,
  jailStatus: 'injail',
  statusSince: 0,
  breakMs: 0,
  awayMs: 0,
};

describe('held time', () => {
  it('runs from entering (or the start) to the finish, capped at the planned end', () => {
    expect(heldMs(jail, 70 * MINUTE)).toBe(58 * MINUTE);
    expect(heldMs({ ...jail, enteredAt: -5 * MINUTE }, 30 * MINUTE)).toBe(30 * MINUTE);
    expect(heldMs({ ...jail, enteredAt: null }, 60 * MINUTE)).toBe(0);
  });

  it('keeps breaks and leaves in (the light plan counts it so)', () => {
    const paused: JailTimes = { ...jail, breakMs: 20 * MINUTE, awayMs: 5 * MINUTE };
    expect(heldMs(paused, 60 * MINUTE)).toBe(58 * MINUTE);
  });
});

describe('focused time', () => {
  it('is the held time less the breaks and the leaves', () => {
    expect(focusedMs({ ...jail, breakMs: 20 * MINUTE, awayMs: 5 * MINUTE }, 60 * MINUTE)).toBe(33 * MINUTE);
  });

  it('counts a break or a leave under way up to the finish, at most the planned end', () => {
    const leaving: JailTimes = { ...jail, jailStatus: 'leaving', statusSince: 50 * MINUTE, awayMs: MINUTE };
    expect(focusedMs(leaving, 55 * MINUTE)).toBe(53 * MINUTE - 6 * MINUTE);
    expect(focusedMs(leaving, 70 * MINUTE)).toBe(58 * MINUTE - 11 * MINUTE);
    const breaking: JailTimes = { ...jail, jailStatus: 'breaking', statusSince: 40 * MINUTE, awayMs: MINUTE };
    expect(focusedMs(breaking, 50 * MINUTE)).toBe(48 * MINUTE - 10 * MINUTE - MINUTE);
  });

  it('is nothing for an ignored jail, and never less than nothing', () => {
    expect(focusedMs({ ...jail, enteredAt: null }, 60 * MINUTE)).toBe(0);
    expect(focusedMs({ ...jail, breakMs: 90 * MINUTE }, 60 * MINUTE)).toBe(0);
  });
});

describe('ended pauses', () => {
  it('adds the break or the leave that a status change ends', () => {
    expect(endedPauses({ ...jail, jailStatus: 'breaking', statusSince: 10 * MINUTE, breakMs: MINUTE }, 30 * MINUTE)).toEqual({
      breakMs: 21 * MINUTE,
      awayMs: 0,
    });
    expect(endedPauses({ ...jail, jailStatus: 'leaving', statusSince: 10 * MINUTE, awayMs: MINUTE }, 14 * MINUTE)).toEqual({
      breakMs: 0,
      awayMs: 5 * MINUTE,
    });
    expect(endedPauses({ ...jail, breakMs: 2, awayMs: 3 }, 30 * MINUTE)).toEqual({ breakMs: 2, awayMs: 3 });
  });
});

describe('jail figures', () => {
  it('gives the held and focused time with the breaks and leaves between them', () => {
    const leaving: JailTimes = { ...jail, jailStatus: 'leaving', statusSince: 50 * MINUTE, breakMs: 10 * MINUTE, awayMs: MINUTE };
    expect(jailFigures(leaving, 70 * MINUTE)).toEqual({ heldMs: 58 * MINUTE, focusedMs: 37 * MINUTE, breakMs: 10 * MINUTE, awayMs: 11 * MINUTE });
  });

  it('is nothing for an ignored jail', () => {
    expect(jailFigures({ ...jail, enteredAt: null, breakMs: MINUTE }, 60 * MINUTE)).toEqual({ heldMs: 0, focusedMs: 0, breakMs: 0, awayMs: 0 });
  });
});

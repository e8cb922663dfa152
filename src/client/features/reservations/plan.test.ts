import { describe, expect, it } from 'vitest';
import { planOf, planPosition } from './plan.ts';

const MINUTE = 60_000;
const START = Date.UTC(2026, 11, 1, 1, 0);

describe('the plan', () => {
  const steps = planOf({
    startTime: START,
    schedules: [
      { minutes: 45, title: 'Write the conclusion' },
      { minutes: 15, title: ' Outline the argument ' },
      { minutes: 0, title: 'Read the notes' },
    ],
  });

  it('puts the entries in time order at their minutes, numbered', () => {
    expect(steps).toEqual([
      { number: 1, minutes: 0, at: START, title: 'Read the notes' },
      { number: 2, minutes: 15, at: START + 15 * MINUTE, title: 'Outline the argument' },
      { number: 3, minutes: 45, at: START + 45 * MINUTE, title: 'Write the conclusion' },
    ]);
  });

  it('knows the step under way and the next one', () => {
    expect(planPosition(steps, START - MINUTE)).toEqual({ current: null, next: steps[0] });
    expect(planPosition(steps, START + 14 * MINUTE)).toEqual({ current: steps[0], next: steps[1] });
    expect(planPosition(steps, START + 15 * MINUTE)).toEqual({ current: steps[1], next: steps[2] });
    expect(planPosition(steps, START + 50 * MINUTE)).toEqual({ current: steps[2], next: null });
    expect(planPosition([], START)).toEqual({ current: null, next: null });
  });
});

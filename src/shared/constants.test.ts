import { describe, expect, it } from 'vitest';
import { BOOKING_DURATIONS_HOURS, patrolChance } from './constants.ts';

describe('shared constants', () => {
  it('offers durations from 1 to 8 hours in quarter hours', () => {
    expect(BOOKING_DURATIONS_HOURS).toHaveLength(29);
    expect(BOOKING_DURATIONS_HOURS[0]).toBe(1);
    expect(BOOKING_DURATIONS_HOURS[1]).toBe(1.25);
    expect(BOOKING_DURATIONS_HOURS.at(-1)).toBe(8);
  });

  it('grows the patrol chance with the minutes since the last patrol', () => {
    expect(patrolChance(0)).toBe(0);
    expect(patrolChance(45)).toBe(0.5);
    expect(patrolChance(200)).toBe(1);
  });
});

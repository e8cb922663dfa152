import { describe, expect, it } from 'vitest';
import { BOOKING_DURATIONS_HOURS, CLIENT_VERSION, LOCAL_DB_NAME, LOCAL_DB_VERSION, patrolChance } from './constants.ts';

describe('client constants', () => {
  it('holds the product’s figures in milliseconds', () => {
    expect(CLIENT_VERSION).toBe(70);
    expect([LOCAL_DB_NAME, LOCAL_DB_VERSION]).toEqual(['Warden_PWA', 4]);
  });

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

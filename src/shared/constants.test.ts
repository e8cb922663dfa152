import { describe, expect, it } from 'vitest';
import {
  BOOKING_DURATIONS_HOURS,
  CHANGE_CUTOFF_MS,
  CLIENT_VERSION,
  LAZY_ALERT_BLOCK_MS,
  LOCAL_DB_NAME,
  LOCAL_DB_VERSION,
  READY_CHECK_MS,
  patrolChance,
} from './constants.ts';

describe('SPEC §9 constants', () => {
  it('matches the figures the spec gives in milliseconds', () => {
    expect(CLIENT_VERSION).toBe(70);
    expect([LOCAL_DB_NAME, LOCAL_DB_VERSION]).toEqual(['Warden_PWA', 4]);
    expect(CHANGE_CUTOFF_MS).toBe(21_600_000);
    expect(LAZY_ALERT_BLOCK_MS).toBe(604_800_000);
    expect(READY_CHECK_MS).toBe(870_000);
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

import { describe, expect, it } from 'vitest';
import { attendancePercent, barShare, chartTopHours, hoursAndMinutes, shortDate, totalFocusedMs } from './progress-view.ts';

const HOUR = 3_600_000;
const weeks = (...hours: number[]) => hours.map((value, index) => ({ start: index, focusedMs: value * HOUR }));

describe('progress-view', () => {
  it('splits a duration into hours and minutes, rounding down to the minute', () => {
    expect(hoursAndMinutes(0)).toEqual({ hours: 0, minutes: 0 });
    expect(hoursAndMinutes(3 * HOUR + 20 * 60_000 + 59_999)).toEqual({ hours: 3, minutes: 20 });
  });

  it('tops the chart at a round number of hours above the longest week', () => {
    expect(chartTopHours(weeks(0, 0))).toBe(1);
    expect(chartTopHours(weeks(0.5))).toBe(1);
    expect(chartTopHours(weeks(1.2, 0.3))).toBe(2);
    expect(chartTopHours(weeks(4))).toBe(5);
    expect(chartTopHours(weeks(5.01))).toBe(10);
    expect(chartTopHours(weeks(17))).toBe(20);
    expect(chartTopHours(weeks(45))).toBe(50);
  });

  it('gives each bar its share of the top, never above it', () => {
    expect(barShare(2.5 * HOUR, 5)).toBe(0.5);
    expect(barShare(0, 1)).toBe(0);
    expect(barShare(6 * HOUR, 5)).toBe(1);
  });

  it('rounds the attendance to a whole percentage, and has none before the first jail', () => {
    expect(attendancePercent({ entered: 11, counted: 20 })).toBe(55);
    expect(attendancePercent({ entered: 2, counted: 3 })).toBe(67);
    expect(attendancePercent({ entered: 0, counted: 0 })).toBeNull();
  });

  it('adds up the weeks', () => {
    expect(totalFocusedMs(weeks(1, 2.5, 0))).toBe(3.5 * HOUR);
  });
});

describe('shortDate', () => {
  it('names the day in the guest zone and language', () => {
    // Sunday 11 November 2029, 15:00 UTC: already Monday the 12th in Tokyo.
    const instant = Date.UTC(2029, 10, 11, 15, 0);
    expect(shortDate(instant, '+09:00', 'en')).toBe('Nov 12');
    expect(shortDate(instant, '+09:00', 'ja')).toBe('11月12日');
  });
});

import { describe, expect, it } from 'vitest';
import type { Reservation } from '../../../shared/api/reservation.ts';
import { againBooking, againStart, bookAgainOf, bookAgainPath, bookedInSlot } from './book-again.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const TOKYO = 'Asia/Tokyo';
/** Saturday 2026-11-21 10:00 in Tokyo. */
const JAIL_START = Date.UTC(2026, 10, 21, 1, 0);

/** A booking of the guest's list, one hour, one-off and to come unless told. */
function reservation(id: number, startTime: number, extra: Partial<Reservation> = {}) {
  return {
    id,
    work: 'Write the report',
    startTime,
    duration: 1,
    isFinished: false,
    repeatType: 'none' as const,
    dailyRepeatSettings: [],
    schedules: [],
    ...extra,
  };
}

describe('booking the next one', () => {
  it('starts tomorrow or a week from today at the clock time the jail started', () => {
    // Read the same evening, and two days later just after midnight in Tokyo.
    const evening = JAIL_START + 9 * HOUR;
    expect(againStart(JAIL_START, 1, evening, TOKYO)).toBe(JAIL_START + DAY);
    expect(againStart(JAIL_START, 7, evening, TOKYO)).toBe(JAIL_START + 7 * DAY);
    expect(againStart(JAIL_START, 1, JAIL_START + 2 * DAY - 9 * HOUR, TOKYO)).toBe(JAIL_START + 3 * DAY);
  });

  it('keeps the same wall-clock time across a change of the clocks', () => {
    // Saturday 2026-10-31 09:00 in New York (EDT); the clocks go back on Sunday 1 November.
    const start = Date.UTC(2026, 9, 31, 13, 0);
    expect(againStart(start, 1, start + 2 * HOUR, 'America/New_York')).toBe(Date.UTC(2026, 10, 1, 14, 0));
  });

  it('goes through the form address and back, and ignores an address it did not make', () => {
    expect(bookAgainOf(new URL(`https://warden.test${bookAgainPath(42, 7)}`).searchParams)).toEqual({ id: 42, days: 7 });
    expect(bookAgainOf(new URLSearchParams('again=42&days=3'))).toBeNull();
    expect(bookAgainOf(new URLSearchParams('again=x&days=1'))).toBeNull();
    expect(bookAgainOf(new URLSearchParams())).toBeNull();
  });

  it('books the same work, length and plan once', () => {
    const finished = reservation(1, JAIL_START, { duration: 1.5, repeatType: 'weekly', schedules: [{ minutes: 30, title: 'Outline' }] });
    expect(againBooking(finished, JAIL_START + DAY)).toEqual({
      work: 'Write the report',
      duration: 1.5,
      startTime: JAIL_START + DAY,
      repeatType: 'none',
      dailyRepeatSettings: [],
      schedules: [{ minutes: 30, title: 'Outline' }],
    });
  });

  it('names the jail to come already in the slot, a repeating one by its later occurrences, but not a finished one', () => {
    const tomorrow = JAIL_START + DAY;
    expect(bookedInSlot(tomorrow, 1, [reservation(2, tomorrow + 30 * MINUTE)], TOKYO)).toEqual({ id: 2, startTime: tomorrow + 30 * MINUTE });
    expect(bookedInSlot(tomorrow, 1, [reservation(2, tomorrow + HOUR)], TOKYO)).toBeNull();
    expect(bookedInSlot(tomorrow, 1, [reservation(3, tomorrow, { isFinished: true })], TOKYO)).toBeNull();
    const weekly = reservation(4, JAIL_START + 30 * MINUTE, { repeatType: 'weekly' });
    const nextWeek = JAIL_START + 7 * DAY;
    expect(bookedInSlot(nextWeek, 1, [weekly], TOKYO)).toEqual({ id: 4, startTime: nextWeek + 30 * MINUTE });
  });
});

/**
 * "Book the next one" after a report (docs/client.md, The report): the same
 * work, length and plan as a finished jail, tomorrow or a week from today at
 * the clock time it started, handed to the booking form by its address so
 * that a reload keeps it. The booking rules stay in src/shared/reservations.ts
 * and the server; this module only names the slot and whether one of the
 * guest's jails is already in it.
 */
import type { Reservation } from '../../../shared/api/reservation.ts';
import { type BookedSlot, type BookingRequest, firstOverlap, repeatRuleOf } from '../../../shared/reservations.ts';
import { addDays, fromLocal, toLocal } from '../../../shared/time-zone.ts';

/** The two choices, and how many days after today each one is. */
export const AGAIN_DAYS = { tomorrow: 1, next_week: 7 } as const;
export type AgainChoice = keyof typeof AGAIN_DAYS;

const AGAIN_PARAM = 'again';
const DAYS_PARAM = 'days';

/** `days` after today, in the guest's zone, at the clock time `jailStart` showed. */
export function againStart(jailStart: number, days: number, now: number, timeZone: string): number {
  return fromLocal(addDays(toLocal(now, timeZone), days), toLocal(jailStart, timeZone).minutes, timeZone);
}

/** The booking form's address pre-filled from the finished jail `id`, `days` after today. */
export function bookAgainPath(id: number, days: number): string {
  return `/reservation/add?${new URLSearchParams({ [AGAIN_PARAM]: String(id), [DAYS_PARAM]: String(days) })}`;
}

/** The jail and the days the form's address names, or null for a plain new booking. */
export function bookAgainOf(search: URLSearchParams): { id: number; days: number } | null {
  const id = Number(search.get(AGAIN_PARAM));
  const days = Number(search.get(DAYS_PARAM));
  const offered: readonly number[] = Object.values(AGAIN_DAYS);
  return Number.isInteger(id) && id > 0 && offered.includes(days) ? { id, days } : null;
}

/** The booking of the next one: the finished jail's work, length and plan, once, at `startTime`. */
export function againBooking(jail: Pick<Reservation, 'work' | 'duration' | 'schedules'>, startTime: number): BookingRequest {
  return { work: jail.work, duration: jail.duration, startTime, repeatType: 'none', dailyRepeatSettings: [], schedules: jail.schedules };
}

/** The guest's jail to come that the slot would overlap (a repeating one by its every occurrence), or null. */
export function bookedInSlot(
  startTime: number,
  duration: number,
  reservations: readonly Pick<Reservation, 'id' | 'startTime' | 'duration' | 'isFinished' | 'repeatType' | 'dailyRepeatSettings'>[],
  timeZone: string,
): { id: number; startTime: number } | null {
  const toCome = reservations.filter((reservation) => !reservation.isFinished);
  const slots: (BookedSlot & { id: number })[] = toCome.map((reservation) => ({
    id: reservation.id,
    startTime: reservation.startTime,
    duration: reservation.duration,
    rule: reservation.repeatType === 'none' ? null : repeatRuleOf(reservation, timeZone),
  }));
  const overlap = firstOverlap({ startTime, duration, rule: null }, slots);
  return overlap === null ? null : { id: overlap.slot.id, startTime: overlap.occurrenceStart };
}

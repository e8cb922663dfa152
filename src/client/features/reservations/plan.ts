import { MINUTE_MS } from '../../../shared/durations.ts';
import type { Reservation } from '../../../shared/api/reservation.ts';

/**
 * The plan a guest booked with a jail: its schedule entries ({minutes,
 * title}, minutes after the start) as steps at their times. The live screen
 * shows the current and the next step and the Warden announces each at its
 * minute; the detail page lists them; the report's timeline marks them.
 */
export interface PlanStep {
  /** Its place in the plan, from 1. */
  number: number;
  minutes: number;
  /** Epoch ms. */
  at: number;
  title: string;
}

/** The steps of a reservation's plan, in time order (the server keeps only entries with a title). */
export function planOf(reservation: Pick<Reservation, 'startTime' | 'schedules'>): PlanStep[] {
  return [...reservation.schedules]
    .sort((a, b) => a.minutes - b.minutes)
    .map((entry, index) => ({ number: index + 1, minutes: entry.minutes, at: reservation.startTime + entry.minutes * MINUTE_MS, title: entry.title.trim() }));
}

/** The step under way at `now` (the last one begun) and the one after it; either may be null. */
export function planPosition(steps: readonly PlanStep[], now: number): { current: PlanStep | null; next: PlanStep | null } {
  const begun = steps.filter((step) => step.at <= now);
  return { current: begun.at(-1) ?? null, next: steps.find((step) => step.at > now) ?? null };
}

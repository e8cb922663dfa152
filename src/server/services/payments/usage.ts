import { and, desc, eq, gt, inArray, isNotNull, ne, sql } from 'drizzle-orm';
import type { Database } from '../../db/database.ts';
import { guests, jails, reservations, type GuestRow } from '../../db/schema/index.ts';
import { HOUR_MS } from '../../../shared/durations.ts';
import { heldMs, type JailTimes } from '../../../shared/focused-time.ts';
import { localMonthOf, timeZoneOfBrowserOffset } from '../../../shared/time-zone.ts';

/** Whether two instants fall in the same calendar month of the guest's time zone. */
function sameLocalMonth(guest: Pick<GuestRow, 'timezone'>, a: number, b: number): boolean {
  const timeZone = timeZoneOfBrowserOffset(guest.timezone);
  const first = localMonthOf(a, timeZone);
  const second = localMonthOf(b, timeZone);
  return first.year === second.year && first.month === second.month;
}

/** The hours a jail held the guest, breaks and leaves included: what the light plan's 15 hours count (docs/rules.md). */
export function jailedHours(jail: Pick<JailTimes, 'startTime' | 'endTime' | 'enteredAt'>, finishedAt: number): number {
  return heldMs(jail, finishedAt) / HOUR_MS;
}

/** When the guest's last counted jail other than `exceptReservationId` finished, if one did. */
async function lastCountedFinish(db: Database, guestId: number, exceptReservationId: number): Promise<number | null> {
  const [row] = await db
    .select({ finishedAt: jails.finishedAt })
    .from(jails)
    .innerJoin(reservations, eq(reservations.id, jails.reservationId))
    .where(and(eq(jails.guestId, guestId), ne(jails.reservationId, exceptReservationId), isNotNull(jails.finishedAt), eq(reservations.isTrial, false)))
    .orderBy(desc(jails.finishedAt))
    .limit(1);
  return row?.finishedAt ?? null;
}

/**
 * Adds a finished jail's hours to the guest's `totalDurationThisMonth`
 * (the light plan's 15 hours). The total belongs to the month of the last
 * counted finish; if that was an earlier month of the guest's time zone, the
 * total starts again from these hours, so a finish just after midnight on
 * the 1st never lands on last month's count.
 */
export async function addJailedHours(db: Database, guest: GuestRow, reservationId: number, hours: number, now: number): Promise<void> {
  const previous = await lastCountedFinish(db, guest.id, reservationId);
  const carried = previous !== null && sameLocalMonth(guest, previous, now) ? guest.totalDurationThisMonth : 0;
  await db
    .update(guests)
    .set({ totalDurationThisMonth: carried + hours, updatedAt: now })
    .where(eq(guests.id, guest.id));
}

/**
 * Sets `totalDurationThisMonth` back to 0 for guests whose month (in their
 * own time zone) has turned since their last counted jail finished. Returns
 * the guests changed, whose cached reads must go.
 */
export async function rollOverMonthlyUsage(db: Database, now: number): Promise<number[]> {
  const counted = await db
    .select({ id: guests.id, timezone: guests.timezone, lastFinish: sql<number | null>`max(${jails.finishedAt})`.mapWith(Number) })
    .from(guests)
    .leftJoin(jails, eq(jails.guestId, guests.id))
    .leftJoin(reservations, and(eq(reservations.id, jails.reservationId), eq(reservations.isTrial, false)))
    .where(and(gt(guests.totalDurationThisMonth, 0), isNotNull(reservations.id)))
    .groupBy(guests.id, guests.timezone);
  const stale = counted.filter((row) => row.lastFinish === null || !sameLocalMonth(row, row.lastFinish, now)).map((row) => row.id);
  if (stale.length === 0) return [];
  await db.update(guests).set({ totalDurationThisMonth: 0, updatedAt: now }).where(inArray(guests.id, stale));
  return stale;
}

import { and, count, eq, gt, lt } from 'drizzle-orm';
import type { Pause } from '../../shared/api/pause.ts';
import { MAX_PAUSE_DAYS, MAX_PAUSE_DAYS_AHEAD, MAX_PAUSES_AHEAD } from '../../shared/constants.ts';
import { endedPause, pauseProblem, pauseSpanOf } from '../../shared/reservations.ts';
import type { LocalDate } from '../../shared/time-zone.ts';
import type { Database } from '../db/database.ts';
import { pauses, type GuestRow, type PauseRow } from '../db/schema/index.ts';
import { ApiFailure } from '../lib/api.ts';
import { changeAsGuest, guestTimeZone, pausesEndingAfter } from './reservations.ts';

/**
 * A guest's pauses of their repeating jails (docs/rules.md, Pauses). Which
 * occurrences a pause holds is decided where they are read
 * (`holdingPause`, and its SQL form in pause-sql.ts); here pauses are set,
 * ended and listed. Every change runs holding the guest's row, so the
 * limits below are counted before the write, one change at a time.
 */

/** A pause as the API gives it. */
export function toPause(row: PauseRow): Pause {
  return { id: row.id, fromTime: row.fromTime, toTime: row.toTime };
}

/** The guest's pauses not yet over at `now`, earliest first. */
export function pausesAhead(db: Database, guestId: number, now: number): Promise<PauseRow[]> {
  return pausesEndingAfter(db, guestId, now);
}

/**
 * Sets a pause from the start of `firstDay` to the end of `lastDay` (the
 * guest's dates). It must begin more than 6 hours from now, hold at most
 * `MAX_PAUSE_DAYS` days, overlap no other pause, and the guest may have at
 * most `MAX_PAUSES_AHEAD` not yet over. Fails with an `ApiFailure`.
 */
export async function createPause(db: Database, guest: GuestRow, firstDay: LocalDate, lastDay: LocalDate, now: number): Promise<PauseRow> {
  const timeZone = guestTimeZone(guest);
  const problem = pauseProblem(firstDay, lastDay, now, timeZone);
  if (problem === 'pause_too_long') throw new ApiFailure(problem, { days: MAX_PAUSE_DAYS });
  if (problem === 'pause_too_far') throw new ApiFailure(problem, { days: MAX_PAUSE_DAYS_AHEAD });
  if (problem !== null) throw new ApiFailure(problem);
  const span = pauseSpanOf(firstDay, lastDay, timeZone);
  return changeAsGuest(db, guest.id, async (tx) => {
    const [overlapping] = await tx
      .select({ id: pauses.id })
      .from(pauses)
      .where(and(eq(pauses.guestId, guest.id), lt(pauses.fromTime, span.toTime), gt(pauses.toTime, span.fromTime)))
      .limit(1);
    if (overlapping !== undefined) throw new ApiFailure('pause_overlap');
    const [ahead] = await tx
      .select({ count: count() })
      .from(pauses)
      .where(and(eq(pauses.guestId, guest.id), gt(pauses.toTime, now)));
    if ((ahead?.count ?? 0) >= MAX_PAUSES_AHEAD) throw new ApiFailure('pause_limit', { count: MAX_PAUSES_AHEAD });
    const [row] = await tx
      .insert(pauses)
      .values({ guestId: guest.id, ...span, createdAt: now })
      .returning();
    if (row === undefined) throw new Error('insert returned no pause');
    return row;
  });
}

/**
 * Ends the guest's pause `id` at `now`: the part more than 6 hours ahead
 * is given back (the repeats resume from there); a pause that had not
 * begun by then is removed. Answers the pause as it is now, or null when
 * it was removed. Another guest's id fails as an unknown one does.
 */
export async function endPause(db: Database, guestId: number, id: number, now: number): Promise<PauseRow | null> {
  return changeAsGuest(db, guestId, async (tx) => {
    const [row] = await tx
      .select()
      .from(pauses)
      .where(and(eq(pauses.id, id), eq(pauses.guestId, guestId)));
    if (row === undefined) throw new ApiFailure('pause_not_found');
    const ended = endedPause(row, now);
    if (ended === null) {
      await tx.delete(pauses).where(and(eq(pauses.id, id), eq(pauses.guestId, guestId)));
      return null;
    }
    if (ended.toTime >= row.toTime) throw new ApiFailure('pause_not_changeable');
    const [saved] = await tx
      .update(pauses)
      .set({ toTime: ended.toTime })
      .where(and(eq(pauses.id, id), eq(pauses.guestId, guestId)))
      .returning();
    if (saved === undefined) throw new Error('update returned no pause');
    return saved;
  });
}

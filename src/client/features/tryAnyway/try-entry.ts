import type { Reservation } from '../../../shared/api/reservation.ts';
import { WORK_MAX_LENGTH } from '../../../shared/reservations.ts';
import { isOfferedDuration } from '../../../shared/reservations.ts';

/**
 * Try-anyway's pure rules (docs/try-anyway.md): the entry stored on the
 * device, and the moment the new jail shows in the list. The `#try` demo
 * itself is the live screen's (src/client/features/jail/useTryDemo.ts).
 */

/**
 * The reserved id the entry is kept under, in the `rememberedWorks` store of
 * the local database (whose remembered works are under the id 'list').
 */
export const TRY_ENTRY_ID = 'tryAnyway';

/** What the guest chose on the entry form. */
export interface TryEntry {
  work: string;
  /** Hours, one of the booking durations. */
  duration: number;
}

/** The stored entry, or null when there is none or it is not an entry (an old or foreign record). */
export function tryEntryOf(stored: unknown): TryEntry | null {
  if (typeof stored !== 'object' || stored === null) return null;
  const { work, duration } = stored as Record<string, unknown>;
  if (typeof work !== 'string' || work.length > WORK_MAX_LENGTH) return null;
  if (typeof duration !== 'number' || !isOfferedDuration(duration)) return null;
  return { work, duration };
}

/** The path of the live screen once the trial `id` is in `list` (the demo's `#try` on it), else null. */
export function livePathOnceListed(list: readonly Pick<Reservation, 'id'>[], id: number | null): string | null {
  if (id === null || !list.some((reservation) => reservation.id === id)) return null;
  return `/jail/live/${id}#try`;
}

import { type Column, sql } from 'drizzle-orm';
import { pauses, reservations } from '../db/schema/index.ts';

/**
 * "Is this occurrence held?" in SQL, for the queries that pick occurrences
 * by the set (the scheduler, the reminder worker, the reservation reads):
 * the same rule as `holdingPause` in src/shared/reservations.ts, which
 * pause-sql.test.ts holds them to. Columns are named with their tables, as
 * these run inside subqueries of one-table selects (which drizzle writes
 * without them).
 */
function qualified(table: typeof reservations | typeof pauses, column: Column) {
  return sql`${table}.${sql.identifier(column.name)}`;
}

const startTime = qualified(reservations, reservations.startTime);

/** The pauses that hold the `reservations` row of the enclosing query. */
const holdingPauses = sql`from ${pauses}
  where ${qualified(pauses, pauses.guestId)} = ${qualified(reservations, reservations.guestId)}
    and ${qualified(reservations, reservations.repeatType)} <> 'none'
    and ${qualified(pauses, pauses.fromTime)} <= ${startTime}
    and ${startTime} < ${qualified(pauses, pauses.toTime)}`;

/** True when a pause holds the `reservations` row. */
export const isHeld = sql`exists (select 1 ${holdingPauses})`;

/** When the pause that holds the `reservations` row ends; null when none does. */
export const heldUntil = sql<number | null>`(select max(${qualified(pauses, pauses.toTime)}) ${holdingPauses})`.mapWith(Number);

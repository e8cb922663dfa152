import { and, eq, isNull, type SQL, sql } from 'drizzle-orm';
import { ATTENDANCE_JAILS, PROGRESS_WEEKS, type Progress, progressSchema, RECENT_JAILS } from '../../shared/api/progress.ts';
import { focusedMs } from '../../shared/focused-time.ts';
import { offsetMinutesAt } from '../../shared/time-zone.ts';
import type { Database, NamedQuery } from '../db/database.ts';
import { jails } from '../db/schema/index.ts';
import { DAY_MS, MINUTE_MS } from '../../shared/durations.ts';

/**
 * The progress screen's figures (docs/progress.md), in one SQL statement
 * over the guest's finished jails (the index `jails_guest_start`): focused
 * time by week, streaks of days with a jail held to its end, attendance over
 * the last jails, and the last jails. Days and weeks are the guest's:
 * their zone is a fixed offset, so a local day is a whole number of days
 * after the epoch once the offset is added.
 */

/** The local day (days since 1970-01-01 in the zone) of `epochMs`. */
function localDay(epochMs: number, offsetMs: number): number {
  return Math.floor((epochMs + offsetMs) / DAY_MS);
}

/** The Monday on or before a local day (1970-01-01 was a Thursday). */
function mondayOf(day: number): number {
  return day - ((day + 3) % 7);
}

/** The statement: one row, `progress`, the JSON of `progressSchema`. */
export function progressStatement(guestId: number, timeZone: string, now: number): SQL {
  const offset = offsetMinutesAt(timeZone, now) * MINUTE_MS;
  const today = localDay(now, offset);
  const thisWeek = mondayOf(today);
  const firstWeek = thisWeek - 7 * (PROGRESS_WEEKS - 1);
  // Each part reads only the rows it needs through the index: the weeks a range of starts, attendance and the list
  // the newest 20, the streaks the held days' starts (all of them: the best streak may be years old).
  const counted = sql`guest_id = ${guestId} and state = 'finished' and not is_trial`;
  const trials = sql`guest_id = ${guestId} and state = 'finished' and is_trial`;
  const localDayOf = sql`(start_time + ${offset}::bigint) / ${DAY_MS}`;
  return sql`
      with by_week as (
        select ${localDayOf} - ((${localDayOf} + 3) % 7) as week_day, sum(coalesce(focused_ms, 0)) as focused
        from ${jails} where ${counted} and start_time >= ${firstWeek * DAY_MS - offset}::bigint group by 1
      ),
      weeks as (
        select w.day as week_day, coalesce(b.focused, 0) as focused
        from generate_series(${firstWeek}::bigint, ${thisWeek}::bigint, 7) as w(day) left join by_week b on b.week_day = w.day
      ),
      held_days as (select distinct ${localDayOf} as local_day from ${jails} where ${counted} and finish = 'ended'),
      runs as (
        select max(local_day) as last_day, count(*) as length
        from (select local_day, local_day - row_number() over (order by local_day) as island from held_days) days
        group by island
      ),
      recent as (
        select reservation_id as id, start_time, end_time, entered_at, finish, coalesce(focused_ms, 0) as focused_ms
        from ${jails} where ${counted} order by start_time desc limit ${ATTENDANCE_JAILS}
      )
      select json_build_object(
        'weeks', (select json_agg(json_build_object('start', week_day * ${DAY_MS} - ${offset}::bigint, 'focusedMs', focused) order by week_day) from weeks),
        'currentStreak', (select coalesce(max(length), 0) from runs where last_day >= ${today}::bigint - 1),
        'bestStreak', (select coalesce(max(length), 0) from runs),
        'attendance', json_build_object(
          'entered', (select count(*) from recent where entered_at is not null),
          'counted', (select count(*) from recent)
        ),
        'recentJails', (
          select coalesce(json_agg(json_build_object(
            'id', id, 'startTime', start_time, 'endTime', end_time, 'work', work, 'focusedMs', focused_ms, 'finish', finish
          ) order by start_time desc), '[]'::json)
          from (
            select last.*, r.work from (select * from recent order by start_time desc limit ${RECENT_JAILS}) last
            join reservations r on r.id = last.id
          ) last
        ),
        'trialJails', (select count(*) from ${jails} where ${trials})
      ) as progress`;
}

export async function readProgress(queryNamed: NamedQuery, guestId: number, timeZone: string, now: number): Promise<Progress> {
  const [row] = await queryNamed<{ progress: unknown }>('progress_read', progressStatement(guestId, timeZone, now));
  const progress = typeof row?.progress === 'string' ? JSON.parse(row.progress) : row?.progress;
  return progressSchema.parse(progress);
}

/**
 * Gives each finished jail that has no focused time kept (those finished
 * before it was kept) the one it would have had, by the one rule; run at
 * start, it finds none after the first time.
 */
export async function fillFocusedTime(db: Database): Promise<number> {
  const missing = await db
    .select()
    .from(jails)
    .where(and(eq(jails.state, 'finished'), isNull(jails.focusedMs)));
  for (const jail of missing) {
    await db
      .update(jails)
      .set({ focusedMs: focusedMs(jail, jail.finishedAt ?? jail.endTime) })
      .where(eq(jails.reservationId, jail.reservationId));
  }
  return missing.length;
}

import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { REPEAT_TYPES } from '../../../shared/constants.ts';
import type { ActivityLog } from '../../../shared/api/reservation.ts';
import { FINISH_REASONS, type Schedule } from '../../../shared/reservations.ts';
import { guests } from './guests.ts';

/**
 * A reservation (docs/api.md, The reservation object): one dated occurrence of a booking, with the
 * booking's fields as they were for that occurrence.
 *
 * A one-off booking is one row. A repeating booking is one row at a time
 * that is not finished: when its occurrence ends (or is skipped) the row is
 * finished and a new row takes the next occurrence, so every past
 * occurrence keeps its own id, fields and activity logs for history and
 * reports, and an edit changes only the occurrence to come.
 */
export const reservations = pgTable(
  'reservations',
  {
    id: serial('id').primaryKey(),
    guestId: integer('guest_id')
      .notNull()
      .references(() => guests.id, { onDelete: 'cascade' }),
    work: text('work').notNull(),
    /** Epoch ms. */
    startTime: bigint('start_time', { mode: 'number' }).notNull(),
    /** Epoch ms: the start plus the duration. */
    endTime: bigint('end_time', { mode: 'number' }).notNull(),
    /** Minutes (the API speaks hours: 60 to 480 in steps of 15). */
    durationMinutes: integer('duration_minutes').notNull(),
    repeatType: text('repeat_type', { enum: REPEAT_TYPES }).notNull(),
    dailyRepeatSettings: integer('daily_repeat_settings').array().notNull(),
    schedules: jsonb('schedules').$type<Schedule[]>().notNull(),
    /**
     * The zone the booking was made in (src/shared/time-zone.ts) and the
     * local minutes past midnight of its start: every later occurrence starts
     * at that wall-clock time in that zone.
     */
    timeZone: text('time_zone').notNull(),
    wallClockMinutes: integer('wall_clock_minutes').notNull(),
    /**
     * The first occurrence's id, shared by every occurrence of a repeating
     * booking (null on that first one and on a one-off): what a calendar
     * shows as one series (docs/calendar.md).
     */
    seriesId: integer('series_id'),
    /** Null while the occurrence is to come or under way. */
    finishReason: text('finish_reason', { enum: FINISH_REASONS }),
    /**
     * A try-anyway jail (docs/try-anyway.md): starts when it is made, repeats
     * never, and brings no lazy alert, suspension, early-finish block or
     * light-plan hours.
     */
    isTrial: boolean('is_trial').notNull().default(false),
    createdAt: bigint('created_at', { mode: 'number' }).notNull(),
    updatedAt: bigint('updated_at', { mode: 'number' }).notNull(),
  },
  (table) => [
    index('reservations_guest_start').on(table.guestId, table.startTime),
    // The reminder worker looks for the occurrences to come whose reminder is due (docs/reminders.md).
    index('reservations_unfinished_start').on(table.startTime).where(sql`${table.finishReason} is null`),
  ],
);
export type ReservationRow = typeof reservations.$inferSelect;

/** What happened during a reservation's jail (docs/jail.md, Data), written by the session. */
export const activityLogs = pgTable(
  'activity_logs',
  {
    id: serial('id').primaryKey(),
    reservationId: integer('reservation_id')
      .notNull()
      .references(() => reservations.id, { onDelete: 'cascade' }),
    /** Epoch ms, the same as `entry.time`, for ordering. */
    time: bigint('time', { mode: 'number' }).notNull(),
    /** The log as the API gives it: type, time and the payload of its type. */
    entry: jsonb('entry').$type<ActivityLog>().notNull(),
    /**
     * The id the sender gave the event that made this log (docs/jail.md,
     * Delivery); a retried event finds it and is not stored twice.
     */
    eventId: text('event_id'),
  },
  (table) => [
    index('activity_logs_reservation_time').on(table.reservationId, table.time),
    uniqueIndex('activity_logs_reservation_event').on(table.reservationId, table.eventId),
  ],
);

/**
 * A pause of a guest's repeating jails (docs/rules.md, Pauses): every
 * occurrence of a repeating booking that starts in [fromTime, toTime) is
 * held — no jail starts, none is ignored, no reminder goes — and the
 * repeats go on by themselves after it. One-off jails are not held.
 */
export const pauses = pgTable(
  'pauses',
  {
    id: serial('id').primaryKey(),
    guestId: integer('guest_id')
      .notNull()
      .references(() => guests.id, { onDelete: 'cascade' }),
    /** Epoch ms: the local midnight of the first day held. */
    fromTime: bigint('from_time', { mode: 'number' }).notNull(),
    /** Epoch ms: the local midnight after the last day held (when the repeats resume). */
    toTime: bigint('to_time', { mode: 'number' }).notNull(),
    createdAt: bigint('created_at', { mode: 'number' }).notNull(),
  },
  (table) => [index('pauses_guest_to').on(table.guestId, table.toTime)],
);
export type PauseRow = typeof pauses.$inferSelect;

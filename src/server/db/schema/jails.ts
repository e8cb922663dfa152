import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { DEFAULT_COMMANDS } from '../../../shared/constants.ts';
import { epochMs, guests } from './guests.ts';
import { reservations } from './reservations.ts';
import { wardens } from './wardens.ts';
import { ALERT_KINDS, FINISH_KINDS, JAIL_STATUSES } from '../../../shared/jail-vocabulary.ts';

/**
 * A jail: the live session of one reservation occurrence (docs/jail.md).
 * The scheduler inserts the row at the start time (the insert is the claim:
 * one row per reservation, whichever server gets there first) and moves it
 * to 'finished' at the end time or when it ends otherwise.
 */
export const jails = pgTable(
  'jails',
  {
    reservationId: integer('reservation_id')
      .primaryKey()
      .references(() => reservations.id, { onDelete: 'cascade' }),
    guestId: integer('guest_id')
      .notNull()
      .references(() => guests.id, { onDelete: 'cascade' }),
    /** The human warden assigned at the start, if any warden exists. */
    wardenId: integer('warden_id').references(() => wardens.id, { onDelete: 'set null' }),
    /** The reservation's times when the jail started (an edit cannot move a started jail). */
    startTime: epochMs('start_time').notNull(),
    endTime: epochMs('end_time').notNull(),
    state: text('state', { enum: ['live', 'finished'] }).notNull(),
    startedAt: epochMs('started_at').notNull(),
    /** When the guest's device first reported in during the jail; null: never (an ignored jail). */
    enteredAt: epochMs('entered_at'),
    jailStatus: text('jail_status', { enum: JAIL_STATUSES }).notNull().default('injail'),
    statusSince: epochMs('status_since').notNull(),
    /** Milliseconds spent on breaks that have ended (a break under way is counted from `statusSince`). */
    breakMs: epochMs('break_ms').notNull().default(0),
    /** Milliseconds away from the seat on leaves that have ended (a leave under way is counted from `statusSince`). */
    awayMs: epochMs('away_ms').notNull().default(0),
    /** Whether the current leave or break has already raised its overrun alert. */
    overrunAlerted: boolean('overrun_alerted').notNull().default(false),
    commands: integer('commands')
      .array()
      .notNull()
      .default(sql`ARRAY[${sql.raw(DEFAULT_COMMANDS.join(','))}]::integer[]`),
    lastAliveAt: epochMs('last_alive_at'),
    /** Patrol images kept (at most 30); counted on the row so that concurrent patrols cannot pass 30. */
    patrolCount: integer('patrol_count').notNull().default(0),
    /** Logs added to the jail (the guest's device adds none past `JAIL_MAX_LOGS`); counted on the row so that events at once cannot pass the cap. */
    logCount: integer('log_count').notNull().default(0),
    finishedAt: epochMs('finished_at'),
    finish: text('finish', { enum: FINISH_KINDS }),
    /** A try-anyway jail (docs/try-anyway.md), as its reservation says: it counts for nothing, and progress skips it without a join. */
    isTrial: boolean('is_trial').notNull().default(false),
    /** The focused time of the finished jail (src/shared/focused-time.ts), kept at the finish so that progress sums it in SQL; null while live. */
    focusedMs: epochMs('focused_ms'),
    /** Until then the report may still grow (late events from a reconnecting device). */
    logsSettleAt: epochMs('logs_settle_at'),
    /** Set once the purge has deleted the jail's patrol images (7 days after the end). */
    patrolsPurgedAt: epochMs('patrols_purged_at'),
  },
  (table) => [
    index('jails_state_end').on(table.state, table.endTime),
    index('jails_guest_finished').on(table.guestId, table.finishedAt),
    // Progress reads a guest's jails by start (docs/progress.md).
    index('jails_guest_start').on(table.guestId, table.startTime),
  ],
);
export type JailRow = typeof jails.$inferSelect;

/** An alert inside a jail (docs/jail.md, Alerts): more than 3 in 20 minutes force the end. */
export const jailAlerts = pgTable(
  'jail_alerts',
  {
    id: serial('id').primaryKey(),
    reservationId: integer('reservation_id')
      .notNull()
      .references(() => jails.reservationId, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ALERT_KINDS }).notNull(),
    time: epochMs('time').notNull(),
  },
  (table) => [index('jail_alerts_reservation_time').on(table.reservationId, table.time)],
);

/** An approved scene: a patrol image a warden marked, part of the guest's whitelist. */
export const featureImages = pgTable(
  'feature_images',
  {
    id: serial('id').primaryKey(),
    guestId: integer('guest_id')
      .notNull()
      .references(() => guests.id, { onDelete: 'cascade' }),
    /** A JPEG data URL, as the patrol image was. */
    data: text('data').notNull(),
    /** The patrol log it came from (kept when the log is purged). */
    sourceLogId: integer('source_log_id'),
    wardenId: integer('warden_id').references(() => wardens.id, { onDelete: 'set null' }),
    createdAt: epochMs('created_at').notNull(),
  },
  (table) => [index('feature_images_guest').on(table.guestId), uniqueIndex('feature_images_guest_source').on(table.guestId, table.sourceLogId)],
);

/** A warden's signed-in session on the console; the token is kept only as its SHA-256. */
export const wardenSessions = pgTable(
  'warden_sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    wardenId: integer('warden_id')
      .notNull()
      .references(() => wardens.id, { onDelete: 'cascade' }),
    createdAt: epochMs('created_at').notNull(),
    expiresAt: epochMs('expires_at').notNull(),
    /** The last call or console event with the session (the idle timeout); 0 ends the sessions older than the column at once. */
    lastUsedAt: epochMs('last_used_at').notNull().default(0),
  },
  (table) => [index('warden_sessions_warden').on(table.wardenId)],
);

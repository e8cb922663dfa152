import { z } from 'zod';
import { DEFAULT_DAILY_REPEAT_WEEKDAYS, REPEAT_TYPES } from '../constants.ts';
import { FINISH_KINDS, JAIL_STATUSES, MOTION_KINDS, SPEAKERS } from '../jail-vocabulary.ts';
import { RESERVATION_STATUSES, scheduleMinuteOptions, WORK_MAX_LENGTH } from '../reservations.ts';
import { apiRequestSchema, guestCredentialsSchema, idSchema } from './envelope.ts';

/**
 * The reservation calls of docs/api.md (Reservations): request bodies and the
 * reservation payload (docs/api.md, The reservation object). The booking rules
 * that depend on time or on each other (durations on offer, 15-minute starts,
 * the 14 dates, schedule minutes; docs/rules.md) are checked by
 * src/shared/reservations.ts in the handler, each with its own message; these
 * schemas check shapes and lengths.
 */

export const SCHEDULE_TITLE_MAX_LENGTH = 100;
/** One entry for each minute an 8-hour jail offers. */
export const SCHEDULE_MAX_ENTRIES = scheduleMinuteOptions(8).length;
/** Epoch ms up to the year 275760, the largest a JavaScript date holds. */
const MAX_EPOCH_MS = 8_640_000_000_000_000;

const workSchema = z.string({ error: 'work_invalid' }).max(WORK_MAX_LENGTH, { error: 'work_invalid' });

export const scheduleSchema = z.object({
  minutes: z.number({ error: 'schedule_minutes_not_offered' }).int({ error: 'schedule_minutes_not_offered' }),
  title: z.string({ error: 'schedule_title_invalid' }).max(SCHEDULE_TITLE_MAX_LENGTH, { error: 'schedule_title_invalid' }),
});

const weekdaySchema = z
  .number({ error: 'repeat_weekdays_invalid' })
  .int({ error: 'repeat_weekdays_invalid' })
  .min(0, { error: 'repeat_weekdays_invalid' })
  .max(6, { error: 'repeat_weekdays_invalid' });

const epochSchema = z.number().int().min(0).max(MAX_EPOCH_MS);

/** The fields of a booking as the form sends them (docs/api.md, `/reservation/create`). */
const bookingFields = {
  work: workSchema,
  /** Hours. */
  duration: z.number(),
  startTime: epochSchema,
  repeatType: z.enum(REPEAT_TYPES),
  /** Weekdays of a daily repeat; all seven when omitted. */
  dailyRepeatSettings: z.array(weekdaySchema).max(7, { error: 'repeat_weekdays_invalid' }),
  /** Entries with an empty title are dropped. */
  schedules: z.array(scheduleSchema).max(SCHEDULE_MAX_ENTRIES, { error: 'schedule_minutes_not_offered' }),
};

/** The reservation named by id; the rest of what the client sends (its whole copy) is dropped. */
const reservationIdSchema = z.object({ id: idSchema });

// --- Requests -----------------------------------------------------------------

export const reservationCreateRequestSchema = z.object({
  api: apiRequestSchema,
  guest: guestCredentialsSchema,
  reservation: z.object({
    ...bookingFields,
    work: workSchema.default(''),
    dailyRepeatSettings: bookingFields.dailyRepeatSettings.default(() => [...DEFAULT_DAILY_REPEAT_WEEKDAYS]),
    schedules: bookingFields.schedules.default([]),
  }),
});
export type ReservationCreateRequest = z.input<typeof reservationCreateRequestSchema>;

/** `reservation.id` and the fields to change; the fields left out keep their values. */
export const reservationUpdateRequestSchema = z.object({
  api: apiRequestSchema,
  guest: guestCredentialsSchema,
  reservation: z.object(bookingFields).partial().extend(reservationIdSchema.shape),
});
export type ReservationUpdateRequest = z.input<typeof reservationUpdateRequestSchema>;

/**
 * `/try` (try-anyway, docs/try-anyway.md): the work and the duration; the
 * jail starts now, never repeats and has no schedule.
 */
export const reservationTryRequestSchema = z.object({
  api: apiRequestSchema,
  guest: guestCredentialsSchema,
  reservation: z.object({ work: workSchema.default(''), duration: bookingFields.duration }),
});
export type ReservationTryRequest = z.input<typeof reservationTryRequestSchema>;

/** `/read`, `/skip` and `/destroy`: the reservation by id. */
export const reservationByIdRequestSchema = z.object({
  api: apiRequestSchema,
  guest: guestCredentialsSchema,
  reservation: reservationIdSchema,
});

// --- Payloads -----------------------------------------------------------------

const textSchema = z.object({ text: z.string() });

/** An activity log (docs/jail.md, Data): its type, its time and the payload of that type. */
export const activityLogSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('dialog'),
    time: z.number(),
    /**
     * 0 = guest, 1 = warden, 2 = snitch; `by` says which warden spoke a
     * type-1 line (absent on lines logged before it was recorded).
     */
    dialog: z.object({ type: z.union([z.literal(0), z.literal(1), z.literal(2)]), text: z.string(), by: z.enum(SPEAKERS).optional() }),
  }),
  z.object({ type: z.literal('instruction'), time: z.number(), instruction: textSchema }),
  z.object({ type: z.literal('callup'), time: z.number(), callup: textSchema }),
  z.object({ type: z.literal('mail'), time: z.number(), mail: textSchema }),
  /** `data` is a JPEG data URL. */
  z.object({ type: z.literal('patrol'), time: z.number(), patrol: z.object({ data: z.string() }) }),
  /**
   * 1 = motion detected (or the guest seen again), 0 = no motion (or nobody
   * seen); `kind` names the event (`MOTION_KINDS`).
   */
  z.object({
    type: z.literal('motion'),
    time: z.number(),
    motion: z.object({ type: z.union([z.literal(0), z.literal(1)]), kind: z.enum(MOTION_KINDS).optional() }),
  }),
  /** The guest's jail status changed: left the seat, went on a break, or came back (`injail`). */
  z.object({ type: z.literal('status'), time: z.number(), status: z.object({ jailStatus: z.enum(JAIL_STATUSES) }) }),
]);
export type ActivityLog = z.infer<typeof activityLogSchema>;

/**
 * A finished jail's figures, from its row (docs/rules.md, Focused time): the
 * report shows them as they are, so that every screen counts focused time
 * the one way.
 */
export const jailSummarySchema = z.object({
  /** The booked length: end less start. */
  plannedMs: z.number(),
  /** From entering (or the start) to the finish, capped at the end; 0 when never entered. */
  heldMs: z.number(),
  /** The held time in the seat: less breaks and leaves. */
  focusedMs: z.number(),
  breakMs: z.number(),
  awayMs: z.number(),
  /** Alerts raised inside the jail (motion, darkness, nodding, overruns). */
  alerts: z.number().int(),
  /** Patrol images taken (kept on the row when the images are purged). */
  patrols: z.number().int(),
  /** When the guest came in; null: never (an ignored jail). */
  enteredAt: z.number().nullable(),
  finishedAt: z.number(),
  finish: z.enum(FINISH_KINDS),
});
export type JailSummary = z.infer<typeof jailSummarySchema>;

/**
 * A reservation (docs/api.md, The reservation object): one dated occurrence of a booking. A repeating
 * booking shows as its current or next occurrence, with `repeatType` and
 * `dailyRepeatSettings`, beside its past occurrences, which are finished.
 */
export const reservationSchema = z.object({
  id: z.number().int(),
  work: z.string(),
  startTime: z.number(),
  endTime: z.number(),
  /** Hours. */
  duration: z.number(),
  isFinished: z.boolean(),
  repeatType: z.enum(REPEAT_TYPES),
  dailyRepeatSettings: z.array(z.number().int()),
  schedules: z.array(scheduleSchema),
  activityLogs: z.array(activityLogSchema),
  /** While true the report may still grow: the jail is live, or finished moments ago (docs/jail.md). */
  logsPending: z.boolean(),
  /** The finished jail's figures; null until its jail has finished, and for an occurrence never started. */
  jail: jailSummarySchema.nullable(),
  status: z.enum(RESERVATION_STATUSES),
  /** An occurrence to come that a pause holds: when the pause ends (docs/rules.md, Pauses); null otherwise. */
  pausedUntil: z.number().nullable(),
});
export type Reservation = z.infer<typeof reservationSchema>;

import { z } from 'zod';
import { REPEAT_TYPES } from '../constants.ts';
import type { LocalDate } from '../time-zone.ts';
import { WORK_MAX_LENGTH } from '../reservations.ts';

/**
 * The incoming webhook `POST /hooks/reservation/:webhookToken`
 * (docs/webhook.md): a reservation made by another program. It lives
 * outside /api and answers `{status, error}` rather than the API envelope.
 */

/** The answer to an unknown or disabled token (docs/webhook.md), in every language. */
export const WEBHOOK_TOKEN_INVALID = 'token is invalid.';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** Whether `YYYY-MM-DD` names a real calendar day. */
function isCalendarDate(text: string): boolean {
  const match = DATE.exec(text);
  if (match === null) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** A start as the guest's clock shows it: a calendar date and minutes past midnight. */
export interface LocalStart {
  date: LocalDate;
  minutes: number;
}

/** The local start of a date and a time already checked against `DATE` and `TIME`. */
function localStartOf(date: string, time: string): LocalStart {
  const [year = 0, month = 0, day = 0] = date.split('-').map(Number);
  const [hours = 0, minutes = 0] = time.split(':').map(Number);
  return { date: { year, month, day }, minutes: hours * 60 + minutes };
}

const dateTimeError = { error: 'webhook_date_time_invalid' } as const;

/**
 * The body: the start in the guest's time zone (both omitted: a jail
 * starting now), the duration in minutes, the repeat and the work.
 * Each rule names the message of its failure. Parsed, the date and time
 * become `start` (null: start now).
 */
export const webhookReservationRequestSchema = z
  .object(
    {
      date: z.string(dateTimeError).refine(isCalendarDate, dateTimeError).optional(),
      time: z.string(dateTimeError).regex(TIME, dateTimeError).optional(),
      /** Minutes: 60 to 480 in steps of 15. */
      duration: z.number({ error: 'duration_not_offered' }),
      repeatType: z.enum(REPEAT_TYPES, { error: 'webhook_repeat_type_invalid' }).default('none'),
      work: z
        .string({ error: 'webhook_work_required' })
        .trim()
        .min(1, { error: 'webhook_work_required' })
        .max(WORK_MAX_LENGTH, { error: 'webhook_work_required' })
        // PostgreSQL text cannot hold NUL.
        .refine((work) => !work.includes('\u0000'), { error: 'webhook_work_required' }),
    },
    { error: 'webhook_body_invalid' },
  )
  .refine((body) => (body.date === undefined) === (body.time === undefined), dateTimeError)
  .transform(({ date, time, ...booking }) => ({
    ...booking,
    start: date === undefined || time === undefined ? null : localStartOf(date, time),
  }));
export type WebhookReservationRequest = z.input<typeof webhookReservationRequestSchema>;

export const webhookAnswerSchema = z.object({
  status: z.enum(['success', 'failed']),
  /** Null on success; the reason, in the guest's language when the token is known. */
  error: z.string().nullable(),
  /** The reservation made. */
  reservationId: z.number().int().optional(),
});
export type WebhookAnswer = z.infer<typeof webhookAnswerSchema>;

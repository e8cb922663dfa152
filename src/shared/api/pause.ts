import { z } from 'zod';
import type { LocalDate } from '../time-zone.ts';
import { apiRequestSchema, guestCredentialsSchema, idSchema } from './envelope.ts';

/**
 * The pause calls (docs/api.md, Pauses; docs/rules.md, Pauses), under
 * /api/pause. The days are the guest's local dates; the rules between them
 * (order, length, the six-hour rule) are checked by src/shared/reservations.ts
 * in the handler, each with its own message.
 */

/** `2026-12-20` as a local date, refused unless the calendar has that day. */
export const localDaySchema = z
  .string({ error: 'pause_day_invalid' })
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'pause_day_invalid' })
  .transform((text): LocalDate => {
    const [year = 0, month = 0, day = 0] = text.split('-').map(Number);
    return { year, month, day };
  })
  .refine(
    ({ year, month, day }) => {
      const date = new Date(Date.UTC(year, month - 1, day));
      return year >= 2000 && date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
    },
    { error: 'pause_day_invalid' },
  );

export const pauseCreateRequestSchema = z.object({
  api: apiRequestSchema,
  guest: guestCredentialsSchema,
  /** The first and the last day held, both included. */
  pause: z.object({ firstDay: localDaySchema, lastDay: localDaySchema }),
});
export type PauseCreateRequest = z.input<typeof pauseCreateRequestSchema>;

export const pauseEndRequestSchema = z.object({
  api: apiRequestSchema,
  guest: guestCredentialsSchema,
  pause: z.object({ id: idSchema }),
});

/** A pause as the API gives it: occurrences of repeating jails starting in [fromTime, toTime) are held. */
export const pauseSchema = z.object({
  id: z.number().int(),
  fromTime: z.number(),
  toTime: z.number(),
});
export type Pause = z.infer<typeof pauseSchema>;

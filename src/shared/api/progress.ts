import { z } from 'zod';
import { authenticatedRequestSchema } from './envelope.ts';
import { FINISH_KINDS } from '../jail-vocabulary.ts';

/**
 * `/progress/read` (docs/progress.md): the guest's focused hours by week,
 * streaks, attendance and last jails, all computed by the server from the
 * finished jails' rows. Try-anyway jails count for nothing here either;
 * only their number is given, so that the screen can say they were left out.
 */

/** How many weeks the chart shows, this one included. */
export const PROGRESS_WEEKS = 12;
/** The attendance score is over this many of the last jails, as Focusmate's is. */
export const ATTENDANCE_JAILS = 20;
/** How many of the last jails are listed. */
export const RECENT_JAILS = 10;

export const progressRequestSchema = authenticatedRequestSchema;

export const progressSchema = z.object({
  /** `PROGRESS_WEEKS` weeks, oldest first, each from Monday 00:00 in the guest's zone. */
  weeks: z.array(z.object({ start: z.number(), focusedMs: z.number() })),
  /** Days in a row, up to today (or yesterday, while today may still bring one), with a jail held to its end. */
  currentStreak: z.number().int(),
  bestStreak: z.number().int(),
  /** Of the last `counted` (at most `ATTENDANCE_JAILS`) jails, how many the guest entered. */
  attendance: z.object({ entered: z.number().int(), counted: z.number().int() }),
  /** The last `RECENT_JAILS` finished jails, newest first. */
  recentJails: z.array(
    z.object({
      id: z.number().int(),
      startTime: z.number(),
      endTime: z.number(),
      work: z.string(),
      focusedMs: z.number(),
      finish: z.enum(FINISH_KINDS),
    }),
  ),
  /** How many finished try-anyway jails were left out of every figure above. */
  trialJails: z.number().int(),
});
export type Progress = z.infer<typeof progressSchema>;

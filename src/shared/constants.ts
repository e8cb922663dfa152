/**
 * Business constants and limits that both the client and the server read
 * (docs/rules.md, Client constants); what one side alone uses lives on that
 * side. Durations are in milliseconds unless the name says otherwise.
 *
 * The vision thresholds themselves (motion, darkness, nodding, whitelist,
 * areas) are owned by `crates/vision` and documented in docs/vision.md; the
 * values are repeated here, read-only, for display and for the server.
 */

import { SECOND_MS as SECOND } from './durations.ts';

// --- Versions and local storage -------------------------------------------

/** Languages of the interface; English is the default. */
export const LANGUAGES = ['ja', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';

// --- Session entry and cutoffs --------------------------------------------

// --- During a session ------------------------------------------------------

/** Alive check interval (30 s). */
export const ALIVE_CHECK_INTERVAL_MS = 30 * SECOND;

/**
 * How long the Warden's check-in ("Are you still with me?") waits for an
 * answer before a weakly seen alert (away, nodding seen without the face) is
 * sent (docs/rules.md, The check-in).
 */
export const CHECK_IN_WINDOW_MS = 30 * SECOND;

// --- Patrol ----------------------------------------------------------------

/** A patrol is considered every 10 s. */
export const PATROL_CHECK_INTERVAL_MS = 10 * SECOND;

/** The first screenshot is taken 10 s after setup. */
export const PATROL_FIRST_SCREENSHOT_DELAY_MS = 10 * SECOND;

/** Patrol chance = minutes since the last patrol / this divisor. */
const PATROL_CHANCE_DIVISOR_MINUTES = 90;

/** A patrol image is at most this many pixels on its long side. */
export const PATROL_IMAGE_MAX_SIDE_PX = 100;

/** Patrol images are kept this many days after their jail ends (the server purges them; "Your data" says so). */
export const PATROL_RETENTION_DAYS = 7;

/** At most this many patrol logs are kept per session (the report notes 'maximum patrols'). */
export const PATROL_MAX_LOGS_PER_SESSION = 30;

// --- A jail's logs ---------------------------------------------------------

/**
 * A jail keeps at most this many logs (docs/jail.md, The log cap): the
 * busiest real jail, eight hours of a guest who talks and dozes a lot, makes
 * about 3,000 (motion events come at most once per episode of 30 s or more,
 * each alert and line with the Warden's answer); past the cap the guest's
 * device adds nothing more, while what the server itself logs still goes in.
 */
export const JAIL_MAX_LOGS = 10_000;

/** The console reads a jail's logs this many at a time, the newest first (docs/jail.md, Relay). */
export const JAIL_LOG_PAGE = 200;

/** The chance that a patrol is due, given the minutes since the last one (capped at 1). */
export function patrolChance(minutesSinceLastPatrol: number): number {
  return Math.min(1, Math.max(0, minutesSinceLastPatrol / PATROL_CHANCE_DIVISOR_MINUTES));
}

// --- Speech and sound ------------------------------------------------------

// --- Booking ---------------------------------------------------------------

/** Detailed schedule entries come in 5-minute steps. */
export const SCHEDULE_STEP_MINUTES = 5;

/** Booking durations run from 1 to 8 hours in quarter-hour steps. */
const BOOKING_MIN_HOURS = 1;
const BOOKING_MAX_HOURS = 8;
const BOOKING_STEP_HOURS = 0.25;

/** The booking durations on offer, in hours: 1, 1.25, ..., 8. */
export const BOOKING_DURATIONS_HOURS: readonly number[] = Array.from(
  { length: (BOOKING_MAX_HOURS - BOOKING_MIN_HOURS) / BOOKING_STEP_HOURS + 1 },
  (_, i) => BOOKING_MIN_HOURS + i * BOOKING_STEP_HOURS,
);

/** Start times are offered every 15 minutes over the day. */
export const START_TIME_STEP_MINUTES = 15;

/** Start dates on offer: today plus 13 days. */
export const START_DATE_COUNT = 14;

/** Repeat types of a reservation. */
export const REPEAT_TYPES = ['none', 'weekly', 'daily'] as const;
export type RepeatType = (typeof REPEAT_TYPES)[number];

/** Weekdays for a daily repeat, 0 = Sunday to 6 = Saturday; all by default. */
export const DEFAULT_DAILY_REPEAT_WEEKDAYS: readonly number[] = [0, 1, 2, 3, 4, 5, 6];

/** A pause of the repeats (docs/rules.md, Pauses) holds at most this many days: long enough for a holiday, short enough that repeats are not forgotten. */
export const MAX_PAUSE_DAYS = 90;

/** A pause begins within this many days: far enough to plan a year, near enough that calendars stay small. */
export const MAX_PAUSE_DAYS_AHEAD = 365;

/** Pauses not yet over that a guest may have at once. */
export const MAX_PAUSES_AHEAD = 5;

// --- Guidance --------------------------------------------------------------

/** Commands available by default. */
export const DEFAULT_COMMANDS: readonly number[] = [1, 2, 3, 4];

// --- Guest ------------------------------------------------------------------

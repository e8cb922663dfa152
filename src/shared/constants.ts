/**
 * Business constants and limits shared by the client and the server
 * (SPEC §9). Durations are in milliseconds unless the name says otherwise.
 *
 * The vision thresholds themselves (motion, darkness, nodding, whitelist,
 * areas) are owned by `crates/vision` and documented in docs/vision.md; the
 * values are repeated here, read-only, for display and for the server.
 */

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

// --- Versions and local storage -------------------------------------------

/** Build version number of the client, shown on /guest/show. */
export const CLIENT_VERSION = 70;

/** Name of the per-device IndexedDB database. */
export const LOCAL_DB_NAME = 'Warden_PWA';

/** Version of the local database; upgrading creates the stores missing at that version. */
export const LOCAL_DB_VERSION = 4;

/** Object stores of the local database, keyed by `id` with the value in `data`. */
export const LOCAL_DB_STORES = ['auth', 'language', 'jailStatus', 'rememberedWorks'] as const;
export type LocalDbStore = (typeof LOCAL_DB_STORES)[number];

/** Languages of the interface; English is the default. */
export const LANGUAGES = ['ja', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';

// --- Session entry and cutoffs --------------------------------------------

/** A jail can be entered from this long before its start (15 minutes). */
export const JAIL_ENTRY_BEFORE_START_MS = 15 * MINUTE;

/**
 * The ready check's window before the start: 870,000 ms (14.5 minutes), as
 * the spec gives it next to the 15-minute entry rule. The exact jail-ready
 * window computation is not shown in the spec.
 */
export const READY_CHECK_MS = 870_000;

/** Editing, cancelling and skipping close this long before the start (6 hours). */
export const CHANGE_CUTOFF_MS = 6 * HOUR;

// --- During a session ------------------------------------------------------

/** How long the guest may leave the seat (5 minutes). */
export const LEAVE_SEAT_ALLOWANCE_MS = 5 * MINUTE;

/** Length of a break, shown as a countdown (20 minutes). */
export const BREAK_MS = 20 * MINUTE;

/** The remaining time is displayed once this much or less is left (30 minutes). */
export const REMAINING_TIME_SHOWN_BELOW_MS = 30 * MINUTE;

/** How often the remaining time is checked (30 s). */
export const REMAINING_TIME_CHECK_INTERVAL_MS = 30 * SECOND;

/** The relay reconnects after 1 s at first, backing off to 5 s, and gives up after 20 attempts (SPEC §7). */
export const RELAY_RECONNECT_DELAY_MS = SECOND;
export const RELAY_RECONNECT_DELAY_MAX_MS = 5 * SECOND;
export const RELAY_RECONNECT_ATTEMPTS = 20;

/** Alive check interval (30 s). */
export const ALIVE_CHECK_INTERVAL_MS = 30 * SECOND;

/** The ready-check timer ticks every second. */
export const READY_CHECK_INTERVAL_MS = SECOND;

/** The store tick runs every second. */
export const STORE_TICK_INTERVAL_MS = SECOND;

/** Delay between saying 'go' and opening the live session. */
export const GO_LIVE_DELAY_MS = 500;

/** Delay after a facilitator authenticates as a guest, before going to /filters. */
export const FACILITATOR_LOGIN_DELAY_MS = 500;

// --- Patrol ----------------------------------------------------------------

/** A patrol is considered every 10 s. */
export const PATROL_CHECK_INTERVAL_MS = 10 * SECOND;

/** The first screenshot is taken 10 s after setup. */
export const PATROL_FIRST_SCREENSHOT_DELAY_MS = 10 * SECOND;

/** Patrol chance = minutes since the last patrol / this divisor. */
export const PATROL_CHANCE_DIVISOR_MINUTES = 90;

/** A patrol image is at most this many pixels on its long side. */
export const PATROL_IMAGE_MAX_SIDE_PX = 100;

/** The patrol history shows the latest this many images. */
export const PATROL_HISTORY_SHOWN = 30;

/** At most this many patrol logs are kept per session (the report notes 'maximum patrols'). */
export const PATROL_MAX_LOGS_PER_SESSION = 30;

/** The chance that a patrol is due, given the minutes since the last one (capped at 1). */
export function patrolChance(minutesSinceLastPatrol: number): number {
  return Math.min(1, Math.max(0, minutesSinceLastPatrol / PATROL_CHANCE_DIVISOR_MINUTES));
}

// --- Alerts and sanctions --------------------------------------------------

/** More than this many alerts ... */
export const ALERTS_BEFORE_FORCED_END = 3;

/** ... within this window can force a session to end (20 minutes). */
export const ALERT_WINDOW_MS = 20 * MINUTE;

/** This many forced cancels within a week suspend the account. */
export const FORCED_CANCELS_BEFORE_SUSPENSION = 3;

/** The window for counting forced cancels (a week). */
export const FORCED_CANCEL_WINDOW_MS = 7 * DAY;

/** This many lazy alerts block booking ... */
export const LAZY_ALERTS_BEFORE_BLOCK = 3;

/** ... until this long after the oldest of them (7 days, 604,800,000 ms). */
export const LAZY_ALERT_BLOCK_MS = 7 * DAY;

// --- Plans -----------------------------------------------------------------

export const PLANS = {
  /** 3,000 yen a month with up to 15 hours. */
  light: { priceYen: 3_000, monthlyHours: 15 },
  /** 7,500 yen a month with no limit. */
  standard: { priceYen: 7_500, monthlyHours: null },
  /** For students under 24; the Japanese text gives 1,500 yen. */
  university: { priceYen: 1_500, monthlyHours: null, maxAge: 23 },
  /** Free for school students; the Japanese text gives 100 days. */
  school: { priceYen: 0, monthlyHours: null, days: 100 },
  /** Trial plan; the banner shows the days left. */
  trial: { priceYen: 0, monthlyHours: null },
} as const;
export type PlanName = keyof typeof PLANS;

/** Days left of a trial = floor(remaining ms / this). */
export const TRIAL_DAY_MS = DAY;

/** The plans a card pays for, monthly (docs/payments.md). */
export const PAID_PLAN_NAMES = ['light', 'standard'] as const;
export type PaidPlanName = (typeof PAID_PLAN_NAMES)[number];

/** A monthly plan is paid on the day of the month it began, or on the 28th when it began later. */
export const LAST_PAYMENT_DAY = 28;

// --- Speech and sound ------------------------------------------------------

/** Speech recognition gives up after 2.5 s. */
export const SPEECH_TIMEOUT_MS = 2_500;

/** What the guest said stays on screen for 1.5 s. */
export const GUEST_SPEECH_SHOWN_MS = 1_500;

/** Sound level above which the guest counts as speaking. */
export const SOUND_THRESHOLD = 0.03;

/** Pause length of the speech detector (unit not given in the spec). */
export const SPEECH_PAUSE_LENGTH = 3;

/** Transmission timeout (unit not given in the spec). */
export const TRANSMISSION_TIMEOUT = 60;

/** Streaming timeout (unit not given in the spec). */
export const STREAMING_TIMEOUT = 60;

// --- Booking ---------------------------------------------------------------

/** Detailed schedule entries come in 5-minute steps. */
export const SCHEDULE_STEP_MINUTES = 5;

/** Booking durations run from 1 to 8 hours in quarter-hour steps. */
export const BOOKING_MIN_HOURS = 1;
export const BOOKING_MAX_HOURS = 8;
export const BOOKING_STEP_HOURS = 0.25;

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

// --- Guidance --------------------------------------------------------------

/** Number of numbered subtitle and speech texts of the preparation. */
export const SUBTITLE_TEXT_COUNT = 18;

/** Commands available by default. */
export const DEFAULT_COMMANDS: readonly number[] = [1, 2, 3, 4];

// --- Subscription plans (numeric codes) -------------------------------------

/** The numeric codes of the subscription plans (SPEC §4). */
export const SUBSCRIPTION_PLAN_CODES = { trial: 1, university: 2, standard: 3, free: 4, light: 5 } as const;

/** Jail statuses of a guest during a session (SPEC §4). */
export const JAIL_STATUSES = ['injail', 'leaving', 'breaking'] as const;

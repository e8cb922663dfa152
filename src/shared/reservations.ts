/**
 * The rules of a reservation (a booked jail), shared by the booking form and
 * the server: the options the form offers (docs/rules.md), what a booking must
 * satisfy, how a repeating booking rolls from one occurrence to the next, the
 * time states (docs/api.md, The reservation object's `status`), overlaps, the light plan's monthly hours and the
 * six-hour change cutoff.
 *
 * Every rule that depends on the calendar works in the guest's time zone,
 * given as a string of src/shared/time-zone.ts: an IANA name, which follows
 * daylight saving time, or a fixed `±HH:MM` offset.
 */
import {
  BOOKING_DURATIONS_HOURS,
  DEFAULT_DAILY_REPEAT_WEEKDAYS,
  MAX_PAUSE_DAYS,
  MAX_PAUSE_DAYS_AHEAD,
  SCHEDULE_STEP_MINUTES,
  START_DATE_COUNT,
  START_TIME_STEP_MINUTES,
  type RepeatType,
} from './constants.ts';
import { DAY_MS, HOUR_MS, MINUTE_MS, WEEK_MS } from './durations.ts';
import { isBlockedByEarlyFinish, isSuspended } from './penalties.ts';
import {
  MINUTES_PER_DAY,
  addDays,
  dayNumber,
  fromLocal,
  hasConstantOffset,
  localTimeExists,
  monthBounds,
  toLocal,
  weekdayOf,
  type LocalDate,
  type LocalMonth,
} from './time-zone.ts';

/** A jail can be entered from this many minutes before its start: when calendars and reminders say so by default. */
export const JAIL_ENTRY_LEAD_MINUTES = 15;
const JAIL_ENTRY_BEFORE_START_MS = JAIL_ENTRY_LEAD_MINUTES * MINUTE_MS;

/** The leads a guest may choose for reminders, in minutes before the start: when the jail can be entered (the default), 30, 60 (docs/reminders.md). */
export const REMINDER_LEADS = [JAIL_ENTRY_LEAD_MINUTES, 30, 60] as const;
export type ReminderLead = (typeof REMINDER_LEADS)[number];

/** The longest work a reservation names, in characters. */
export const WORK_MAX_LENGTH = 200;

/** Editing, cancelling and skipping close this long before the start (6 hours). */
const CHANGE_CUTOFF_MS = 6 * HOUR_MS;

const EPOCH_DATE: LocalDate = { year: 1970, month: 1, day: 1 };

/** A detailed schedule entry: `title` is due `minutes` after the start. */
/** What stops a guest from booking at all, before any form (docs/api.md, `/reservation/create`): the first that holds. */
export type BookingBlock =
  | { reason: 'unverified' }
  | { reason: 'plan_ended' }
  | { reason: 'suspended'; until: number }
  | { reason: 'early_finish_blocked'; until: number };

/** The parts of a guest the booking gates read. */
export interface GatedGuest {
  isVerified: boolean;
  subscriptionExpiredAt: number | null;
  suspendedUntil: number | null;
  earlyFinishBlockUntil: number | null;
}

/**
 * The booking gates in their order: a verified e-mail, a plan that has not
 * run out (a trial, free or university plan ends: docs/payments.md), no
 * suspension, no jail ended early whose time is not over. The phone number
 * is the server's and the form's own gate (the form sends the guest to add one).
 */
export function bookingBlock(guest: GatedGuest, now: number): BookingBlock | null {
  if (!guest.isVerified) return { reason: 'unverified' };
  if (guest.subscriptionExpiredAt !== null && guest.subscriptionExpiredAt <= now) return { reason: 'plan_ended' };
  if (guest.suspendedUntil !== null && isSuspended(guest.suspendedUntil, now)) return { reason: 'suspended', until: guest.suspendedUntil };
  if (guest.earlyFinishBlockUntil !== null && isBlockedByEarlyFinish(guest.earlyFinishBlockUntil, now)) {
    return { reason: 'early_finish_blocked', until: guest.earlyFinishBlockUntil };
  }
  return null;
}

export interface Schedule {
  minutes: number;
  title: string;
}

/** What the booking form sends (docs/api.md, `/reservation/create`). */
export interface BookingRequest {
  work: string;
  /** Hours, one of `BOOKING_DURATIONS_HOURS`. */
  duration: number;
  /** Epoch ms. */
  startTime: number;
  repeatType: RepeatType;
  /** Weekdays of a daily repeat, 0 = Sunday to 6 = Saturday. */
  dailyRepeatSettings: readonly number[];
  schedules: readonly Schedule[];
}

/** Milliseconds of a duration in hours. */
export function durationMs(hours: number): number {
  return Math.round(hours * HOUR_MS);
}

// --- What the form offers ---------------------------------------------------

/** Whether `hours` is one of the durations on offer (1 to 8 in quarter hours). */
export function isOfferedDuration(hours: number): boolean {
  return BOOKING_DURATIONS_HOURS.includes(hours);
}

/** The start dates on offer: the guest's today and the 13 days after it. */
export function startDateOptions(now: number, timeZone: string): LocalDate[] {
  const today = toLocal(now, timeZone);
  return Array.from({ length: START_DATE_COUNT }, (_, index) => addDays(today, index));
}

/**
 * The start times on offer on `date`, as instants: every 15 minutes of the
 * local day. A time skipped when the clocks go forward is left out; a time
 * that comes twice when they go back is offered once, at its first instant.
 */
export function startTimeOptions(date: LocalDate, timeZone: string): number[] {
  const starts: number[] = [];
  for (let minutes = 0; minutes < MINUTES_PER_DAY; minutes += START_TIME_STEP_MINUTES) {
    if (localTimeExists(date, minutes, timeZone)) starts.push(fromLocal(date, minutes, timeZone));
  }
  return starts;
}

/** Whether `startTime` is a whole minute that the local clock shows on a 15-minute step. */
export function isOnStartTimeStep(startTime: number, timeZone: string): boolean {
  return startTime % MINUTE_MS === 0 && toLocal(startTime, timeZone).minutes % START_TIME_STEP_MINUTES === 0;
}

/** The default start: the first 15-minute step of the local clock strictly after `now`. */
export function defaultStartTime(now: number, timeZone: string): number {
  let start = (Math.floor(now / MINUTE_MS) + 1) * MINUTE_MS;
  while (!isOnStartTimeStep(start, timeZone)) start += MINUTE_MS;
  return start;
}

/** Whether the local date of `startTime` is one of the 14 start dates on offer at `now`. */
export function isOnOfferedStartDate(startTime: number, now: number, timeZone: string): boolean {
  const daysAhead = dayNumber(toLocal(startTime, timeZone)) - dayNumber(toLocal(now, timeZone));
  return daysAhead >= 0 && daysAhead < START_DATE_COUNT;
}

/** The minutes a schedule entry may take: 5, 10, ... while below the duration in minutes. */
export function scheduleMinuteOptions(durationHours: number): number[] {
  const options: number[] = [];
  for (let minutes = SCHEDULE_STEP_MINUTES; minutes < durationHours * 60; minutes += SCHEDULE_STEP_MINUTES) {
    options.push(minutes);
  }
  return options;
}

/** The minutes of a new schedule entry. */
export const NEW_SCHEDULE_MINUTES = SCHEDULE_STEP_MINUTES;

/** The entries that have a title, with their titles trimmed; entries with an empty title are dropped. */
export function titledSchedules(schedules: readonly Schedule[]): Schedule[] {
  return schedules.map((schedule) => ({ minutes: schedule.minutes, title: schedule.title.trim() })).filter((schedule) => schedule.title !== '');
}

// --- Validation ---------------------------------------------------------------

/** Why a booking cannot be accepted: each is the key of its message in src/shared/messages.ts. */
export type BookingProblem =
  | 'duration_not_offered'
  | 'start_time_not_on_step'
  | 'start_time_passed'
  | 'start_date_not_offered'
  | 'repeat_weekdays_invalid'
  | 'start_not_on_repeat_weekday'
  | 'schedule_minutes_not_offered';

function areWeekdays(weekdays: readonly number[]): boolean {
  return weekdays.every((weekday) => Number.isInteger(weekday) && weekday >= 0 && weekday <= 6);
}

/**
 * The first booking rule (docs/api.md) that `booking` breaks at `now` for a guest in
 * `timeZone`, or null. Schedule entries without a title do not count; the
 * start must be in the future, on a 15-minute step, on one of the 14 dates
 * on offer and, for a daily repeat, on one of its weekdays (of which there
 * must be at least one).
 */
export function bookingProblem(booking: BookingRequest, now: number, timeZone: string): BookingProblem | null {
  if (!isOfferedDuration(booking.duration)) return 'duration_not_offered';
  if (!isOnStartTimeStep(booking.startTime, timeZone)) return 'start_time_not_on_step';
  if (booking.startTime <= now) return 'start_time_passed';
  if (!isOnOfferedStartDate(booking.startTime, now, timeZone)) return 'start_date_not_offered';
  if (!areWeekdays(booking.dailyRepeatSettings)) return 'repeat_weekdays_invalid';
  if (booking.repeatType === 'daily') {
    if (booking.dailyRepeatSettings.length === 0) return 'repeat_weekdays_invalid';
    if (!booking.dailyRepeatSettings.includes(toLocal(booking.startTime, timeZone).weekday)) {
      return 'start_not_on_repeat_weekday';
    }
  }
  const minuteOptions = scheduleMinuteOptions(booking.duration);
  if (titledSchedules(booking.schedules).some((schedule) => !minuteOptions.includes(schedule.minutes))) {
    return 'schedule_minutes_not_offered';
  }
  return null;
}

/**
 * The booking as it is kept: work and titles trimmed, untitled entries
 * dropped, weekdays once each and in order (all seven when none are given).
 */
export function normalizedBooking(booking: BookingRequest): BookingRequest {
  const weekdays = booking.dailyRepeatSettings.length === 0 ? DEFAULT_DAILY_REPEAT_WEEKDAYS : booking.dailyRepeatSettings;
  return {
    work: booking.work.trim(),
    duration: booking.duration,
    startTime: booking.startTime,
    repeatType: booking.repeatType,
    dailyRepeatSettings: [...new Set(weekdays)].sort((a, b) => a - b),
    schedules: titledSchedules(booking.schedules),
  };
}

/** Whether two bookings are the same once normalized: an edit that changes nothing is ignored. */
export function isSameBooking(first: BookingRequest, second: BookingRequest): boolean {
  return JSON.stringify(normalizedBooking(first)) === JSON.stringify(normalizedBooking(second));
}

// --- Repeating ----------------------------------------------------------------

/** How a booking repeats, anchored to the wall clock of the zone it was booked in. */
export interface RepeatRule {
  repeatType: RepeatType;
  dailyRepeatSettings: readonly number[];
  timeZone: string;
  /** Minutes past local midnight at which every occurrence starts. */
  wallClockMinutes: number;
}

/** The rule of a booking made at `startTime` by a guest in `timeZone`. */
export function repeatRuleOf(booking: Pick<BookingRequest, 'repeatType' | 'dailyRepeatSettings' | 'startTime'>, timeZone: string): RepeatRule {
  return {
    repeatType: booking.repeatType,
    dailyRepeatSettings: booking.dailyRepeatSettings,
    timeZone,
    wallClockMinutes: toLocal(booking.startTime, timeZone).minutes,
  };
}

/**
 * The local date an occurrence belongs to. An occurrence whose wall-clock
 * time fell in a daylight-saving gap starts later than the rule's time,
 * possibly after midnight; it still belongs to the date it was meant for.
 */
function occurrenceDate(start: number, rule: RepeatRule): LocalDate {
  const local = toLocal(start, rule.timeZone);
  const localMinute = dayNumber(local) * MINUTES_PER_DAY + local.minutes;
  const minutesPastRuleTime = (((localMinute - rule.wallClockMinutes) % MINUTES_PER_DAY) + MINUTES_PER_DAY) % MINUTES_PER_DAY;
  return addDays(EPOCH_DATE, (localMinute - minutesPastRuleTime) / MINUTES_PER_DAY);
}

/**
 * The start of the occurrence after the one starting at `currentStart`, or
 * null for a booking that does not repeat. Weekly: the same weekday a week
 * later; daily: the next date whose weekday is in `dailyRepeatSettings`.
 * Either way at the rule's wall-clock time, whatever daylight saving time
 * does in between.
 */
export function nextOccurrenceStart(rule: RepeatRule, currentStart: number): number | null {
  if (rule.repeatType === 'none') return null;
  const date = occurrenceDate(currentStart, rule);
  if (rule.repeatType === 'weekly') return fromLocal(addDays(date, 7), rule.wallClockMinutes, rule.timeZone);
  for (let days = 1; days <= 7; days += 1) {
    const next = addDays(date, days);
    if (rule.dailyRepeatSettings.includes(weekdayOf(next))) {
      return fromLocal(next, rule.wallClockMinutes, rule.timeZone);
    }
  }
  return null;
}

/**
 * A booked occurrence and, when it repeats, the rule that makes the ones
 * after it. A one-off booking and a past occurrence have no rule.
 */
export interface BookedSlot {
  startTime: number;
  /** Hours. */
  duration: number;
  rule: RepeatRule | null;
}

/** The starts of a slot's occurrences from its own start, while before `until`. */
export function occurrenceStarts(slot: BookedSlot, until: number): number[] {
  const starts: number[] = [];
  let start: number | null = slot.startTime;
  while (start !== null && start < until) {
    starts.push(start);
    start = slot.rule === null ? null : nextOccurrenceStart(slot.rule, start);
  }
  return starts;
}

/** The occurrences of a booking that have ended by `now`, and the one that is current or next. */
export interface RolledForward {
  /** Starts of the occurrences whose end is at or before `now`, oldest first. */
  endedStarts: number[];
  /** Start of the first occurrence not yet ended; null when the booking has no more. */
  currentStart: number | null;
}

/** Rolls a booking whose current occurrence starts at `slot.startTime` forward to `now`. */
export function rollForward(slot: BookedSlot, now: number): RolledForward {
  const length = durationMs(slot.duration);
  const endedStarts: number[] = [];
  let start: number | null = slot.startTime;
  while (start !== null && start + length <= now) {
    endedStarts.push(start);
    start = slot.rule === null ? null : nextOccurrenceStart(slot.rule, start);
  }
  return { endedStarts, currentStart: start };
}

// --- Time states and the change cutoff ----------------------------------------

/** Before the jail window, in it, or over (docs/api.md, The reservation object). */
export type TimeState = 'upcoming' | 'ready' | 'over';

/** Why an occurrence is finished: its time ended (kept or ignored), the guest skipped it, or a pause held it. */
export const FINISH_REASONS = ['ended', 'skipped', 'paused'] as const;
export type FinishReason = (typeof FINISH_REASONS)[number];

/**
 * The `status` of a reservation as the API gives it: its time state while it
 * is to come or under way (`upcoming`, then `ready` from 15 minutes before
 * the start), and how it finished once it has.
 */
export const RESERVATION_STATUSES = ['upcoming', 'ready', 'finished', 'skipped', 'paused'] as const;
export type ReservationStatus = (typeof RESERVATION_STATUSES)[number];

export interface Occurrence {
  startTime: number;
  endTime: number;
  finishReason: FinishReason | null;
}

/** When the jail of an occurrence starting at `startTime` can be entered: 15 minutes before. */
export function jailEntryOpensAt(startTime: number): number {
  return startTime - JAIL_ENTRY_BEFORE_START_MS;
}

/** The time state of an occurrence at `now`: over once finished or past its end; ready from 15 minutes before the start. */
export function timeStateOf(occurrence: Occurrence, now: number): TimeState {
  if (occurrence.finishReason !== null || now >= occurrence.endTime) return 'over';
  if (now >= jailEntryOpensAt(occurrence.startTime)) return 'ready';
  return 'upcoming';
}

/** The API status of an occurrence at `now`. */
export function reservationStatus(occurrence: Occurrence, now: number): ReservationStatus {
  if (occurrence.finishReason === 'skipped' || occurrence.finishReason === 'paused') return occurrence.finishReason;
  const state = timeStateOf(occurrence, now);
  return state === 'over' ? 'finished' : state;
}

/** When changes to an occurrence close: 6 hours before its start. */
export function changeCutoff(startTime: number): number {
  return startTime - CHANGE_CUTOFF_MS;
}

/** Edit and cancel are allowed only while the start is more than 6 hours away. */
export function isChangeAllowed(startTime: number, now: number): boolean {
  return now < changeCutoff(startTime);
}

/** The earliest start that may still be changed at `now` (the first for which `isChangeAllowed` holds). */
export function firstChangeableStart(now: number): number {
  return now + CHANGE_CUTOFF_MS + 1;
}

/** Skip is allowed only for a repeating booking whose start is more than 6 hours away. */
export function isSkipAllowed(booking: { repeatType: RepeatType; startTime: number }, now: number): boolean {
  return booking.repeatType !== 'none' && isChangeAllowed(booking.startTime, now);
}

// --- Overlaps -----------------------------------------------------------------

const YEAR_AND_WEEK_MS = 371 * DAY_MS;
const LONGEST_DURATION_MS = durationMs(Math.max(...BOOKING_DURATIONS_HOURS));

/**
 * How far two slots must be compared. Once both have started, weekly and
 * daily patterns repeat every week, so one week (plus the longest duration,
 * for occurrences that straddle its end) settles it, as long as the zones
 * keep one offset for a year (taken as for ever); with daylight saving time
 * in the way, a year and a week meets every kind of clock change once.
 */
function comparisonEnd(first: BookedSlot, second: BookedSlot): number {
  const earlier = Math.min(first.startTime, second.startTime);
  const later = Math.max(first.startTime, second.startTime);
  const yearEnd = later + YEAR_AND_WEEK_MS + LONGEST_DURATION_MS;
  const zones = [first.rule?.timeZone, second.rule?.timeZone].filter((zone) => zone !== undefined);
  const isPeriodic = zones.every((zone) => hasConstantOffset(zone, earlier, yearEnd));
  return isPeriodic ? later + WEEK_MS + LONGEST_DURATION_MS : yearEnd;
}

/**
 * The start of the first occurrence in `secondStarts` that meets one in
 * `firstStarts`, or null. Both lists are sorted and their occurrences do
 * not overlap among themselves.
 */
function firstMeeting(firstStarts: number[], firstLength: number, secondStarts: number[], secondLength: number): number | null {
  let firstIndex = 0;
  let secondIndex = 0;
  while (firstIndex < firstStarts.length && secondIndex < secondStarts.length) {
    const firstStart = firstStarts[firstIndex] ?? 0;
    const secondStart = secondStarts[secondIndex] ?? 0;
    const firstEnd = firstStart + firstLength;
    const secondEnd = secondStart + secondLength;
    if (firstStart < secondEnd && secondStart < firstEnd) return secondStart;
    if (firstEnd <= secondEnd) firstIndex += 1;
    else secondIndex += 1;
  }
  return null;
}

/**
 * The start of the first occurrence of `existing` that an occurrence of
 * `candidate` overlaps, or null (touching ends do not overlap).
 */
export function overlapStart(candidate: BookedSlot, existing: BookedSlot): number | null {
  const until = comparisonEnd(candidate, existing);
  return firstMeeting(occurrenceStarts(candidate, until), durationMs(candidate.duration), occurrenceStarts(existing, until), durationMs(existing.duration));
}

/** An existing slot a candidate overlaps, and the start of its occurrence that is in the way. */
export interface Overlap<Slot extends BookedSlot> {
  slot: Slot;
  occurrenceStart: number;
}

/** The first of `existing` that some occurrence of `candidate` overlaps, or null. */
export function firstOverlap<Slot extends BookedSlot>(candidate: BookedSlot, existing: readonly Slot[]): Overlap<Slot> | null {
  for (const slot of existing) {
    const occurrenceStart = overlapStart(candidate, slot);
    if (occurrenceStart !== null) return { slot, occurrenceStart };
  }
  return null;
}

// --- The light plan's monthly hours --------------------------------------------

/** Hours of the occurrences of `slots` that start within `month` of `timeZone`. */
export function hoursBookedInMonth(slots: readonly BookedSlot[], month: LocalMonth, timeZone: string): number {
  const { start, end } = monthBounds(month, timeZone);
  let hours = 0;
  for (const slot of slots) {
    const inMonth = occurrenceStarts(slot, end).filter((occurrenceStart) => occurrenceStart >= start);
    hours += inMonth.length * slot.duration;
  }
  return hours;
}

/** A month's booked hours set against a monthly allowance. */
export interface MonthlyHours {
  month: LocalMonth;
  /** Hours booked in the month without the candidate, past occurrences included. */
  bookedHours: number;
  /** Hours the candidate's occurrences add to the month. */
  candidateHours: number;
  allowedHours: number;
}

/**
 * The booked hours of the month in which `candidate` starts (in the guest's
 * time zone): those of every existing slot, past occurrences included and
 * repeating ones counted for each of their occurrences in the month, and
 * those the candidate adds.
 */
export function monthlyHoursWith(candidate: BookedSlot, existing: readonly BookedSlot[], timeZone: string, allowedHours: number): MonthlyHours {
  const { year, month } = toLocal(candidate.startTime, timeZone);
  const localMonth = { year, month };
  return {
    month: localMonth,
    bookedHours: hoursBookedInMonth(existing, localMonth, timeZone),
    candidateHours: hoursBookedInMonth([candidate], localMonth, timeZone),
    allowedHours,
  };
}

/** Whether the candidate would take the month over its allowance. */
export function exceedsAllowance(hours: MonthlyHours): boolean {
  return hours.bookedHours + hours.candidateHours > hours.allowedHours;
}

// --- Pauses ---------------------------------------------------------------------

/** A pause of the guest's repeats (docs/rules.md, Pauses): occurrences starting in [fromTime, toTime) are held. */
export interface PauseSpan {
  /** Epoch ms: the local midnight of the first day held. */
  fromTime: number;
  /** Epoch ms: when the repeats resume (the local midnight after the last day held, or earlier when ended early). */
  toTime: number;
}

/**
 * The one home of "is this occurrence held?": the pause that holds an
 * occurrence of a repeating booking starting at `startTime`, or null. A
 * one-off jail is never held. (The scheduler and the reminder worker ask
 * the same in SQL: src/server/services/pauses.ts, `isHeldSql`.)
 */
export function holdingPause<Pause extends PauseSpan>(occurrence: { repeatType: RepeatType; startTime: number }, pauses: readonly Pause[]): Pause | null {
  if (occurrence.repeatType === 'none') return null;
  return pauses.find((pause) => pause.fromTime <= occurrence.startTime && occurrence.startTime < pause.toTime) ?? null;
}

/** The span of a pause from the start of `firstDay` to the end of `lastDay`, in `timeZone`. */
export function pauseSpanOf(firstDay: LocalDate, lastDay: LocalDate, timeZone: string): PauseSpan {
  return { fromTime: fromLocal(firstDay, 0, timeZone), toTime: fromLocal(addDays(lastDay, 1), 0, timeZone) };
}

/** Why a new pause cannot be set: each is the key of its message in src/shared/messages.ts. */
export type PauseProblem = 'pause_last_day_before_first' | 'pause_too_long' | 'pause_too_far' | 'no_change_within_6_hours';

/**
 * The first pause rule that a pause from `firstDay` to `lastDay` (both held)
 * breaks at `now`, or null: the last day is not before the first, it holds
 * at most `MAX_PAUSE_DAYS` days, it begins within `MAX_PAUSE_DAYS_AHEAD`
 * days and more than 6 hours from now, as a skip must (so it never holds a
 * jail about to start).
 */
export function pauseProblem(firstDay: LocalDate, lastDay: LocalDate, now: number, timeZone: string): PauseProblem | null {
  const days = dayNumber(lastDay) - dayNumber(firstDay) + 1;
  if (days < 1) return 'pause_last_day_before_first';
  if (days > MAX_PAUSE_DAYS) return 'pause_too_long';
  if (dayNumber(firstDay) - dayNumber(toLocal(now, timeZone)) > MAX_PAUSE_DAYS_AHEAD) return 'pause_too_far';
  if (!isChangeAllowed(pauseSpanOf(firstDay, lastDay, timeZone).fromTime, now)) return 'no_change_within_6_hours';
  return null;
}

/**
 * The first day a pause may begin on at `now`: the first local day whose
 * midnight is more than 6 hours ahead (tomorrow, or the day after once the
 * evening is less than 6 hours from midnight), so that the form's first
 * offer is one `pauseProblem` accepts.
 */
export function firstPausableDay(now: number, timeZone: string): LocalDate {
  const tomorrow = addDays(toLocal(now, timeZone), 1);
  return isChangeAllowed(fromLocal(tomorrow, 0, timeZone), now) ? tomorrow : addDays(tomorrow, 1);
}

/**
 * Where ending a pause at `now` leaves it: the part ahead that may still be
 * changed (more than 6 hours from now) is given back, so the pause runs to
 * `firstChangeableStart(now)`; null when that leaves nothing of it (it had
 * not begun: it goes), or the pause as it is when nothing of it is that far ahead.
 */
export function endedPause(pause: PauseSpan, now: number): PauseSpan | null {
  const resumeAt = firstChangeableStart(now);
  if (resumeAt <= pause.fromTime) return null;
  return { fromTime: pause.fromTime, toTime: Math.min(pause.toTime, resumeAt) };
}

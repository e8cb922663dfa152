/**
 * The booking form's pure rules (docs/client.md, Form rules): the options it offers, its
 * defaults, what it sends and whether an edit changed anything. The rules
 * themselves live in src/shared/reservations.ts (shared with the server);
 * this module only arranges them for the form.
 */
import { DEFAULT_DAILY_REPEAT_WEEKDAYS, type RepeatType } from '../../../shared/constants.ts';
import {
  NEW_SCHEDULE_MINUTES,
  bookingProblem,
  defaultStartTime,
  isSameBooking,
  normalizedBooking,
  scheduleMinuteOptions,
  startDateOptions,
  startTimeOptions,
  type BookingProblem,
  type BookingRequest,
  type Schedule,
} from '../../../shared/reservations.ts';
import { clockLabel, dayNumber, fromLocal, toLocal, weekdayOf, type LocalDate } from '../../../shared/time-zone.ts';
import { DURATION_OPTIONS } from './duration-options.ts';

/** What the form holds while the guest fills it in. */
export interface BookingFormState {
  /** The start date, `YYYY-MM-DD` in the guest's zone. */
  date: string;
  /** Minutes past local midnight of the start. */
  minutes: number;
  /** Hours. */
  duration: number;
  repeatType: RepeatType;
  dailyRepeatSettings: number[];
  work: string;
  /** Whether to keep the work among the remembered works. */
  rememberWork: boolean;
  schedules: Schedule[];
}

/** `YYYY-MM-DD` of a local date. */
export function dateKey(date: LocalDate): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.year}-${pad(date.month)}-${pad(date.day)}`;
}

/** The local date of a `YYYY-MM-DD` key. */
export function parseDateKey(key: string): LocalDate {
  const [year = 1970, month = 1, day = 1] = key.split('-').map(Number);
  return { year, month, day };
}

/** A date option of the form: its key, its date and its weekday. */
export interface DateOption {
  key: string;
  date: LocalDate;
  weekday: number;
}

/**
 * The 14 start dates on offer (today and the 13 days after). When editing a
 * reservation whose date is not among them, that date is offered first so the
 * form shows what is booked.
 */
export function dateOptions(now: number, timeZone: string, keep?: string): DateOption[] {
  const dates = startDateOptions(now, timeZone);
  if (keep !== undefined && !dates.some((date) => dateKey(date) === keep)) {
    const kept = parseDateKey(keep);
    dates.push(kept);
    dates.sort((a, b) => dayNumber(a) - dayNumber(b));
  }
  return dates.map((date) => ({ key: dateKey(date), date, weekday: weekdayOf(date) }));
}

/** A start time option: minutes past local midnight, the instant, and whether it has passed. */
export interface TimeOption {
  minutes: number;
  startTime: number;
  label: string;
  passed: boolean;
}

/** The 15-minute start times of a date; those at or before `now` are marked passed. */
export function timeOptions(date: string, now: number, timeZone: string): TimeOption[] {
  return startTimeOptions(parseDateKey(date), timeZone).map((startTime) => {
    const minutes = toLocal(startTime, timeZone).minutes;
    return { minutes, startTime, label: clockLabel(minutes), passed: startTime <= now };
  });
}

/** The form of a new booking: first listed date and the nearest future start, first duration. */
export function newBookingForm(now: number, timeZone: string): BookingFormState {
  const start = toLocal(defaultStartTime(now, timeZone), timeZone);
  return {
    date: dateKey(start),
    minutes: start.minutes,
    duration: DURATION_OPTIONS[0] ?? 1,
    repeatType: 'none',
    dailyRepeatSettings: [...DEFAULT_DAILY_REPEAT_WEEKDAYS],
    work: '',
    rememberWork: false,
    schedules: [],
  };
}

/** The form pre-filled with a booked reservation. */
export function editBookingForm(reservation: BookingRequest, timeZone: string): BookingFormState {
  const start = toLocal(reservation.startTime, timeZone);
  return {
    date: dateKey(start),
    minutes: start.minutes,
    duration: reservation.duration,
    repeatType: reservation.repeatType,
    dailyRepeatSettings: reservation.dailyRepeatSettings.length === 0 ? [...DEFAULT_DAILY_REPEAT_WEEKDAYS] : [...reservation.dailyRepeatSettings],
    work: reservation.work,
    rememberWork: false,
    schedules: reservation.schedules.map((schedule) => ({ ...schedule })),
  };
}

/** The instant the form's start names. */
export function formStartTime(form: BookingFormState, timeZone: string): number {
  return fromLocal(parseDateKey(form.date), form.minutes, timeZone);
}

/** What the form sends: entries with an empty title dropped, work trimmed. */
export function bookingRequestOf(form: BookingFormState, timeZone: string): BookingRequest {
  return normalizedBooking({
    work: form.work,
    duration: form.duration,
    startTime: formStartTime(form, timeZone),
    repeatType: form.repeatType,
    dailyRepeatSettings: form.dailyRepeatSettings,
    schedules: form.schedules,
  });
}

/** The first booking rule (src/shared/reservations.ts, docs/rules.md) the form breaks at `now`, or null. */
export function formProblem(form: BookingFormState, now: number, timeZone: string): BookingProblem | null {
  // Checked before normalizing, which would turn no weekdays into all seven.
  return bookingProblem({ ...bookingRequestOf(form, timeZone), dailyRepeatSettings: form.dailyRepeatSettings }, now, timeZone);
}

/** Whether an edit changed nothing (then it is not sent). */
export function isUnchangedEdit(form: BookingFormState, original: BookingRequest, timeZone: string): boolean {
  return isSameBooking(bookingRequestOf(form, timeZone), original);
}

/** The 'remember work' checkbox shows only for a non-empty work not yet remembered. */
export function canRememberWork(work: string, rememberedWorks: readonly string[]): boolean {
  const trimmed = work.trim();
  return trimmed !== '' && !rememberedWorks.includes(trimmed);
}

/** The remembered works after booking `work` with the box ticked (or as they were). */
export function rememberedAfterBooking(work: string, remember: boolean, rememberedWorks: readonly string[]): string[] {
  if (!remember || !canRememberWork(work, rememberedWorks)) return [...rememberedWorks];
  return [...rememberedWorks, work.trim()];
}

/** The minutes a schedule entry may take for the form's duration. */
export function scheduleOptions(form: Pick<BookingFormState, 'duration'>): number[] {
  return scheduleMinuteOptions(form.duration);
}

/** The form with a new schedule entry at 5 minutes. */
export function withNewSchedule(form: BookingFormState): BookingFormState {
  return { ...form, schedules: [...form.schedules, { minutes: NEW_SCHEDULE_MINUTES, title: '' }] };
}

/** The form with a new duration; entries no longer below it move to the last minute on offer. */
export function withDuration(form: BookingFormState, duration: number): BookingFormState {
  const options = scheduleMinuteOptions(duration);
  const last = options[options.length - 1] ?? NEW_SCHEDULE_MINUTES;
  return {
    ...form,
    duration,
    schedules: form.schedules.map((schedule) => (options.includes(schedule.minutes) ? schedule : { ...schedule, minutes: last })),
  };
}

/** The form on a new date, keeping the wall-clock time. */
export function withDate(form: BookingFormState, date: string): BookingFormState {
  return { ...form, date };
}

/** The form with a weekday of the daily repeat ticked or not (kept in order). */
export function withWeekday(form: BookingFormState, weekday: number, checked: boolean): BookingFormState {
  const others = form.dailyRepeatSettings.filter((day) => day !== weekday);
  const next = checked ? [...others, weekday] : others;
  return { ...form, dailyRepeatSettings: next.sort((a, b) => a - b) };
}

const DAY_MINUTES = 24 * 60;

/** A clock time past midnight brought back into the day (a jail may run past midnight). */
export function dayMinutes(minutes: number): number {
  return ((minutes % DAY_MINUTES) + DAY_MINUTES) % DAY_MINUTES;
}

/** An hour of the start-time picker: its number and whether every time in it has passed. */
export interface HourOption {
  hour: number;
  passed: boolean;
}

/** The hours that have start times (a day the clocks change may lack one), each passed when all its times have. */
export function hourOptions(times: readonly TimeOption[]): HourOption[] {
  const hours = new Map<number, boolean>();
  for (const time of times) {
    const hour = Math.floor(time.minutes / 60);
    hours.set(hour, (hours.get(hour) ?? true) && time.passed);
  }
  return [...hours].map(([hour, passed]) => ({ hour, passed }));
}

/** The start times within `hour`, for the minute choice. */
export function timesInHour(times: readonly TimeOption[], hour: number): TimeOption[] {
  return times.filter((time) => Math.floor(time.minutes / 60) === hour);
}

/** The form at a new hour: the same minute past it where that has not passed, else its first time still to come. */
export function withHour(form: BookingFormState, times: readonly TimeOption[], hour: number): BookingFormState {
  const inHour = timesInHour(times, hour).filter((time) => !time.passed);
  const sameMinute = inHour.find((time) => time.minutes % 60 === form.minutes % 60);
  const chosen = sameMinute ?? inHour[0];
  return chosen === undefined ? form : { ...form, minutes: chosen.minutes };
}

/** The next shorter or longer duration on offer, or the same at either end. */
export function steppedDuration(duration: number, step: -1 | 1): number {
  const index = DURATION_OPTIONS.indexOf(duration);
  return DURATION_OPTIONS[Math.min(DURATION_OPTIONS.length - 1, Math.max(0, index + step))] ?? duration;
}

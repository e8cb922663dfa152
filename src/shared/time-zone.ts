/**
 * Wall-clock arithmetic in a guest's time zone, for the client and the server.
 *
 * A time zone is a string in one of two forms:
 *
 * - an IANA name such as `Asia/Tokyo` or `Europe/London`, which is what a
 *   browser reports through `Intl.DateTimeFormat().resolvedOptions().timeZone`
 *   and which follows daylight saving time;
 * - a fixed offset from UTC, `+09:00` or `-05:30`: what a guest's zone is
 *   today, since sign-up takes it from the browser offset
 *   (`Date.prototype.getTimezoneOffset()`, kept in `guests.timezone`).
 *   `UTC` is also accepted.
 *
 * The rules are written for both, so that keeping the browser's IANA name
 * one day makes repeating bookings follow daylight saving time without
 * another change here.
 *
 * Local dates and times never go through the host's own time zone: an
 * instant is shifted by the zone's offset and read with the UTC getters.
 */

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
export const MINUTES_PER_DAY = 1_440;

/** A calendar date in some time zone; `month` runs from 1 to 12. */
export interface LocalDate {
  year: number;
  month: number;
  day: number;
}

/** A calendar date and a wall-clock time in some time zone. */
export interface LocalDateTime extends LocalDate {
  /** Minutes since local midnight, 0 to 1439. */
  minutes: number;
  /** 0 = Sunday to 6 = Saturday. */
  weekday: number;
}

/** A calendar month in some time zone; `month` runs from 1 to 12. */
export interface LocalMonth {
  year: number;
  month: number;
}

const FIXED_OFFSET = /^([+-])(\d{2}):(\d{2})$/;
const LARGEST_OFFSET_MINUTES = 14 * 60;

function fixedOffsetMinutes(timeZone: string): number | null {
  if (timeZone === 'UTC') return 0;
  const match = FIXED_OFFSET.exec(timeZone);
  if (match === null) return null;
  const [, sign, hours, minutes] = match;
  const magnitude = Number(hours) * 60 + Number(minutes);
  if (Number(minutes) >= 60 || magnitude > LARGEST_OFFSET_MINUTES) return null;
  return sign === '-' ? -magnitude : magnitude;
}

const partFormatters = new Map<string, Intl.DateTimeFormat>();

function partFormatter(timeZone: string): Intl.DateTimeFormat {
  let formatter = partFormatters.get(timeZone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    partFormatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The fixed-offset form of an offset in minutes east of UTC: 540 gives `+09:00`. */
export function fixedOffsetTimeZone(minutesEastOfUtc: number): string {
  const sign = minutesEastOfUtc < 0 ? '-' : '+';
  const magnitude = Math.abs(Math.round(minutesEastOfUtc));
  const hours = String(Math.floor(magnitude / 60)).padStart(2, '0');
  const minutes = String(magnitude % 60).padStart(2, '0');
  return `${sign}${hours}:${minutes}`;
}

/**
 * The zone of a browser offset as `Date.prototype.getTimezoneOffset()` gives
 * it, in minutes west of UTC (Tokyo: -540), which is how a guest's time zone
 * is kept (`guests.timezone`).
 */
export function timeZoneOfBrowserOffset(offsetMinutesWestOfUtc: number): string {
  return fixedOffsetTimeZone(-offsetMinutesWestOfUtc);
}

function formattedOffsetMinutes(timeZone: string, epochMs: number): number {
  const wholeSecond = Math.floor(epochMs / 1_000) * 1_000;
  const parts: Record<string, number> = {};
  for (const part of partFormatter(timeZone).formatToParts(wholeSecond)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  const asUtc = Date.UTC(parts.year ?? 1970, (parts.month ?? 1) - 1, parts.day ?? 1, parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0);
  return Math.round((asUtc - wholeSecond) / MINUTE_MS);
}

/**
 * The offsets of one zone over one span of `SPAN_DAYS` days: the offset at
 * the span's start and each change inside it. Asking `Intl` costs a few
 * microseconds a call; a span is sampled once a day (a zone never changes
 * its offset twice within a day) and each change is then found to the
 * minute, so that the many conversions of a repeating booking cost a scan
 * of a change or two each.
 */
interface OffsetSpan {
  initialOffset: number;
  changes: { at: number; offset: number }[];
}

const SPAN_DAYS = 32;
const SPAN_MS = SPAN_DAYS * DAY_MS;
const MOST_SPANS_KEPT_PER_ZONE = 1_024;
const offsetSpans = new Map<string, Map<number, OffsetSpan>>();

function firstMinuteWithOffset(timeZone: string, from: number, to: number, offset: number): number {
  // The offset at `from` differs from `offset`, the one at `to`.
  let before = from;
  let after = to;
  while (after - before > MINUTE_MS) {
    const middle = before + Math.floor((after - before) / MINUTE_MS / 2) * MINUTE_MS;
    if (formattedOffsetMinutes(timeZone, middle) === offset) after = middle;
    else before = middle;
  }
  return after;
}

function measureSpan(timeZone: string, spanIndex: number): OffsetSpan {
  const start = spanIndex * SPAN_MS;
  const initialOffset = formattedOffsetMinutes(timeZone, start);
  const changes: { at: number; offset: number }[] = [];
  let previous = initialOffset;
  for (let day = 1; day <= SPAN_DAYS; day += 1) {
    const sample = start + day * DAY_MS;
    const offset = formattedOffsetMinutes(timeZone, sample);
    if (offset !== previous) {
      const at = firstMinuteWithOffset(timeZone, sample - DAY_MS, sample, offset);
      if (at < start + SPAN_MS) changes.push({ at, offset });
      previous = offset;
    }
  }
  return { initialOffset, changes };
}

function spanOf(timeZone: string, spanIndex: number): OffsetSpan {
  let spans = offsetSpans.get(timeZone);
  if (spans === undefined) {
    spans = new Map();
    offsetSpans.set(timeZone, spans);
  }
  let span = spans.get(spanIndex);
  if (span === undefined) {
    if (spans.size >= MOST_SPANS_KEPT_PER_ZONE) spans.clear();
    span = measureSpan(timeZone, spanIndex);
    spans.set(spanIndex, span);
  }
  return span;
}

/** How many minutes the zone is ahead of UTC at the instant `epochMs`. */
export function offsetMinutesAt(timeZone: string, epochMs: number): number {
  const fixed = fixedOffsetMinutes(timeZone);
  if (fixed !== null) return fixed;
  const span = spanOf(timeZone, Math.floor(epochMs / SPAN_MS));
  let offset = span.initialOffset;
  for (const change of span.changes) {
    if (change.at > epochMs) break;
    offset = change.offset;
  }
  return offset;
}

/** The local date, time and weekday of the instant `epochMs` in `timeZone`. */
export function toLocal(epochMs: number, timeZone: string): LocalDateTime {
  const shifted = new Date(epochMs + offsetMinutesAt(timeZone, epochMs) * MINUTE_MS);
  return {
    year: shifted.getUTCFullYear(),
    month: shifted.getUTCMonth() + 1,
    day: shifted.getUTCDate(),
    minutes: shifted.getUTCHours() * 60 + shifted.getUTCMinutes(),
    weekday: shifted.getUTCDay(),
  };
}

/** Days since 1970-01-01 of a calendar date (the same in every zone). */
export function dayNumber(date: LocalDate): number {
  return Date.UTC(date.year, date.month - 1, date.day) / DAY_MS;
}

/** The calendar date `days` days after `date` (or before, when negative). */
export function addDays(date: LocalDate, days: number): LocalDate {
  const moved = new Date(Date.UTC(date.year, date.month - 1, date.day + days));
  return { year: moved.getUTCFullYear(), month: moved.getUTCMonth() + 1, day: moved.getUTCDate() };
}

/** 0 = Sunday to 6 = Saturday. */
export function weekdayOf(date: LocalDate): number {
  return new Date(Date.UTC(date.year, date.month - 1, date.day)).getUTCDay();
}

/**
 * The instant at which the wall clock in `timeZone` shows `minutes` past
 * midnight of `date`. A time that does not exist (in a daylight-saving gap)
 * is read with the offset before the gap, so it lands as much later as the
 * gap is long; a time that exists twice (when the clocks go back) gives the
 * earlier instant. These are the choices of Temporal's 'compatible' mode.
 */
export function fromLocal(date: LocalDate, minutes: number, timeZone: string): number {
  const wall = Date.UTC(date.year, date.month - 1, date.day) + minutes * MINUTE_MS;
  const offsetBefore = offsetMinutesAt(timeZone, wall - DAY_MS);
  const offsetAfter = offsetMinutesAt(timeZone, wall + DAY_MS);
  const candidates = [wall - offsetBefore * MINUTE_MS, wall - offsetAfter * MINUTE_MS]
    .filter((instant) => wall - offsetMinutesAt(timeZone, instant) * MINUTE_MS === instant)
    .sort((a, b) => a - b);
  return candidates[0] ?? wall - offsetBefore * MINUTE_MS;
}

/** Whether the wall clock in `timeZone` really shows `minutes` past midnight of `date` at some instant. */
export function localTimeExists(date: LocalDate, minutes: number, timeZone: string): boolean {
  const local = toLocal(fromLocal(date, minutes, timeZone), timeZone);
  return dayNumber(local) === dayNumber(date) && local.minutes === minutes;
}

/** The calendar month of the instant `epochMs` in `timeZone`. */
export function localMonthOf(epochMs: number, timeZone: string): LocalMonth {
  const { year, month } = toLocal(epochMs, timeZone);
  return { year, month };
}

/** The instants at which `month` begins and the next month begins, in `timeZone`. */
export function monthBounds(month: LocalMonth, timeZone: string): { start: number; end: number } {
  const first = { year: month.year, month: month.month, day: 1 };
  const next = month.month === 12 ? { year: month.year + 1, month: 1, day: 1 } : { year: month.year, month: month.month + 1, day: 1 };
  return { start: fromLocal(first, 0, timeZone), end: fromLocal(next, 0, timeZone) };
}

/**
 * How times are written, in both languages and everywhere (the app, the
 * console, the Warden's spoken lines, reminders and e-mails): 24-hour
 * `HH:MM`, as the booking form's times are, so that one screen never mixes
 * `11:00` with `11:00 AM` (docs/client.md, Times).
 */

/** `HH:MM` of minutes past midnight: `09:05`, `23:30`. */
export function clockLabel(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

/** The time of day of the instant `epochMs` in `timeZone`, as `clockLabel` writes it; `HH:MM:SS` with `seconds`. */
export function formatClock(epochMs: number, timeZone: string, { seconds = false } = {}): string {
  const clock = clockLabel(toLocal(epochMs, timeZone).minutes);
  // Every zone's offset is whole minutes, so the seconds are the instant's own.
  return seconds ? `${clock}:${String(Math.floor(epochMs / 1_000) % 60).padStart(2, '0')}` : clock;
}

/** The zone this runtime's clock shows: in a browser, the device's (an IANA name). */
export function systemTimeZone(): string {
  return new Intl.DateTimeFormat().resolvedOptions().timeZone;
}

const dateFormatters = new Map<string, Intl.DateTimeFormat>();
const zoneNameFormatters = new Map<string, Intl.DateTimeFormat>();

function cachedFormatter(cache: Map<string, Intl.DateTimeFormat>, key: string, make: () => Intl.DateTimeFormat): Intl.DateTimeFormat {
  let formatter = cache.get(key);
  if (formatter === undefined) {
    formatter = make();
    cache.set(key, formatter);
  }
  return formatter;
}

/** A fixed offset as people say it: `UTC+9`, `UTC-5:30`, `UTC`. */
function offsetName(minutesEastOfUtc: number): string {
  if (minutesEastOfUtc === 0) return 'UTC';
  const magnitude = Math.abs(minutesEastOfUtc);
  const minutes = magnitude % 60;
  return `UTC${minutesEastOfUtc < 0 ? '-' : '+'}${Math.floor(magnitude / 60)}${minutes === 0 ? '' : `:${String(minutes).padStart(2, '0')}`}`;
}

/**
 * A zone as people name it, in `language`: Intl's long generic name of an
 * IANA zone (`Japan Standard Time`, `日本標準時`, `Eastern Time`); a fixed
 * offset, which Intl has no name for, as `UTC+9`.
 */
export function zoneName(timeZone: string, epochMs: number, language: string): string {
  const fixed = fixedOffsetMinutes(timeZone);
  if (fixed === null) {
    const named = cachedFormatter(
      zoneNameFormatters,
      `${language}|${timeZone}`,
      () => new Intl.DateTimeFormat(language, { timeZone, timeZoneName: 'longGeneric' }),
    )
      .formatToParts(epochMs)
      .find((part) => part.type === 'timeZoneName')?.value;
    // Intl writes a zone it cannot name as GMT+09:00; the offset is then written the one way.
    if (named !== undefined && !named.startsWith('GMT')) return named;
  }
  return offsetName(offsetMinutesAt(timeZone, epochMs));
}

/**
 * A date and time in `timeZone` for a reader speaking `language` (`en`,
 * `ja`): `Nov 28, 2026, 09:00`, `2026/11/28 09:00`. The zone is named after
 * it (`… Japan Standard Time`, `… 日本標準時`) unless the reader's own clock
 * (`readerTimeZone`: the device's, in the app) shows the same time then;
 * without a reader's zone (an e-mail) it is always named.
 */
export function formatDateTime(epochMs: number, timeZone: string, language: string, readerTimeZone?: string): string {
  const local = toLocal(epochMs, timeZone);
  const date = cachedFormatter(dateFormatters, language, () => new Intl.DateTimeFormat(language, { timeZone: 'UTC', dateStyle: 'medium' })).format(
    Date.UTC(local.year, local.month - 1, local.day),
  );
  const dateTime = `${date}${language === 'ja' ? ' ' : ', '}${clockLabel(local.minutes)}`;
  const sameClock = readerTimeZone !== undefined && offsetMinutesAt(readerTimeZone, epochMs) === offsetMinutesAt(timeZone, epochMs);
  return sameClock ? dateTime : `${dateTime} ${zoneName(timeZone, epochMs, language)}`;
}

/**
 * Whether `timeZone` keeps one offset from `from` to `until`. A change within
 * a few weeks outside the interval may also answer false: the answer errs
 * towards false, never towards true.
 */
export function hasConstantOffset(timeZone: string, from: number, until: number): boolean {
  if (fixedOffsetMinutes(timeZone) !== null) return true;
  const offset = offsetMinutesAt(timeZone, from);
  for (let spanIndex = Math.floor(from / SPAN_MS); spanIndex * SPAN_MS <= until; spanIndex += 1) {
    const span = spanOf(timeZone, spanIndex);
    if (span.initialOffset !== offset || span.changes.length > 0) return false;
  }
  return true;
}

/** A calendar month as a reader speaking `language` names it: `November 2026`, `2026年11月`. */
export function formatMonth(month: LocalMonth, language: string): string {
  return new Intl.DateTimeFormat(language, { timeZone: 'UTC', year: 'numeric', month: 'long' }).format(Date.UTC(month.year, month.month - 1, 1));
}

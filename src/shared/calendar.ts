/**
 * Jails as iCalendar (RFC 5545, docs/calendar.md): the text of a calendar
 * that Google Calendar, Apple Calendar and Outlook read, for the guest's
 * subscribed feed (the server) and for one jail's "Add to calendar" (the
 * client). Pure: the caller says what the events are and when "now" is.
 *
 * A guest's zone is a fixed offset (src/shared/time-zone.ts), so each event
 * carries a zone with one offset and no daylight saving: a whole-hour offset
 * is named as the IANA zone `Etc/GMT-9` is (which every calendar knows), any
 * other as `UTC+0530` (a TZID parameter holds no colon unquoted), and each is defined in the calendar for the readers
 * that want it spelled out.
 */
import type { Language } from './constants.ts';
import { message } from './messages.ts';
import { JAIL_ENTRY_LEAD_MINUTES } from './reservations.ts';
import { addDays, offsetMinutesAt, toLocal, type LocalDate } from './time-zone.ts';
import { MINUTE_MS } from './durations.ts';

const WEEKDAY_CODES = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'] as const;

/** How an event repeats: every week on its start's weekday, or on each of `weekdays` (0 = Sunday). */
export type CalendarRepeat = { kind: 'weekly' } | { kind: 'weekdays'; weekdays: readonly number[] };

/** One instance of a repeating event that differs from the series (its own work or page). */
export interface CalendarOverride {
  start: number;
  summary: string;
  url: string;
}

export interface CalendarEvent {
  /** Stable across reads of the feed, unique across Warden: `reservation-12@host`. */
  uid: string;
  /** Epoch ms of the (first) start. */
  start: number;
  durationMinutes: number;
  summary: string;
  url: string;
  /** The zone the event's wall-clock times are in (`+09:00`). */
  timeZone: string;
  repeat: CalendarRepeat | null;
  /** Starts of occurrences of the series that do not happen (skipped, or held by a pause). */
  exceptions: readonly number[];
  overrides: readonly CalendarOverride[];
  /** Minutes before the start a calendar reminds; null: no alarm. */
  alarmMinutes: number | null;
}

/**
 * An all-day event over whole local days (a pause of the repeats): shown in
 * the all-day row above the hours, and free time, not busy.
 */
export interface CalendarDayEvent {
  uid: string;
  firstDay: LocalDate;
  /** The day after the last day (DTEND of an all-day event is exclusive). */
  dayAfter: LocalDate;
  summary: string;
  url: string;
}

export interface CalendarOptions {
  /** The calendar's name, as a subscribing calendar shows it. */
  name: string;
  /** The zone the calendar as a whole is shown in: the guest's. */
  timeZone: string;
  /** When the text is made (DTSTAMP). */
  now: number;
}

/** Escapes a TEXT value (RFC 5545 §3.3.11). */
function escapeText(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n');
}

/** Octets of one code point in UTF-8. */
function utf8Length(codePoint: number): number {
  if (codePoint < 0x80) return 1;
  if (codePoint < 0x800) return 2;
  return codePoint < 0x10000 ? 3 : 4;
}

/** Folds a content line at 75 octets of UTF-8, never inside a character (RFC 5545 §3.1). */
export function foldLine(line: string): string {
  const parts: string[] = [];
  let current = '';
  let currentBytes = 0;
  for (const character of line) {
    const bytes = utf8Length(character.codePointAt(0) ?? 0);
    // The first line holds 75 octets; each continuation starts with a space, leaving 74.
    const limit = parts.length === 0 ? 75 : 74;
    if (currentBytes + bytes > limit) {
      parts.push(current);
      current = '';
      currentBytes = 0;
    }
    current += character;
    currentBytes += bytes;
  }
  parts.push(current);
  return parts.join('\r\n ');
}

function two(value: number): string {
  return String(value).padStart(2, '0');
}

/** Minutes east of UTC of `timeZone` (a fixed offset) at `epochMs`. */
function offsetOf(timeZone: string, epochMs: number): number {
  return offsetMinutesAt(timeZone, epochMs);
}

/** `+0900` / `-0330`, as TZOFFSETTO writes an offset. */
function offsetText(minutesEast: number): string {
  const magnitude = Math.abs(minutesEast);
  return `${minutesEast < 0 ? '-' : '+'}${two(Math.floor(magnitude / 60))}${two(magnitude % 60)}`;
}

/** The TZID of a fixed offset: `Etc/GMT-9` for +09:00 (the IANA names invert the sign), `UTC+0530` otherwise. */
export function zoneId(minutesEast: number): string {
  if (minutesEast === 0) return 'Etc/UTC';
  const hours = minutesEast / 60;
  // The IANA's Etc zones run from Etc/GMT+12 (UTC-12) to Etc/GMT-14 (UTC+14), whole hours only.
  if (Number.isInteger(hours) && hours >= -12 && hours <= 14) return `Etc/GMT${hours > 0 ? '-' : '+'}${Math.abs(hours)}`;
  return `UTC${offsetText(minutesEast)}`;
}

/** `20261126T100000`: the wall-clock time of `epochMs` in `timeZone`. */
function localStamp(epochMs: number, timeZone: string): string {
  const local = toLocal(epochMs, timeZone);
  const minutes = local.minutes;
  return `${local.year}${two(local.month)}${two(local.day)}T${two(Math.floor(minutes / 60))}${two(minutes % 60)}00`;
}

/** `20261126T010000Z`. */
function utcStamp(epochMs: number): string {
  const date = new Date(epochMs - (epochMs % 1000));
  return `${date.getUTCFullYear()}${two(date.getUTCMonth() + 1)}${two(date.getUTCDate())}T${two(date.getUTCHours())}${two(date.getUTCMinutes())}${two(date.getUTCSeconds())}Z`;
}

/** `PT1H30M`. */
function durationText(minutes: number): string {
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return `PT${hours > 0 ? `${hours}H` : ''}${rest > 0 || hours === 0 ? `${rest}M` : ''}`;
}

function ruleText(repeat: CalendarRepeat): string {
  if (repeat.kind === 'weekly') return 'FREQ=WEEKLY';
  const days = [...repeat.weekdays].sort((a, b) => a - b).map((day) => WEEKDAY_CODES[day]);
  return `FREQ=WEEKLY;BYDAY=${days.join(',')}`;
}

function zoneLines(minutesEast: number): string[] {
  const offset = offsetText(minutesEast);
  return [
    'BEGIN:VTIMEZONE',
    `TZID:${zoneId(minutesEast)}`,
    'BEGIN:STANDARD',
    'DTSTART:19700101T000000',
    `TZOFFSETFROM:${offset}`,
    `TZOFFSETTO:${offset}`,
    `TZNAME:UTC${offset}`,
    'END:STANDARD',
    'END:VTIMEZONE',
  ];
}

function eventLines(event: CalendarEvent, now: number): string[] {
  const zone = `TZID=${zoneId(offsetOf(event.timeZone, event.start))}`;
  const at = (epochMs: number) => localStamp(epochMs, event.timeZone);
  const common = (start: number, summary: string, url: string) => [
    `UID:${event.uid}`,
    `DTSTAMP:${utcStamp(now)}`,
    `DTSTART;${zone}:${at(start)}`,
    `DURATION:${durationText(event.durationMinutes)}`,
    `SUMMARY:${escapeText(summary)}`,
    `URL:${url}`,
    `DESCRIPTION:${escapeText(url)}`,
  ];
  const alarm =
    event.alarmMinutes === null
      ? []
      : ['BEGIN:VALARM', 'ACTION:DISPLAY', `TRIGGER:-${durationText(event.alarmMinutes)}`, `DESCRIPTION:${escapeText(event.summary)}`, 'END:VALARM'];
  const master = ['BEGIN:VEVENT', ...common(event.start, event.summary, event.url)];
  if (event.repeat !== null) master.push(`RRULE:${ruleText(event.repeat)}`);
  if (event.repeat !== null && event.exceptions.length > 0) master.push(`EXDATE;${zone}:${event.exceptions.map(at).join(',')}`);
  master.push(...alarm, 'END:VEVENT');
  const overrides = event.overrides.flatMap((override) => [
    'BEGIN:VEVENT',
    ...common(override.start, override.summary, override.url),
    `RECURRENCE-ID;${zone}:${at(override.start)}`,
    'END:VEVENT',
  ]);
  return [...master, ...overrides];
}

/** `20261126`: a DATE value. */
function dateStamp(date: LocalDate): string {
  return `${date.year}${two(date.month)}${two(date.day)}`;
}

function dayEventLines(event: CalendarDayEvent, now: number): string[] {
  return [
    'BEGIN:VEVENT',
    `UID:${event.uid}`,
    `DTSTAMP:${utcStamp(now)}`,
    `DTSTART;VALUE=DATE:${dateStamp(event.firstDay)}`,
    `DTEND;VALUE=DATE:${dateStamp(event.dayAfter)}`,
    `SUMMARY:${escapeText(event.summary)}`,
    'TRANSP:TRANSPARENT',
    `URL:${event.url}`,
    'END:VEVENT',
  ];
}

/** The whole calendar: its zones, then each event (a series with its exceptions and overrides), then the all-day ones. */
export function calendarText(events: readonly CalendarEvent[], options: CalendarOptions, dayEvents: readonly CalendarDayEvent[] = []): string {
  const calendarZone = offsetOf(options.timeZone, options.now);
  const offsets = new Set<number>([calendarZone, ...events.map((event) => offsetOf(event.timeZone, event.start))]);
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Warden//Jails//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    `X-WR-CALNAME:${escapeText(options.name)}`,
    `X-WR-TIMEZONE:${zoneId(calendarZone)}`,
    ...[...offsets].flatMap(zoneLines),
    ...events.flatMap((event) => eventLines(event, options.now)),
    ...dayEvents.flatMap((event) => dayEventLines(event, options.now)),
    'END:VCALENDAR',
  ];
  return `${lines.map(foldLine).join('\r\n')}\r\n`;
}

// --- Jails as events -----------------------------------------------------------

/** Where the events point and what language their words are in. */
export interface CalendarSite {
  /** The app's public address, without a trailing slash. */
  appUrl: string;
  language: Language;
}

/** One occurrence of a jail, as the reservation object gives it. */
export interface JailOccurrence {
  id: number;
  startTime: number;
  endTime: number;
  work: string;
  timeZone: string;
}

/** What a calendar calls a jail: its work, or "Jail" when none was written. */
export function jailTitle(work: string, language: Language): string {
  return work.trim() === '' ? message(language, 'calendar_untitled_jail') : work;
}

/** The page of an occurrence: its detail before, its report after. */
export function jailUrl(site: CalendarSite, id: number): string {
  return `${site.appUrl}/reservation/${id}`;
}

/** A UID unique to this Warden: `reservation-12@warden.example`. */
export function jailUid(site: CalendarSite, kind: 'reservation' | 'series', id: number): string {
  return `${kind}-${id}@${new URL(site.appUrl).hostname}`;
}

/** One occurrence as an event of its own. */
export function singleJailEvent(occurrence: JailOccurrence, site: CalendarSite): CalendarEvent {
  return {
    uid: jailUid(site, 'reservation', occurrence.id),
    start: occurrence.startTime,
    durationMinutes: Math.round((occurrence.endTime - occurrence.startTime) / MINUTE_MS),
    summary: jailTitle(occurrence.work, site.language),
    url: jailUrl(site, occurrence.id),
    timeZone: occurrence.timeZone,
    repeat: null,
    exceptions: [],
    overrides: [],
    // A calendar reminds when the jail can be entered.
    alarmMinutes: JAIL_ENTRY_LEAD_MINUTES,
  };
}

/** The calendar's options for a guest in `timeZone`. */
export function jailCalendarOptions(site: CalendarSite, timeZone: string, now: number): CalendarOptions {
  return { name: message(site.language, 'calendar_name'), timeZone, now };
}

/** A pause of the repeats (docs/rules.md, Pauses) as an all-day event over the local days it touches in `timeZone`. */
export function pauseDayEvent(pause: { id: number; fromTime: number; toTime: number }, site: CalendarSite, timeZone: string): CalendarDayEvent {
  const resume = toLocal(pause.toTime, timeZone);
  // A pause ended early resumes within a day: that day is still shown as paused.
  return {
    uid: `pause-${pause.id}@${new URL(site.appUrl).hostname}`,
    firstDay: toLocal(pause.fromTime, timeZone),
    dayAfter: resume.minutes === 0 ? resume : addDays(resume, 1),
    summary: message(site.language, 'calendar_paused'),
    url: `${site.appUrl}/reservations`,
  };
}

import { eq } from 'drizzle-orm';
import {
  type CalendarEvent,
  type CalendarSite,
  calendarText,
  jailCalendarOptions,
  jailTitle,
  jailUid,
  jailUrl,
  pauseDayEvent,
  singleJailEvent,
} from '../../shared/calendar.ts';
import { holdingPause, nextOccurrenceStart, occurrenceStarts, type PauseSpan } from '../../shared/reservations.ts';
import type { Database } from '../db/database.ts';
import { guests, type GuestRow, type PauseRow, type ReservationRow } from '../db/schema/index.ts';
import { hashToken } from '../lib/secrets.ts';
import { newHintedToken } from './triggers/webhook-token.ts';
import { guestTimeZone, pausesEndingAfter, readGuestRowsSince } from './reservations.ts';
import { DAY_MS } from '../../shared/durations.ts';

/**
 * The guest's calendar feed (docs/calendar.md): every jail of the last
 * `CALENDAR_HISTORY_DAYS` days and every one to come, a repeating booking as
 * one series (RRULE) with its skipped occurrences as exceptions (EXDATE) and
 * its past occurrences as overrides that point to their own reports.
 *
 * A pause (docs/rules.md, Pauses) shows twice: each occurrence it holds is
 * an exception (EXDATE), so the jails are gone from the days, as every
 * calendar app honours; and the pause itself is one all-day event
 * ("Warden: repeats paused") over its days, which Google, Apple and Outlook
 * show in the all-day row, so the gap is explained and not taken for a lost
 * feed. It is free time (TRANSP), not busy.
 */

/** How far back the feed reaches: enough to look back on, small enough for a guest of years. */
export const CALENDAR_HISTORY_DAYS = 90;

/** Whether two occurrences repeat alike: the same rule, the same length. */
function sameRule(a: ReservationRow, b: ReservationRow): boolean {
  return (
    a.repeatType === b.repeatType &&
    a.timeZone === b.timeZone &&
    a.wallClockMinutes === b.wallClockMinutes &&
    a.durationMinutes === b.durationMinutes &&
    a.dailyRepeatSettings.length === b.dailyRepeatSettings.length &&
    a.dailyRepeatSettings.every((day) => b.dailyRepeatSettings.includes(day))
  );
}

/**
 * The occurrences of one series that the current one's rule produces
 * without a gap, oldest first, ending with the current one: they are what
 * one RRULE can stand for. An edit that moved the time or the days starts
 * a new run; what came before it stays as events of their own.
 */
function currentRun(series: readonly ReservationRow[], current: ReservationRow): ReservationRow[] {
  const run = [current];
  for (let index = series.indexOf(current) - 1; index >= 0; index -= 1) {
    const earlier = series[index];
    const later = run[0];
    if (earlier === undefined || later === undefined) break;
    if (!sameRule(earlier, current) || nextOccurrenceStart(earlier, earlier.startTime) !== later.startTime) break;
    run.unshift(earlier);
  }
  return run;
}

/** Whether a past occurrence did not happen: skipped, or held by a pause. */
function didNotHappen(row: ReservationRow): boolean {
  return row.finishReason === 'skipped' || row.finishReason === 'paused';
}

/** The starts of the current occurrence and the ones after it that `pauses` hold. */
function heldStarts(current: ReservationRow, pauses: readonly PauseSpan[]): number[] {
  const until = Math.max(current.startTime, ...pauses.map((pause) => pause.toTime));
  const slot = { startTime: current.startTime, duration: current.durationMinutes / 60, rule: current };
  return occurrenceStarts(slot, until).filter((startTime) => holdingPause({ repeatType: current.repeatType, startTime }, pauses) !== null);
}

function seriesEvent(
  run: readonly ReservationRow[],
  current: ReservationRow,
  seriesId: number,
  site: CalendarSite,
  pauses: readonly PauseSpan[],
): CalendarEvent {
  const first = run[0] ?? current;
  return {
    ...singleJailEvent(current, site),
    uid: jailUid(site, 'series', seriesId),
    start: first.startTime,
    repeat: current.repeatType === 'weekly' ? { kind: 'weekly' } : { kind: 'weekdays', weekdays: current.dailyRepeatSettings },
    exceptions: [...run.filter(didNotHappen).map((row) => row.startTime), ...heldStarts(current, pauses)],
    // Each past occurrence keeps its own work and its own report.
    overrides: run
      .filter((row) => row !== current && !didNotHappen(row))
      .map((row) => ({ start: row.startTime, summary: jailTitle(row.work, site.language), url: jailUrl(site, row.id) })),
  };
}

/** The events of the guest's rows (oldest first): a series for each repeating booking to come, single events for the rest. */
export function calendarEvents(rows: readonly ReservationRow[], site: CalendarSite, pauses: readonly PauseSpan[]): CalendarEvent[] {
  const bySeries = new Map<number, ReservationRow[]>();
  for (const row of rows) {
    const seriesId = row.seriesId ?? row.id;
    bySeries.set(seriesId, [...(bySeries.get(seriesId) ?? []), row]);
  }
  const events: CalendarEvent[] = [];
  for (const [seriesId, series] of bySeries) {
    const current = series.find((row) => row.finishReason === null && row.repeatType !== 'none');
    const run = current === undefined ? [] : currentRun(series, current);
    for (const row of series) {
      // An occurrence that did not happen, outside a series, is simply not there.
      if (!run.includes(row) && !didNotHappen(row)) events.push(singleJailEvent(row, site));
    }
    if (current !== undefined) events.push(seriesEvent(run, current, seriesId, site, pauses));
  }
  return events;
}

/** The feed's text for `guest` at `now`. */
export async function guestCalendar(db: Database, guest: GuestRow, appUrl: string, now: number): Promise<string> {
  const since = now - CALENDAR_HISTORY_DAYS * DAY_MS;
  const rows = await readGuestRowsSince(db, guest.id, since, now);
  const pauses: PauseRow[] = await pausesEndingAfter(db, guest.id, since);
  const site = { appUrl, language: guest.language };
  const timeZone = guestTimeZone(guest);
  return calendarText(
    calendarEvents(rows, site, pauses),
    jailCalendarOptions(site, timeZone, now),
    pauses.map((pause) => pauseDayEvent(pause, site, timeZone)),
  );
}

/** Gives the guest a new feed address (the old one stops working) and returns its token: the only time it is readable. */
export async function regenerateCalendarFeed(db: Database, guestId: number, now: number): Promise<{ token: string; hint: string }> {
  const { token, hash, hint } = newHintedToken();
  await db.update(guests).set({ calendarFeedToken: hash, calendarFeedTokenHint: hint, updatedAt: now }).where(eq(guests.id, guestId));
  return { token, hint };
}

/** Turns the feed off: its address stops working. */
export async function removeCalendarFeed(db: Database, guestId: number, now: number): Promise<void> {
  await db.update(guests).set({ calendarFeedToken: null, calendarFeedTokenHint: null, updatedAt: now }).where(eq(guests.id, guestId));
}

/** The guest whose feed token this is, or null. */
export async function guestOfCalendarToken(db: Database, token: string): Promise<GuestRow | null> {
  const [guest] = await db
    .select()
    .from(guests)
    .where(eq(guests.calendarFeedToken, hashToken(token)));
  return guest ?? null;
}

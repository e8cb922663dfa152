import { and, asc, eq, getTableColumns, gt, gte, isNull, lte, or, sql } from 'drizzle-orm';
import type { ActivityLog, JailSummary, Reservation } from '../../shared/api/reservation.ts';
import type { Language } from '../../shared/constants.ts';
import { type JailTimes, jailFigures } from '../../shared/focused-time.ts';
import { PLANS } from '../../shared/plans.ts';
import {
  bookingBlock,
  bookingProblem,
  exceedsAllowance,
  firstOverlap,
  holdingPause,
  isChangeAllowed,
  isOfferedDuration,
  isSameBooking,
  isSkipAllowed,
  jailEntryOpensAt,
  monthlyHoursWith,
  nextOccurrenceStart,
  normalizedBooking,
  repeatRuleOf,
  reservationStatus,
  rollForward,
  type BookedSlot,
  type BookingRequest,
  type FinishReason,
  type RepeatRule,
} from '../../shared/reservations.ts';
import { formatDateTime, formatMonth, timeZoneOfBrowserOffset } from '../../shared/time-zone.ts';
import type { Database } from '../db/database.ts';
import { activityLogs, guests, jailAlerts, jails, pauses, reservations, type GuestRow, type PauseRow, type ReservationRow } from '../db/schema/index.ts';
import { ApiFailure } from '../lib/api.ts';
import { heldUntil, isHeld } from './pause-sql.ts';

/**
 * Reading and keeping a guest's reservations. Every query filters by the
 * guest's id. Occurrences of a repeating booking roll forward lazily: any
 * read first finishes the occurrences whose end has passed and adds the
 * next one, as the scheduler will at the end time.
 */

const MINUTES_PER_HOUR = 60;

/** The zone the guest's calendar rules run in. */
export function guestTimeZone(guest: GuestRow): string {
  return timeZoneOfBrowserOffset(guest.timezone);
}

/** The booking fields of a row, as the form would send them. */
function bookingOf(row: ReservationRow): BookingRequest {
  return {
    work: row.work,
    duration: row.durationMinutes / MINUTES_PER_HOUR,
    startTime: row.startTime,
    repeatType: row.repeatType,
    dailyRepeatSettings: row.dailyRepeatSettings,
    schedules: row.schedules,
  };
}

/** The rule by which a row's booking repeats. */
function repeatRuleOfRow(row: ReservationRow): RepeatRule {
  return {
    repeatType: row.repeatType,
    dailyRepeatSettings: row.dailyRepeatSettings,
    timeZone: row.timeZone,
    wallClockMinutes: row.wallClockMinutes,
  };
}

/** A row's slot: an unfinished row repeats by its rule; a finished one is one past occurrence. */
function slotOf(row: ReservationRow): BookedSlot {
  return {
    startTime: row.startTime,
    duration: row.durationMinutes / MINUTES_PER_HOUR,
    rule: row.finishReason === null ? repeatRuleOfRow(row) : null,
  };
}

/** What every occurrence of a booking shares: the booking's fields and its wall-clock anchor. */
type BookingSource = Omit<ReservationRow, 'id' | 'startTime' | 'endTime' | 'finishReason' | 'createdAt' | 'updatedAt'>;

/** The columns of the occurrence of `source` that starts at `startTime`. */
export function occurrenceRow(source: BookingSource, startTime: number, finishReason: FinishReason | null, now: number) {
  return {
    guestId: source.guestId,
    work: source.work,
    startTime,
    endTime: startTime + source.durationMinutes * 60_000,
    durationMinutes: source.durationMinutes,
    repeatType: source.repeatType,
    dailyRepeatSettings: source.dailyRepeatSettings,
    schedules: source.schedules,
    timeZone: source.timeZone,
    wallClockMinutes: source.wallClockMinutes,
    isTrial: source.isTrial,
    seriesId: source.seriesId,
    finishReason,
    createdAt: now,
    updatedAt: now,
  };
}

/** What a guest in `timeZone` books, anchored to the wall clock of its start there. */
export function bookingSource(guestId: number, booking: BookingRequest, timeZone: string): BookingSource {
  return {
    guestId,
    work: booking.work,
    durationMinutes: Math.round(booking.duration * MINUTES_PER_HOUR),
    repeatType: booking.repeatType,
    dailyRepeatSettings: [...booking.dailyRepeatSettings],
    schedules: [...booking.schedules],
    timeZone,
    wallClockMinutes: repeatRuleOf(booking, timeZone).wallClockMinutes,
    isTrial: false,
    seriesId: null,
  };
}

/** A row as the source of the occurrences after it: they belong to its series. */
function nextInSeries(row: ReservationRow): BookingSource {
  return { ...row, seriesId: row.seriesId ?? row.id };
}

/** The guest's pauses that end after `since`, earliest first: those that may hold an occurrence starting from then on. */
export function pausesEndingAfter(db: Database, guestId: number, since: number): Promise<PauseRow[]> {
  return db
    .select()
    .from(pauses)
    .where(and(eq(pauses.guestId, guestId), gt(pauses.toTime, since)))
    .orderBy(asc(pauses.fromTime));
}

function needsRolling(row: ReservationRow, now: number): boolean {
  return row.finishReason === null && row.endTime <= now;
}

/**
 * Finishes `row`'s occurrence and every later one that has also ended by
 * `now`, and adds the current or next occurrence of a repeating booking.
 * The row is claimed by a conditional update, so when two requests roll the
 * same row only one adds its successors.
 */
async function rollRow(db: Database, row: ReservationRow, now: number): Promise<void> {
  await db.transaction(async (tx) => {
    // An occurrence a pause held never ran: it finishes as paused, not as ended (and so is never taken as ignored).
    const held = await pausesEndingAfter(tx, row.guestId, row.startTime);
    const finishOf = (startTime: number): FinishReason => (holdingPause({ repeatType: row.repeatType, startTime }, held) === null ? 'ended' : 'paused');
    const [claimed] = await tx
      .update(reservations)
      .set({ finishReason: finishOf(row.startTime), updatedAt: now })
      .where(and(eq(reservations.id, row.id), isNull(reservations.finishReason)))
      .returning();
    if (claimed === undefined) return;
    const { endedStarts, currentStart } = rollForward(slotOf(row), now);
    const successors = endedStarts.slice(1).map((start) => occurrenceRow(nextInSeries(claimed), start, finishOf(start), now));
    if (currentStart !== null) successors.push(occurrenceRow(nextInSeries(claimed), currentStart, null, now));
    if (successors.length > 0) await tx.insert(reservations).values(successors);
  });
}

/**
 * Finishes the occurrence of reservation `id` whose jail has just finished,
 * early or at its end, and adds the next occurrence of a repeating booking
 * (the same claim as a read's roll-forward: whichever comes first does it).
 */
export async function finishOccurrence(db: Database, id: number, now: number): Promise<void> {
  const [row] = await db.select().from(reservations).where(eq(reservations.id, id));
  // Rolled as at its end: an early finish must not bring back the same occurrence as the next one.
  if (row !== undefined) await rollRow(db, row, Math.max(now, row.endTime));
}

/**
 * Finishes, as paused, every occurrence a pause held whose end has come,
 * and adds the next ones (the scheduler's share: a held occurrence has no
 * jail whose finish would roll it, and the repeats must resume whether or
 * not the guest reads the list).
 */
export async function finishHeldOccurrences(db: Database, now: number): Promise<void> {
  const ended = await db
    .select()
    .from(reservations)
    .where(and(isNull(reservations.finishReason), lte(reservations.endTime, now), isHeld));
  for (const row of ended) await rollRow(db, row, now);
}

/** Rolls forward every occurrence of the guest that has ended by `now`. */
async function rollForwardEnded(db: Database, guestId: number, now: number): Promise<void> {
  const ended = await db
    .select()
    .from(reservations)
    .where(and(eq(reservations.guestId, guestId), isNull(reservations.finishReason), lte(reservations.endTime, now)));
  for (const row of ended) await rollRow(db, row, now);
}

/** What a finished jail's row gives its report (docs/rules.md, Focused time). */
interface FinishedJail extends JailTimes {
  finishedAt: number;
  finish: JailSummary['finish'];
  patrolCount: number;
  alerts: number;
}

/**
 * A row with its activity logs, oldest first, its finished jail (null:
 * none) and when the pause that holds it ends (null: none holds it), read
 * in the same query.
 */
export type ReservationWithLogs = ReservationRow & {
  activityLogs: ActivityLog[];
  logsSettleAt: number | null;
  finishedJail: FinishedJail | null;
  pausedUntil: number | null;
};

/**
 * The reservation's id as the subquery below must name it. Drizzle writes
 * the columns of a one-table select without their table, and inside the
 * subquery a bare "id" would be the log's.
 */
const outerReservationId = sql`${reservations}.${sql.identifier(reservations.id.name)}`;

const withLogs = {
  ...getTableColumns(reservations),
  activityLogs: sql<ActivityLog[]>`coalesce((
    select json_agg(${activityLogs.entry} order by ${activityLogs.time}, ${activityLogs.id})
    from ${activityLogs} where ${activityLogs.reservationId} = ${outerReservationId}
  ), '[]'::json)`,
  /** Until when the report may still grow: forever while the jail is live, null without a jail (docs/jail.md, The report). */
  logsSettleAt: sql<number | null>`(
    select case when ${jails.state} = 'live' then ${Number.MAX_SAFE_INTEGER}::float8 else ${jails.logsSettleAt}::float8 end
    from ${jails} where ${jails.reservationId} = ${outerReservationId}
  )`.mapWith(Number),
  finishedJail: sql<FinishedJail | null>`(
    select json_build_object(
      'startTime', ${jails.startTime}, 'endTime', ${jails.endTime}, 'enteredAt', ${jails.enteredAt},
      'jailStatus', ${jails.jailStatus}, 'statusSince', ${jails.statusSince}, 'breakMs', ${jails.breakMs}, 'awayMs', ${jails.awayMs},
      'finishedAt', ${jails.finishedAt}, 'finish', ${jails.finish}, 'patrolCount', ${jails.patrolCount},
      'alerts', (select count(*) from ${jailAlerts} where ${jailAlerts.reservationId} = ${outerReservationId})
    )
    from ${jails} where ${jails.reservationId} = ${outerReservationId} and ${jails.state} = 'finished'
  )`,
  pausedUntil: heldUntil,
};

/** A finished jail's figures for its report: the held and focused time by the one rule (src/shared/focused-time.ts). */
function jailSummary(jail: FinishedJail): JailSummary {
  return {
    plannedMs: jail.endTime - jail.startTime,
    ...jailFigures(jail, jail.finishedAt),
    alerts: Number(jail.alerts),
    patrols: jail.patrolCount,
    enteredAt: jail.enteredAt,
    finishedAt: jail.finishedAt,
    finish: jail.finish,
  };
}

/**
 * Reads rows with `read`; if any has ended unfinished, rolls the guest
 * forward to `now` and reads again (`rolled`).
 */
async function readRolledForwardReporting<Row extends ReservationRow>(
  db: Database,
  guestId: number,
  now: number,
  read: () => Promise<Row[]>,
): Promise<{ rows: Row[]; rolled: boolean }> {
  const rows = await read();
  if (!rows.some((row) => needsRolling(row, now))) return { rows, rolled: false };
  await rollForwardEnded(db, guestId, now);
  return { rows: await read(), rolled: true };
}

/** Reads rows with `read`; if any has ended unfinished, rolls the guest forward to `now` and reads again. */
async function readRolledForward<Row extends ReservationRow>(db: Database, guestId: number, now: number, read: () => Promise<Row[]>): Promise<Row[]> {
  return (await readRolledForwardReporting(db, guestId, now, read)).rows;
}

const oldestFirst = [asc(reservations.startTime), asc(reservations.id)];

/** The guest's rows, oldest first, rolled forward to `now`. */
function guestRows(db: Database, guestId: number, now: number): Promise<ReservationRow[]> {
  return readRolledForward(db, guestId, now, () =>
    db
      .select()
      .from(reservations)
      .where(eq(reservations.guestId, guestId))
      .orderBy(...oldestFirst),
  );
}

/**
 * The guest's booked jails (not try-anyway ones) that start from `since` on
 * or are still to come, oldest first, rolled forward to `now`: what the
 * calendar feed shows.
 */
export function readGuestRowsSince(db: Database, guestId: number, since: number, now: number): Promise<ReservationRow[]> {
  return readRolledForward(db, guestId, now, () =>
    db
      .select()
      .from(reservations)
      .where(and(eq(reservations.guestId, guestId), eq(reservations.isTrial, false), or(isNull(reservations.finishReason), gte(reservations.startTime, since))))
      .orderBy(...oldestFirst),
  );
}

/** The guest's row with this id and its logs, rolled forward to `now`; another guest's id fails as an unknown one does. */
export async function ownRow(db: Database, guestId: number, id: number, now: number): Promise<ReservationWithLogs> {
  const [row] = await readRolledForward(db, guestId, now, () =>
    db
      .select(withLogs)
      .from(reservations)
      .where(and(eq(reservations.id, id), eq(reservations.guestId, guestId))),
  );
  if (row === undefined) throw new ApiFailure('reservation_not_found');
  return row;
}

/** A row as the API gives it (docs/api.md, The reservation object). */
export function toReservation(row: ReservationWithLogs, now: number): Reservation {
  return {
    id: row.id,
    work: row.work,
    startTime: row.startTime,
    endTime: row.endTime,
    duration: row.durationMinutes / MINUTES_PER_HOUR,
    isFinished: row.finishReason !== null,
    repeatType: row.repeatType,
    dailyRepeatSettings: row.dailyRepeatSettings,
    schedules: row.schedules,
    activityLogs: row.activityLogs,
    logsPending: row.logsSettleAt !== null && now < row.logsSettleAt,
    jail: row.finishedJail === null ? null : jailSummary(row.finishedJail),
    status: reservationStatus(row, now),
    pausedUntil: row.finishReason === null ? row.pausedUntil : null,
  };
}

function readListRows(db: Database, guestId: number): Promise<ReservationWithLogs[]> {
  return db
    .select(withLogs)
    .from(reservations)
    .where(eq(reservations.guestId, guestId))
    .orderBy(...oldestFirst);
}

/**
 * The first time after `now` at which the list read at `now` changes by
 * itself: an unfinished occurrence's jail entry opens (status 'ready') or
 * it ends (status 'finished', and the next read rolls it forward). Infinity
 * when nothing is unfinished.
 */
export function listChangesAt(rows: readonly ReservationWithLogs[], now: number): number {
  let changesAt = Number.POSITIVE_INFINITY;
  for (const row of rows) {
    // A jail under way, or one whose report may still grow, writes logs
    // without an /api call: its list is read afresh each time.
    if (row.logsSettleAt !== null && now < row.logsSettleAt) return now;
    if (row.finishReason !== null) continue;
    const opensAt = jailEntryOpensAt(row.startTime);
    changesAt = Math.min(changesAt, now < opensAt ? opensAt : row.endTime);
  }
  return changesAt;
}

/**
 * Every reservation of the guest, with its activity logs, oldest first, in
 * one query; for the read cache, with `cacheUntil`, the time until
 * which the answer holds unless something writes, or null when this read
 * rolled occurrences forward (it wrote: its answer is not cached).
 */
export async function reservationListForCache(db: Database, guestId: number, now: number): Promise<{ reservations: Reservation[]; cacheUntil: number | null }> {
  const { rows, rolled } = await readRolledForwardReporting(db, guestId, now, () => readListRows(db, guestId));
  return { reservations: rows.map((row) => toReservation(row, now)), cacheUntil: rolled ? null : listChangesAt(rows, now) };
}

/**
 * Runs `change` in a transaction that holds the guest's row, so that two
 * changes of one guest (two bookings checked for overlap at once) run one
 * after the other.
 */
export async function changeAsGuest<Result>(db: Database, guestId: number, change: (tx: Database) => Promise<Result>): Promise<Result> {
  return db.transaction(async (tx) => {
    await tx.select({ id: guests.id }).from(guests).where(eq(guests.id, guestId)).for('update');
    return change(tx);
  });
}

/**
 * The gates before a new booking (docs/api.md, `/reservation/create`): a verified e-mail, a phone
 * number (unless `requirePhone` is false: a try-anyway jail), a plan that has
 * not run out, no suspension and no session ended early whose time is not over.
 */
function assertMayBook(guest: GuestRow, now: number, language: Language, requirePhone = true): void {
  const timeZone = guestTimeZone(guest);
  const block = bookingBlock(guest, now);
  if (block?.reason === 'unverified') throw new ApiFailure('unverified');
  if (requirePhone && guest.phone === null) throw new ApiFailure('phone_required');
  if (block === null) return;
  // Read on the guest's own device, whose clock shows the guest's zone: the zone goes unsaid.
  if (block.reason === 'suspended') throw new ApiFailure('suspended', { resumeDateTime: formatDateTime(block.until, timeZone, language, timeZone) });
  if (block.reason === 'early_finish_blocked')
    throw new ApiFailure('early_finish_blocked', { endDateTime: formatDateTime(block.until, timeZone, language, timeZone) });
  throw new ApiFailure(block.reason);
}

/** Fails when a booking of `candidate` overlaps an unfinished reservation of `others`. */
function assertNoOverlap(guest: GuestRow, candidate: BookedSlot, others: readonly ReservationRow[], language: Language): void {
  const timeZone = guestTimeZone(guest);
  const overlap = firstOverlap(candidate, others.filter((row) => row.finishReason === null).map(slotOf));
  if (overlap !== null) {
    throw new ApiFailure('reservation_overlap', { dateTime: formatDateTime(overlap.occurrenceStart, timeZone, language, timeZone) });
  }
}

/**
 * Fails when `booking` overlaps an unfinished reservation of `others`, or,
 * on the light plan, would take the month it starts in over 15 hours
 * (counting the month's past occurrences and every occurrence to come;
 * try-anyway jails do not count).
 */
function assertFits(guest: GuestRow, booking: BookingRequest, others: readonly ReservationRow[], language: Language): void {
  const timeZone = guestTimeZone(guest);
  const candidate: BookedSlot = { startTime: booking.startTime, duration: booking.duration, rule: repeatRuleOf(booking, timeZone) };
  assertNoOverlap(guest, candidate, others, language);
  if (guest.subscriptionPlan !== PLANS.light.code) return;
  const counted = others.filter((row) => row.finishReason !== 'skipped' && !row.isTrial).map(slotOf);
  const hours = monthlyHoursWith(candidate, counted, timeZone, PLANS.light.monthlyHours);
  if (exceedsAllowance(hours)) {
    throw new ApiFailure('light_plan_limit', {
      allowedHours: hours.allowedHours,
      month: formatMonth(hours.month, language),
      remainingHours: Math.max(0, hours.allowedHours - hours.bookedHours),
      requestedHours: hours.candidateHours,
    });
  }
}

/**
 * Fails when a try-anyway jail of `durationHours` from `startTime` cannot
 * run now: one is already under way (one at a time), or it overlaps a
 * reservation to come. It counts against no plan.
 */
function assertMayTry(guest: GuestRow, startTime: number, durationHours: number, others: readonly ReservationRow[], language: Language): void {
  if (others.some((row) => row.isTrial && row.finishReason === null)) throw new ApiFailure('try_under_way');
  assertNoOverlap(guest, { startTime, duration: durationHours, rule: null }, others, language);
}

/**
 * Books a jail for `guest` under every booking rule (docs/api.md): the
 * guest may book, the form (as sent) is valid, and it fits among the guest's
 * jails (no overlap, the light plan's hours). `/reservation/create` and the
 * incoming webhook both book through here. Fails with an `ApiFailure`.
 */
export async function bookReservation(db: Database, guest: GuestRow, form: BookingRequest, now: number, language: Language): Promise<ReservationRow> {
  assertMayBook(guest, now, language);
  const timeZone = guestTimeZone(guest);
  assertValid(form, now, timeZone);
  const booking = normalizedBooking(form);
  return changeAsGuest(db, guest.id, async (tx) => {
    assertFits(guest, booking, await guestRows(tx, guest.id, now), language);
    const [row] = await tx
      .insert(reservations)
      .values(occurrenceRow(bookingSource(guest.id, booking, timeZone), booking.startTime, null, now))
      .returning();
    if (row === undefined) throw new Error('insert returned no reservation');
    return row;
  });
}

/** Fails with the message of the first booking rule (docs/api.md) the form, as sent, breaks. */
function assertValid(booking: BookingRequest, now: number, timeZone: string): void {
  const problem = bookingProblem(booking, now, timeZone);
  if (problem !== null) throw new ApiFailure(problem);
}

/** Update, skip and destroy act only on an occurrence to come, more than 6 hours ahead. */
function assertChangeable(row: ReservationRow, now: number): void {
  if (row.finishReason !== null) throw new ApiFailure('reservation_finished');
  if (!isChangeAllowed(row.startTime, now)) throw new ApiFailure('no_change_within_6_hours');
}

/**
 * Books a try-anyway jail (docs/try-anyway.md) for `guest`: of the work and
 * duration, starting now (to the second), without repeat or schedule, marked
 * a trial. The gates of a booking apply but the phone number: a new guest
 * may try. Fails with an `ApiFailure`.
 */
export async function bookTrial(
  db: Database,
  guest: GuestRow,
  { work, duration }: { work: string; duration: number },
  now: number,
  language: Language,
): Promise<ReservationRow> {
  assertMayBook(guest, now, language, false);
  if (!isOfferedDuration(duration)) throw new ApiFailure('duration_not_offered');
  const timeZone = guestTimeZone(guest);
  const booking = normalizedBooking({ work, duration, startTime: now - (now % 1000), repeatType: 'none', dailyRepeatSettings: [], schedules: [] });
  return changeAsGuest(db, guest.id, async (tx) => {
    assertMayTry(guest, booking.startTime, booking.duration, await guestRows(tx, guest.id, now), language);
    const [row] = await tx
      .insert(reservations)
      .values(occurrenceRow({ ...bookingSource(guest.id, booking, timeZone), isTrial: true }, booking.startTime, null, now))
      .returning();
    if (row === undefined) throw new Error('insert returned no reservation');
    return row;
  });
}

/**
 * Changes the guest's reservation `id` by the fields of `changes` (those
 * left out stay). The same booking again changes nothing; otherwise the
 * occurrence must be to come, more than 6 hours ahead, and the changed
 * booking is checked as a new one (docs/api.md, The booking rules). Fails with an `ApiFailure`.
 */
export async function changeReservation(
  db: Database,
  guest: GuestRow,
  id: number,
  changes: Partial<BookingRequest>,
  now: number,
  language: Language,
): Promise<ReservationWithLogs> {
  const timeZone = guestTimeZone(guest);
  return changeAsGuest(db, guest.id, async (tx) => {
    const row = await ownRow(tx, guest.id, id, now);
    const current = bookingOf(row);
    const changed: BookingRequest = {
      work: changes.work ?? current.work,
      duration: changes.duration ?? current.duration,
      startTime: changes.startTime ?? current.startTime,
      repeatType: changes.repeatType ?? current.repeatType,
      dailyRepeatSettings: changes.dailyRepeatSettings ?? current.dailyRepeatSettings,
      schedules: changes.schedules ?? current.schedules,
    };
    if (isSameBooking(changed, current)) return row;
    assertChangeable(row, now);
    assertValid(changed, now, timeZone);
    const booking = normalizedBooking(changed);
    const others = (await guestRows(tx, guest.id, now)).filter((other) => other.id !== row.id);
    assertFits(guest, booking, others, language);
    const [saved] = await tx
      .update(reservations)
      .set({
        ...occurrenceRow(bookingSource(guest.id, booking, timeZone), booking.startTime, null, now),
        seriesId: row.seriesId,
        createdAt: row.createdAt,
      })
      .where(and(eq(reservations.id, row.id), eq(reservations.guestId, guest.id)))
      .returning();
    if (saved === undefined) throw new Error('update returned no reservation');
    // Read again: the new start may fall in a pause.
    return ownRow(tx, guest.id, saved.id, now);
  });
}

/**
 * Skips the guest's occurrence `id` of a repeating booking: it finishes as
 * skipped and the next occurrence is added. Only an occurrence to come, more
 * than 6 hours ahead. Fails with an `ApiFailure`.
 */
export async function skipOccurrence(
  db: Database,
  guestId: number,
  id: number,
  now: number,
): Promise<{ skipped: ReservationWithLogs; next: ReservationWithLogs }> {
  return changeAsGuest(db, guestId, async (tx) => {
    const row = await ownRow(tx, guestId, id, now);
    if (row.finishReason !== null) throw new ApiFailure('reservation_finished');
    if (row.repeatType === 'none') throw new ApiFailure('skip_not_repeating');
    if (!isSkipAllowed(row, now)) throw new ApiFailure('no_change_within_6_hours');
    const nextStart = nextOccurrenceStart(repeatRuleOfRow(row), row.startTime);
    if (nextStart === null) throw new Error(`repeating reservation ${row.id} has no next occurrence`);
    const [skippedRow] = await tx
      .update(reservations)
      .set({ finishReason: 'skipped', updatedAt: now })
      .where(and(eq(reservations.id, row.id), eq(reservations.guestId, guestId)))
      .returning();
    const [nextRow] = await tx
      .insert(reservations)
      .values(occurrenceRow(nextInSeries(row), nextStart, null, now))
      .returning();
    if (skippedRow === undefined || nextRow === undefined) throw new Error('skip wrote no reservation');
    return {
      skipped: { ...skippedRow, activityLogs: row.activityLogs, logsSettleAt: row.logsSettleAt, finishedJail: row.finishedJail, pausedUntil: null },
      // Read again: the next occurrence may fall in a pause.
      next: await ownRow(tx, guestId, nextRow.id, now),
    };
  });
}

/**
 * Deletes the guest's reservation `id` and answers it as it was. Only an
 * occurrence to come, more than 6 hours ahead. Fails with an `ApiFailure`.
 */
export async function destroyReservation(db: Database, guestId: number, id: number, now: number): Promise<ReservationWithLogs> {
  return changeAsGuest(db, guestId, async (tx) => {
    const row = await ownRow(tx, guestId, id, now);
    assertChangeable(row, now);
    await tx.delete(reservations).where(and(eq(reservations.id, row.id), eq(reservations.guestId, guestId)));
    return row;
  });
}

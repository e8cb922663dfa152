/**
 * How reservations are shown (docs/api.md, The reservation object): the list's split into future
 * and history, the time state of each item and its colouring, what the
 * detail page offers, the report's state, and the guest's banners (trial,
 * lazy alerts, suspension). Pure: every function takes `now`.
 */
import { PATROL_MAX_LOGS_PER_SESSION } from '../../../shared/constants.ts';
import { eventsInWindow, IGNORED_JAILS_SUSPENSION, isSuspended, suspensionEnd } from '../../../shared/penalties.ts';
import { PLANS, TRIAL_DAY_MS } from '../../../shared/plans.ts';
import { isChangeAllowed, isSkipAllowed, timeStateOf, type TimeState } from '../../../shared/reservations.ts';
import type { Reservation } from '../../../shared/api/reservation.ts';
import type { FinishKind } from '../../../shared/jail-vocabulary.ts';

/** The time state of a reservation at `now`, by the shared rule (docs/rules.md, src/shared/reservations.ts). */
export function reservationTimeState(reservation: Pick<Reservation, 'startTime' | 'endTime' | 'isFinished'>, now: number): TimeState {
  return timeStateOf({ startTime: reservation.startTime, endTime: reservation.endTime, finishReason: reservation.isFinished ? 'ended' : null }, now);
}

/**
 * The list colouring (docs/client.md, The list): JailMode when ready and not
 * finished, ReservationMode otherwise; a ready one that has started while
 * the guest is in a jail (`inJail`: the guest's jail status is set) is the
 * live jail they can return to.
 */
export type ListMode = 'live' | 'jail' | 'reservation';

export function listMode(reservation: Pick<Reservation, 'startTime' | 'endTime' | 'isFinished'>, now: number, inJail = false): ListMode {
  if (reservationTimeState(reservation, now) !== 'ready') return 'reservation';
  return inJail && now >= reservation.startTime ? 'live' : 'jail';
}

/** The list split: future items (soonest first) and history (past or finished, latest first). */
export function splitReservations<R extends Pick<Reservation, 'startTime' | 'endTime' | 'isFinished'>>(
  reservations: readonly R[],
  now: number,
): { future: R[]; history: R[] } {
  const future: R[] = [];
  const history: R[] = [];
  for (const reservation of reservations) {
    (reservationTimeState(reservation, now) === 'over' ? history : future).push(reservation);
  }
  future.sort((a, b) => a.startTime - b.startTime);
  history.sort((a, b) => b.startTime - a.startTime);
  return { future, history };
}

/** How a jail in the history ended, as its card says it: a skipped, paused or ignored one is not "finished". */
export type HistoryOutcome = 'finished' | 'early' | 'forced' | 'warden' | 'ignored' | 'skipped' | 'paused';

export function historyOutcome(reservation: Pick<Reservation, 'status' | 'jail'>): HistoryOutcome {
  if (reservation.status === 'skipped' || reservation.status === 'paused') return reservation.status;
  // A past occurrence with no jail was never started: the guest did not come.
  if (reservation.jail === null) return 'ignored';
  return outcomeOfFinish(reservation.jail.finish);
}

/** How a finished jail ended, as the history and progress say it. */
export function outcomeOfFinish(finish: FinishKind): HistoryOutcome {
  return finish === 'ended' ? 'finished' : finish;
}

/** How soon an upcoming jail starts, for its card: minutes within the hour, hours within the day, else nothing. */
export type StartsIn = { unit: 'minutes' | 'hours'; count: number } | null;

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

export function startsIn(startTime: number, now: number): StartsIn {
  const ahead = startTime - now;
  if (ahead <= 0 || ahead >= 24 * HOUR_MS) return null;
  if (ahead < HOUR_MS) return { unit: 'minutes', count: Math.max(1, Math.ceil(ahead / MINUTE_MS)) };
  return { unit: 'hours', count: Math.floor(ahead / HOUR_MS) };
}

/** The actions the detail page offers (docs/client.md, Screens and routes), by the reservation's time state. */
export interface DetailActions {
  state: TimeState;
  /** Before the window: edit and cancel are shown, but refused within 6 hours. */
  canEdit: boolean;
  canCancel: boolean;
  /** Repeating only, more than 6 hours ahead. */
  canSkip: boolean;
  /** Whether the skip button is shown (repeating, before the window). */
  showSkip: boolean;
  /** In the window: go to prep or go live. */
  canEnterJail: boolean;
  /** After: the report. */
  showReport: boolean;
}

export function detailActions(reservation: Pick<Reservation, 'startTime' | 'endTime' | 'isFinished' | 'repeatType'>, now: number): DetailActions {
  const state = reservationTimeState(reservation, now);
  const before = state === 'upcoming';
  return {
    state,
    canEdit: before && isChangeAllowed(reservation.startTime, now),
    canCancel: before && isChangeAllowed(reservation.startTime, now),
    canSkip: before && isSkipAllowed(reservation, now),
    showSkip: before && reservation.repeatType !== 'none',
    canEnterJail: state === 'ready',
    showReport: state === 'over',
  };
}

/** The report of a session after it: waiting while logs are read, none, or the logs. */
export type ReportState = 'waiting' | 'none' | 'logs';

/**
 * A finished reservation without logs is read again from the server; while
 * that read runs, or while the server says the report may still grow
 * (`logsPending`), the report waits; then it shows 'no logs' if there still are none.
 */
export function reportState(logCount: number, isReading: boolean, logsPending: boolean): ReportState {
  if (logCount > 0) return 'logs';
  return isReading || logsPending ? 'waiting' : 'none';
}

/** How often a report that is still being written is read again. */
export const PENDING_REPORT_REREAD_MS = 5_000;

/** Whether the 'maximum patrols' note shows: exactly 30 patrol logs. */
export function isAtMaximumPatrols(logs: readonly { type: string }[]): boolean {
  return logs.filter((log) => log.type === 'patrol').length === PATROL_MAX_LOGS_PER_SESSION;
}

// --- The guest's banners -------------------------------------------------------

/** What the guest needs for the trial banner. */
export interface TrialGuest {
  subscriptionPlan: number;
  subscriptionExpiredAt: number | null;
}

/** The trial banner: null off the trial plan; else days left, or expired. */
export type TrialBanner = null | { expired: true } | { expired: false; daysLeft: number };

export function trialBanner(guest: TrialGuest, now: number): TrialBanner {
  if (guest.subscriptionPlan !== PLANS.trial.code || guest.subscriptionExpiredAt === null) return null;
  const remaining = guest.subscriptionExpiredAt - now;
  if (remaining <= 0) return { expired: true };
  return { expired: false, daysLeft: Math.floor(remaining / TRIAL_DAY_MS) };
}

/** What the guest needs for the lazy-alert warnings. */
export interface LazyGuest {
  lazyAlerts: readonly { created: number }[];
  suspendedUntil?: number | null;
}

/** One or two ignored jails warn; three within a week suspend until the oldest + 7 days. */
export type LazyAlertBanner = null | { kind: 'warning1' } | { kind: 'warning2' } | { kind: 'suspended'; resumeAt: number };

export function lazyAlertBanner(guest: LazyGuest, now: number): LazyAlertBanner {
  const suspendedUntil = guest.suspendedUntil ?? null;
  if (suspendedUntil !== null && isSuspended(suspendedUntil, now)) return { kind: 'suspended', resumeAt: suspendedUntil };
  const times = guest.lazyAlerts.map((alert) => alert.created);
  const resumeAt = suspensionEnd(IGNORED_JAILS_SUSPENSION, times, now);
  if (resumeAt !== null && isSuspended(resumeAt, now)) return { kind: 'suspended', resumeAt };
  const recent = eventsInWindow(IGNORED_JAILS_SUSPENSION, times, now);
  if (recent.length >= 2) return { kind: 'warning2' };
  if (recent.length === 1) return { kind: 'warning1' };
  return null;
}

// --- Environment ------------------------------------------------------------------

/** The add button's style: iPhone or Android (or other). */
export type Platform = 'ios' | 'android' | 'other';

export function platformOf(userAgent: string): Platform {
  if (/iPhone|iPad|iPod/.test(userAgent)) return 'ios';
  if (/Android/.test(userAgent)) return 'android';
  return 'other';
}

/** Jail needs the camera and media APIs; without them the list shows the not-available message. */
export function isSupportedEnvironment(nav: { mediaDevices?: { getUserMedia?: unknown } } | undefined): boolean {
  return typeof nav?.mediaDevices?.getUserMedia === 'function';
}

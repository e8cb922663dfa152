/**
 * The penalties (docs/rules.md): what suspends a guest's booking and for how
 * long, what blocks booking after a jail ended early, and the alerts inside a
 * jail (leaving the seat or a break for too long, and how many alerts end it).
 * The server applies them (partly in SQL, with these constants); the client
 * shows them.
 */
import { MINUTE_MS, WEEK_MS } from './durations.ts';

/** A suspension rule: `count` events within `windowMs` suspend booking until the oldest of them + `blockMs`. */
export interface SuspensionRule {
  count: number;
  windowMs: number;
  blockMs: number;
}

/** Three ignored jails (lazy alerts) within a week suspend booking until a week after the oldest. */
export const IGNORED_JAILS_SUSPENSION: SuspensionRule = { count: 3, windowMs: WEEK_MS, blockMs: WEEK_MS };

/** Three forced ends within a week suspend booking until a week after the oldest (a try-anyway jail does not count). */
export const FORCED_ENDS_SUSPENSION: SuspensionRule = { count: 3, windowMs: WEEK_MS, blockMs: WEEK_MS };

/** The events of `times` that count at `now`: those less than the rule's window old, oldest first. */
export function eventsInWindow(rule: SuspensionRule, times: readonly number[], now: number): number[] {
  return times.filter((time) => now - time < rule.windowMs).sort((a, b) => a - b);
}

/**
 * When the events of `times` suspend booking until, under `rule` at `now`:
 * the oldest of the last `count` + `blockMs`, or null when too few count.
 */
export function suspensionEnd(rule: SuspensionRule, times: readonly number[], now: number): number | null {
  const recent = eventsInWindow(rule, times, now);
  const oldest = recent[recent.length - rule.count];
  return recent.length < rule.count || oldest === undefined ? null : oldest + rule.blockMs;
}

/** Whether a suspension (`suspendedUntil`, epoch ms) still holds at `now`. */
export function isSuspended(suspendedUntil: number | null, now: number): boolean {
  return suspendedUntil !== null && now < suspendedUntil;
}

/**
 * The block an early finish sets: until the jail's original end (`jailEnd`,
 * epoch ms). Null when the block already running (`blockedUntil`) lasts at
 * least as long, since a block is never shortened.
 */
export function earlyFinishBlock(blockedUntil: number | null, jailEnd: number): number | null {
  return blockedUntil !== null && blockedUntil >= jailEnd ? null : jailEnd;
}

/** A session ended early blocks new bookings until its original end, `blockedUntil` (epoch ms). */
export function isBlockedByEarlyFinish(blockedUntil: number | null, now: number): boolean {
  return blockedUntil !== null && now < blockedUntil;
}

// --- Alerts inside a jail ----------------------------------------------------

/** How long the guest may leave the seat (5 minutes); longer raises an alert. */
export const LEAVE_SEAT_ALLOWANCE_MS = 5 * MINUTE_MS;

/** Length of a break (20 minutes); longer raises an alert. */
export const BREAK_MS = 20 * MINUTE_MS;

/** More than this many alerts ... */
export const ALERTS_BEFORE_FORCED_END = 3;

/** ... within this window (20 minutes) end the jail by force: the fourth does. */
export const ALERT_WINDOW_MS = 20 * MINUTE_MS;

/** Whether the alerts counted in the window (the new one included) end the jail by force. */
export function alertsForceEnd(alertsInWindow: number): boolean {
  return alertsInWindow > ALERTS_BEFORE_FORCED_END;
}

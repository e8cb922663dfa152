import { DEFAULT_COMMANDS, PATROL_FIRST_SCREENSHOT_DELAY_MS, PATROL_MAX_LOGS_PER_SESSION, patrolChance } from '../../../shared/constants.ts';
import { BREAK_MS, LEAVE_SEAT_ALLOWANCE_MS } from '../../../shared/penalties.ts';
import type { JailStatus } from '../../../shared/jail-vocabulary.ts';
import { MINUTE_MS } from '../../../shared/durations.ts';

/** The remaining time is displayed once this much or less is left (30 minutes). */
const REMAINING_TIME_SHOWN_BELOW_MS = 30 * MINUTE_MS;

/**
 * The rules of a live session on the guest's side (docs/jail.md, Commands; docs/rules.md): what each
 * command does to the jail status and the commands on offer, the leave and
 * break countdowns, when the remaining time shows, and when a patrol image
 * is taken. Pure functions; the screens and the store call them.
 */

/** The commands (docs/jail.md, Commands): 1 leave the seat, 2 break, 3 finish early, 4 talk, 5 back to the seat, 6 end the break. */
export type CommandId = 1 | 2 | 3 | 4 | 5 | 6;

/** What the page does besides changing the status. */
export type CommandEffect = 'none' | 'close_camera' | 'reopen_camera' | 'open_finish_form' | 'talk';

export interface CommandOutcome {
  /** The status after the command (reported to the relay when it changed). */
  status: JailStatus;
  effect: CommandEffect;
}

/** The commands on offer in a status: only 5 while leaving, only 6 on a break, else the normal ones (1-4 unless a warden set others). */
export function availableCommands(status: JailStatus, normal: readonly number[] = DEFAULT_COMMANDS): number[] {
  if (status === 'leaving') return [5];
  if (status === 'breaking') return [6];
  return [...normal];
}

/** What command `command` does in `status`; null when it is not on offer there. */
export function commandOutcome(command: CommandId, status: JailStatus, normal: readonly number[] = DEFAULT_COMMANDS): CommandOutcome | null {
  if (!availableCommands(status, normal).includes(command)) return null;
  switch (command) {
    case 1:
      return { status: 'leaving', effect: 'none' };
    case 2:
      return { status: 'breaking', effect: 'close_camera' };
    case 3:
      return { status, effect: 'open_finish_form' };
    case 4:
      return { status, effect: 'talk' };
    case 5:
      return { status: 'injail', effect: 'none' };
    case 6:
      return { status: 'injail', effect: 'reopen_camera' };
  }
}

/** The milliseconds left of a leave (5 minutes) or a break (20 minutes), never below 0; null in the jail. */
export function allowanceLeft(status: JailStatus, statusSince: number, now: number): number | null {
  if (status === 'injail') return null;
  const allowance = status === 'leaving' ? LEAVE_SEAT_ALLOWANCE_MS : BREAK_MS;
  return Math.max(0, statusSince + allowance - now);
}

/**
 * The last 30 minutes (the specification's remaining-time rule): the clock,
 * which tells the time left throughout (docs/client.md, The live screen),
 * marks them as the final stretch.
 */
export function isRemainingTimeShown(endTime: number, now: number): boolean {
  return endTime - now <= REMAINING_TIME_SHOWN_BELOW_MS;
}

/** A span as a clock shows it: m:ss under an hour (7:05, 42:10), h:mm:ss from an hour (1:02:09); never below 0:00, rounded up to the second. */
export function countdownText(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = String(seconds % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${rest}` : `${minutes}:${rest}`;
}

/**
 * The share of the jail gone by at `now`, from 0 before the start to 1 at
 * the end: what the live screen's progress ring shows, always (unlike the
 * remaining time, shown only near the end).
 */
export function elapsedShare(startTime: number, endTime: number, now: number): number {
  if (endTime <= startTime) return now >= endTime ? 1 : 0;
  return Math.min(1, Math.max(0, (now - startTime) / (endTime - startTime)));
}

/** What the patrol needs to know. */
export interface PatrolState {
  /** When the camera was set up. */
  setupAt: number;
  /** When the last patrol image was taken; null before the first. */
  lastPatrolAt: number | null;
  /** Patrol images taken in this session. */
  taken: number;
}

/**
 * Whether a patrol image is taken at this check (the page checks every
 * 10 s): the first 10 s after setup, then with chance minutes since the last
 * patrol / 90, never past 30 a session (PATROL_CHECK_INTERVAL_MS). `random` is a draw in [0, 1).
 */
export function isPatrolDue(state: PatrolState, now: number, random: number): boolean {
  if (state.taken >= PATROL_MAX_LOGS_PER_SESSION) return false;
  if (state.lastPatrolAt === null) return now - state.setupAt >= PATROL_FIRST_SCREENSHOT_DELAY_MS;
  const minutesSince = (now - state.lastPatrolAt) / 60_000;
  return random < patrolChance(minutesSince);
}

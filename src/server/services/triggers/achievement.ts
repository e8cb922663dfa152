import { asc, eq } from 'drizzle-orm';
import type { JailStatus } from '../../../shared/relay.ts';
import { BREAK_MS, LANGUAGES, LEAVE_SEAT_ALLOWANCE_MS } from '../../../shared/constants.ts';
import type { ActivityLog } from '../../../shared/api/reservation.ts';
import type { Database } from '../../db/database.ts';
import { activityLogs, type JailRow } from '../../db/schema/index.ts';
import { fillTemplate } from '../../jail/responder.ts';
import { WARDEN_LINES } from '../../jail/script.ts';

const MINUTE_MS = 60_000;

/**
 * The engine logs a status change as the Warden's answer to it (or, when
 * there is none, as an instruction naming the status): these are the
 * answers, in every language, and the status each one follows.
 */
const STATUS_OF_LINE: ReadonlyMap<string, JailStatus> = new Map(
  LANGUAGES.flatMap((language) => [
    [fillTemplate(WARDEN_LINES.status_leaving[language], { minutes: Math.floor(LEAVE_SEAT_ALLOWANCE_MS / MINUTE_MS) }), 'leaving'],
    [fillTemplate(WARDEN_LINES.status_breaking[language], { minutes: Math.floor(BREAK_MS / MINUTE_MS) }), 'breaking'],
    [WARDEN_LINES.status_back[language], 'injail'],
  ]),
);

function statusChangeOf(log: ActivityLog): JailStatus | null {
  if (log.type === 'dialog' && log.dialog.type === 1) return STATUS_OF_LINE.get(log.dialog.text) ?? null;
  if (log.type === 'instruction' && (log.instruction.text === 'injail' || log.instruction.text === 'leaving' || log.instruction.text === 'breaking')) {
    return log.instruction.text;
  }
  return null;
}

/** Milliseconds spent `breaking` between the status changes of the logs, up to `until` (later changes are ignored). */
export function breakingMs(logs: readonly ActivityLog[], until: number): number {
  let total = 0;
  let breakSince: number | null = null;
  for (const log of logs) {
    const status = statusChangeOf(log);
    if (status === null || log.time > until) continue;
    if (status === 'breaking') breakSince ??= log.time;
    else if (breakSince !== null) {
      total += Math.max(0, log.time - breakSince);
      breakSince = null;
    }
  }
  if (breakSince !== null) total += Math.max(0, until - breakSince);
  return total;
}

/**
 * The minutes achieved in a jail that finished at `finishedAt`: from the
 * guest's first entry to the end (its planned end at the latest), less the
 * time on a break. Leaving the seat
 * counts as time in the jail (it is short and watched by an overrun alert);
 * an ignored jail achieved nothing.
 */
export async function achievementMinutes(db: Database, jail: JailRow, finishedAt: number): Promise<number> {
  if (jail.enteredAt === null) return 0;
  const rows = await db.select({ entry: activityLogs.entry }).from(activityLogs).where(eq(activityLogs.reservationId, jail.reservationId)).orderBy(asc(activityLogs.time), asc(activityLogs.id));
  // The scheduler finishes a jail a moment after its end: the minutes past the end are not achieved.
  const end = Math.min(finishedAt, jail.endTime);
  const inJail = end - Math.max(jail.enteredAt, jail.startTime) - breakingMs(rows.map((row) => row.entry), end);
  return Math.max(0, Math.floor(inJail / MINUTE_MS));
}

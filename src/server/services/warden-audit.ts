import { and, desc, eq, gt, lte, type SQL } from 'drizzle-orm';
import { DAY_MS } from '../../shared/durations.ts';
import type { Database } from '../db/database.ts';
import { jails, type WARDEN_AUDIT_ACTIONS, wardenAudit, wardens } from '../db/schema/index.ts';

/**
 * The audit trail of what human wardens saw (docs/privacy.md): who opened
 * which jail and who started a live video of it, when. Written before the
 * warden gets what they asked for, so nothing is seen unrecorded; read by
 * the operator (`npm run admin -- audit`).
 */

/**
 * An entry is kept a year (the privacy page states it): a guest's question
 * or a complaint about a warden may come months after the jail, and an
 * operator looking into one needs the whole season around it.
 */
export const WARDEN_AUDIT_RETENTION_DAYS = 365;
const WARDEN_AUDIT_RETENTION_MS = WARDEN_AUDIT_RETENTION_DAYS * DAY_MS;

type AuditAction = (typeof WARDEN_AUDIT_ACTIONS)[number];

/** Records that the warden opened this jail (its logs, patrol images and alerts). */
export async function recordJailOpened(db: Database, wardenId: number, jail: { reservationId: number; guestId: number }, now: number): Promise<void> {
  await db.insert(wardenAudit).values({ wardenId, action: 'jail_opened', reservationId: jail.reservationId, guestId: jail.guestId, at: now });
}

/**
 * Records that the warden starts a live video of the guest's live jail;
 * false (nothing recorded) when the guest has none.
 */
export async function recordLiveVideoStarted(db: Database, wardenId: number, guestId: number, now: number): Promise<boolean> {
  const [live] = await db
    .select({ reservationId: jails.reservationId })
    .from(jails)
    .where(and(eq(jails.guestId, guestId), eq(jails.state, 'live')));
  if (live === undefined) return false;
  await db.insert(wardenAudit).values({ wardenId, action: 'live_video_started', reservationId: live.reservationId, guestId, at: now });
  return true;
}

/** An entry past its retention. */
export async function purgeWardenAudit(db: Database, now: number): Promise<void> {
  await db.delete(wardenAudit).where(lte(wardenAudit.at, now - WARDEN_AUDIT_RETENTION_MS));
}

/** The most lines one `audit` prints: the operator narrows the search for more. */
const AUDIT_LINES_MAX = 1_000;

const ACTION_WORDS: Record<AuditAction, string> = { jail_opened: 'opened the jail', live_video_started: 'started live video' };

/** The audit trail as the operator reads it, newest first: since `since`, of one warden or one guest if named. */
export async function auditLines(db: Database, filter: { since: number; wardenId?: number; guestId?: number }): Promise<string[]> {
  const conditions: SQL[] = [gt(wardenAudit.at, filter.since)];
  if (filter.wardenId !== undefined) conditions.push(eq(wardenAudit.wardenId, filter.wardenId));
  if (filter.guestId !== undefined) conditions.push(eq(wardenAudit.guestId, filter.guestId));
  const rows = await db
    .select({ entry: wardenAudit, title: wardens.title, email: wardens.email })
    .from(wardenAudit)
    .innerJoin(wardens, eq(wardens.id, wardenAudit.wardenId))
    .where(and(...conditions))
    .orderBy(desc(wardenAudit.at), desc(wardenAudit.id))
    .limit(AUDIT_LINES_MAX + 1);
  if (rows.length === 0) return ['no entries'];
  const lines = rows
    .slice(0, AUDIT_LINES_MAX)
    .map(
      ({ entry, title, email }) =>
        `${new Date(entry.at).toISOString()}\twarden ${entry.wardenId} ${title} <${email}>\t${ACTION_WORDS[entry.action]}\treservation ${entry.reservationId}\tguest ${entry.guestId}`,
    );
  if (rows.length > AUDIT_LINES_MAX) lines.push(`(the newest ${AUDIT_LINES_MAX} only: narrow with --days, --warden or --guest)`);
  return lines;
}

import { and, desc, eq, inArray, isNotNull, lte, ne, notExists, or, type SQL } from 'drizzle-orm';
import type { SignedInDevice } from '../../shared/api/sessions.ts';
import type { SessionLifetimes } from '../config.ts';
import type { Database } from '../db/database.ts';
import { jails, sessions, type SessionRow } from '../db/schema/index.ts';
import { ApiFailure } from '../lib/api.ts';
import { hashToken } from '../lib/secrets.ts';

/**
 * Guest sessions (docs/sessions.md): each ends after an idle time without
 * use or a lifetime after it began, whichever comes first. Use renews it:
 * `lastSeenAt` moves forward at most once per `SESSION_RENEW_MS`, so a busy
 * session costs one small write a minute. A guest in a live jail keeps the
 * session past its lifetime (the jail's alive checks keep it from going
 * idle): nobody is signed out in the middle of a jail. A facilitator's
 * session ends `FACILITATOR_SESSION_MS` after it began, jail or not.
 */

/** `lastSeenAt` is written again only when it is older than this. */
export const SESSION_RENEW_MS = 60_000;

/**
 * The whole life of a session a facilitator opened: long enough to help a
 * guest with settings and a booking, short enough that a link used on a
 * shared computer does not open the account for days.
 */
export const FACILITATOR_SESSION_MS = 4 * 3_600_000;

/**
 * Whether a session is past its idle time or its lifetime at `now` (before
 * any live-jail grace), or past a facilitator's absolute life ('facilitator',
 * which no jail extends).
 */
export function sessionLapse(session: SessionRow, now: number, lifetimes: SessionLifetimes): 'idle' | 'lifetime' | 'facilitator' | null {
  if (now - session.lastSeenAt >= lifetimes.idleMs) return 'idle';
  if (session.wardenId !== null && now - session.createdAt >= FACILITATOR_SESSION_MS) return 'facilitator';
  if (now - session.createdAt >= lifetimes.maxMs) return 'lifetime';
  return null;
}

/** The guest's live jail (the guest by id, or the column of the outer query). */
function liveJailOf(guestId: number | typeof sessions.guestId): SQL | undefined {
  return and(eq(jails.guestId, guestId), eq(jails.state, 'live'));
}

/**
 * Whether the session is open at `now`: within its idle time, and within
 * its lifetime or its guest in a live jail.
 */
export async function isSessionOpen(db: Database, session: SessionRow, now: number, lifetimes: SessionLifetimes): Promise<boolean> {
  const lapse = sessionLapse(session, now, lifetimes);
  if (lapse === null) return true;
  if (lapse !== 'lifetime') return false;
  const [live] = await db.select({ id: jails.reservationId }).from(jails).where(liveJailOf(session.guestId)).limit(1);
  return live !== undefined;
}

/** True when `lastSeenAt` is due a renewal at `now`. */
export function isRenewalDue(session: Pick<SessionRow, 'lastSeenAt'>, now: number): boolean {
  return now - session.lastSeenAt >= SESSION_RENEW_MS;
}

/** Records use of the sessions at `now` (in one statement: a busy server renews many at once). */
export async function renewSessions(db: Database, tokenHashes: readonly string[], now: number): Promise<void> {
  await db
    .update(sessions)
    .set({ lastSeenAt: now })
    .where(inArray(sessions.tokenHash, [...tokenHashes]));
}

/**
 * Deletes the sessions that have ended at `now` (idle, a facilitator's past
 * its life, or past their lifetime with no live jail) and returns their
 * token hashes, whose sockets the caller ends.
 */
export async function purgeExpiredGuestSessions(db: Database, now: number, lifetimes: SessionLifetimes): Promise<string[]> {
  const ended = await db
    .delete(sessions)
    .where(
      or(
        lte(sessions.lastSeenAt, now - lifetimes.idleMs),
        and(isNotNull(sessions.wardenId), lte(sessions.createdAt, now - FACILITATOR_SESSION_MS)),
        and(lte(sessions.createdAt, now - lifetimes.maxMs), notExists(db.select({ id: jails.reservationId }).from(jails).where(liveJailOf(sessions.guestId)))),
      ),
    )
    .returning({ tokenHash: sessions.tokenHash });
  return ended.map((row) => row.tokenHash);
}

/** Ends the session of this token; returns the token hashes ended (none when it was already gone). */
export async function endSession(db: Database, guestId: number, token: string): Promise<string[]> {
  const ended = await db
    .delete(sessions)
    .where(and(eq(sessions.guestId, guestId), eq(sessions.tokenHash, hashToken(token))))
    .returning({ tokenHash: sessions.tokenHash });
  return ended.map((row) => row.tokenHash);
}

/**
 * The guest's open sessions, the last used first, as their list of
 * signed-in devices shows them (`currentTokenHash` is the caller's).
 */
export async function signedInDevices(
  db: Database,
  guestId: number,
  currentTokenHash: string,
  now: number,
  lifetimes: SessionLifetimes,
): Promise<SignedInDevice[]> {
  const rows = await db.select().from(sessions).where(eq(sessions.guestId, guestId)).orderBy(desc(sessions.lastSeenAt), desc(sessions.id));
  // Ended sessions wait for the minute's sweep (endExpiredSessions): not shown meanwhile.
  const open = await Promise.all(rows.map((row) => isSessionOpen(db, row, now, lifetimes)));
  return rows
    .filter((_row, index) => open[index])
    .map((row) => ({
      id: row.id,
      browser: row.browser,
      os: row.os,
      facilitator: row.wardenId !== null,
      current: row.tokenHash === currentTokenHash,
      createdAt: row.createdAt,
      lastSeenAt: row.lastSeenAt,
    }));
}

/** Ends the guest's session named `sessionId` in their list; returns the token hashes ended (none when it was already gone). */
export async function endListedSession(db: Database, guestId: number, sessionId: number): Promise<string[]> {
  const ended = await db
    .delete(sessions)
    .where(and(eq(sessions.guestId, guestId), eq(sessions.id, sessionId)))
    .returning({ tokenHash: sessions.tokenHash });
  return ended.map((row) => row.tokenHash);
}

/** Ends every session of the guest but `keepTokenHash` (all of them when null); returns the token hashes ended. */
export async function endGuestSessions(db: Database, guestId: number, keepTokenHash: string | null): Promise<string[]> {
  const ended = await db
    .delete(sessions)
    .where(and(eq(sessions.guestId, guestId), keepTokenHash === null ? undefined : ne(sessions.tokenHash, keepTokenHash)))
    .returning({ tokenHash: sessions.tokenHash });
  return ended.map((row) => row.tokenHash);
}

/**
 * The guard of what only the guest may do (docs/sessions.md, "Facilitator
 * sessions"): a session a facilitator opened cannot create or read a
 * credential or change the account's security. Routes that always do one of
 * these declare `access: 'guest-not-facilitator'` (plugins/access.ts calls
 * this); a route that does one only with some fields calls it itself.
 */
export function refuseFacilitator(session: Pick<SessionRow, 'wardenId'>): void {
  if (session.wardenId !== null) throw new ApiFailure('facilitator_not_allowed');
}

import { and, eq, gt, inArray, isNull, ne, sql } from 'drizzle-orm';
import { WARDEN_IDLE_TIMEOUT_MS } from '../../shared/api/warden.ts';
import type { Database } from '../db/database.ts';
import { wardenSessions, wardenSignIns, wardens } from '../db/schema/index.ts';
import { hashToken, newToken } from '../lib/secrets.ts';

/** A console sign-in lasts 12 hours at most: a warden's shift, then sign in again. */
export const WARDEN_SESSION_MS = 12 * 3_600_000;

/** A warden as the console and the relay know them. */
export interface WardenIdentity {
  id: number;
  title: string;
}

/** Starts a console session for the warden; returns its token (stored only as its hash). */
export async function startWardenSession(db: Database, wardenId: number, now: number): Promise<string> {
  const token = newToken();
  await db.insert(wardenSessions).values({ tokenHash: hashToken(token), wardenId, createdAt: now, expiresAt: now + WARDEN_SESSION_MS, lastUsedAt: now });
  return token;
}

/** An open console session: its warden, the hash of its token and when it ends at the latest. */
export interface WardenSession {
  warden: WardenIdentity;
  tokenHash: string;
  expiresAt: number;
}

/** A session is open before its 12 hours, within its idle time, and while its warden is not disabled. */
function openAt(now: number) {
  return and(gt(wardenSessions.expiresAt, now), gt(wardenSessions.lastUsedAt, now - WARDEN_IDLE_TIMEOUT_MS), isNull(wardens.disabledAt));
}

/**
 * The open console session of this token hash, used now: its idle time
 * starts again, in the same statement that checks it. Every console call
 * and relay event comes through here.
 */
export async function renewWardenSession(db: Database, tokenHash: string, now: number): Promise<WardenSession | null> {
  const [row] = await db
    .update(wardenSessions)
    // Never back: a clock set back (the development clock, a server behind another) does not shorten the idle time.
    .set({ lastUsedAt: sql`greatest(${wardenSessions.lastUsedAt}, ${now})` })
    .from(wardens)
    .where(and(eq(wardenSessions.tokenHash, tokenHash), eq(wardens.id, wardenSessions.wardenId), openAt(now)))
    .returning({ id: wardens.id, title: wardens.title, expiresAt: wardenSessions.expiresAt });
  return row === undefined ? null : { warden: { id: row.id, title: row.title }, tokenHash, expiresAt: row.expiresAt };
}

/** The open console session `token` opens (used now), or null. */
export function wardenSessionOf(db: Database, token: string, now: number): Promise<WardenSession | null> {
  return renewWardenSession(db, hashToken(token), now);
}

/** Which of these token hashes are still open sessions (without using them): the relay's minute sweep. */
export async function openWardenSessions(db: Database, tokenHashes: readonly string[], now: number): Promise<Set<string>> {
  if (tokenHashes.length === 0) return new Set();
  const rows = await db
    .select({ tokenHash: wardenSessions.tokenHash })
    .from(wardenSessions)
    .innerJoin(wardens, eq(wardens.id, wardenSessions.wardenId))
    .where(and(inArray(wardenSessions.tokenHash, [...tokenHashes]), openAt(now)));
  return new Set(rows.map((row) => row.tokenHash));
}

/** Ends the console session of this token; returns the token hashes ended (none when it was already gone). */
export async function endWardenSession(db: Database, token: string): Promise<string[]> {
  const ended = await db
    .delete(wardenSessions)
    .where(eq(wardenSessions.tokenHash, hashToken(token)))
    .returning({ tokenHash: wardenSessions.tokenHash });
  return ended.map((row) => row.tokenHash);
}

/**
 * Ends every console session of the warden but `keepTokenHash` (the one
 * that changed the password), and every sign-in waiting for its code;
 * returns the token hashes ended, whose sockets the caller ends.
 */
export async function endWardenSessions(db: Database, wardenId: number, keepTokenHash: string | null = null): Promise<string[]> {
  await db.delete(wardenSignIns).where(eq(wardenSignIns.wardenId, wardenId));
  const ended = await db
    .delete(wardenSessions)
    .where(and(eq(wardenSessions.wardenId, wardenId), keepTokenHash === null ? undefined : ne(wardenSessions.tokenHash, keepTokenHash)))
    .returning({ tokenHash: wardenSessions.tokenHash });
  return ended.map((row) => row.tokenHash);
}

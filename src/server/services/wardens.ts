import { and, eq, gt } from 'drizzle-orm';
import type { Database } from '../db/database.ts';
import { wardenSessions, wardens } from '../db/schema/index.ts';
import { hashToken, newToken } from '../lib/secrets.ts';

/** A console sign-in lasts 12 hours: a warden's shift, then sign in again. */
export const WARDEN_SESSION_MS = 12 * 3_600_000;

/** A warden as the console and the relay know them. */
export interface WardenIdentity {
  id: number;
  title: string;
}

/** Starts a console session for the warden; returns its token (stored only as its hash). */
export async function startWardenSession(db: Database, wardenId: number, now: number): Promise<string> {
  const token = newToken();
  await db.insert(wardenSessions).values({ tokenHash: hashToken(token), wardenId, createdAt: now, expiresAt: now + WARDEN_SESSION_MS });
  return token;
}

/** An unexpired console session: its warden, the hash of its token and when it ends. */
export interface WardenSession {
  warden: WardenIdentity;
  tokenHash: string;
  expiresAt: number;
}

/** The unexpired console session `token` opens, or null. */
export async function wardenSessionOf(db: Database, token: string, now: number): Promise<WardenSession | null> {
  const tokenHash = hashToken(token);
  const [row] = await db
    .select({ id: wardens.id, title: wardens.title, expiresAt: wardenSessions.expiresAt })
    .from(wardenSessions)
    .innerJoin(wardens, eq(wardens.id, wardenSessions.wardenId))
    .where(and(eq(wardenSessions.tokenHash, tokenHash), gt(wardenSessions.expiresAt, now)));
  return row === undefined ? null : { warden: { id: row.id, title: row.title }, tokenHash, expiresAt: row.expiresAt };
}

/** The warden whose unexpired console session `token` is, or null. */
export async function wardenOfSession(db: Database, token: string, now: number): Promise<WardenIdentity | null> {
  return (await wardenSessionOf(db, token, now))?.warden ?? null;
}

/** Ends the console session of this token; returns the token hashes ended (none when it was already gone). */
export async function endWardenSession(db: Database, token: string): Promise<string[]> {
  const ended = await db
    .delete(wardenSessions)
    .where(eq(wardenSessions.tokenHash, hashToken(token)))
    .returning({ tokenHash: wardenSessions.tokenHash });
  return ended.map((row) => row.tokenHash);
}

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

/** The warden whose unexpired console session `token` is, or null. */
export async function wardenOfSession(db: Database, token: string, now: number): Promise<WardenIdentity | null> {
  const [row] = await db
    .select({ id: wardens.id, title: wardens.title })
    .from(wardenSessions)
    .innerJoin(wardens, eq(wardens.id, wardenSessions.wardenId))
    .where(and(eq(wardenSessions.tokenHash, hashToken(token)), gt(wardenSessions.expiresAt, now)));
  return row ?? null;
}

/** Ends the console session of this token. */
export async function endWardenSession(db: Database, token: string): Promise<void> {
  await db.delete(wardenSessions).where(eq(wardenSessions.tokenHash, hashToken(token)));
}

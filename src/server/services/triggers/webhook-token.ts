import { eq } from 'drizzle-orm';
import type { Database } from '../../db/database.ts';
import { guests } from '../../db/schema/index.ts';
import { hashToken, newToken } from '../../lib/secrets.ts';

/** How many last characters of the webhook token stay readable (`••••abcd`). */
const HINT_LENGTH = 4;

export function tokenHint(token: string): string {
  return token.slice(-HINT_LENGTH);
}

/** A secret address's new token: the token (readable this once), its hash to keep, and its hint to show. */
export function newHintedToken(): { token: string; hash: string; hint: string } {
  const token = newToken();
  return { token, hash: hashToken(token), hint: tokenHint(token) };
}

/** Gives the guest a new webhook token (the old address stops working) and returns it: the only time it is readable. */
export async function regenerateWebhookToken(db: Database, guestId: number, now: number): Promise<{ token: string; hint: string }> {
  const { token, hash, hint } = newHintedToken();
  await db.update(guests).set({ webhookToken: hash, webhookTokenHint: hint, updatedAt: now }).where(eq(guests.id, guestId));
  return { token, hint };
}

import { eq } from 'drizzle-orm';
import webpush from 'web-push';
import type { Database } from '../../db/database.ts';
import { serverKeys } from '../../db/schema/index.ts';

/** The server's Web Push (VAPID) key pair, base64url. */
export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

const VAPID_KEY_NAME = 'vapid';

/**
 * The VAPID keys: the configured ones (`VAPID_PUBLIC_KEY`, `VAPID_PRIVATE_KEY`),
 * else the pair made on the first start and kept in the database, which every
 * server shares (a subscription made with one server's key must be signed by
 * the same key whichever server sends) and which PGlite keeps in the data
 * directory. The first of two servers starting at once wins; both read it back.
 */
export async function vapidKeys(db: Database, configured: VapidKeys | null): Promise<VapidKeys> {
  if (configured !== null) return configured;
  const made = webpush.generateVAPIDKeys();
  await db
    .insert(serverKeys)
    .values({ name: VAPID_KEY_NAME, value: JSON.stringify(made) })
    .onConflictDoNothing();
  const [kept] = await db.select().from(serverKeys).where(eq(serverKeys.name, VAPID_KEY_NAME));
  if (kept === undefined) throw new Error('the VAPID keys were not kept');
  return JSON.parse(kept.value) as VapidKeys;
}

import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { guests } from '../../db/schema/index.ts';
import { ApiFailure } from '../../lib/api.ts';
import { publicGuest } from '../../services/guests.ts';
import { subscriptionOf } from '../../services/payments/subscriptions.ts';

/** The answer of a call that may have changed the plan: the guest read afresh, their subscription, and a client secret if one is to be confirmed. */
export async function subscriptionAnswer(app: FastifyInstance, guestId: number, clientSecret: string | null) {
  const [row] = await app.db.select().from(guests).where(eq(guests.id, guestId));
  if (row === undefined) throw new ApiFailure('authentication_failed');
  return { guest: await publicGuest(app.db, row), subscription: subscriptionOf(row), clientSecret };
}

import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { PaymentOutcome } from '../../../shared/api/payments.ts';
import { guests } from '../../db/schema/index.ts';
import { ApiFailure } from '../../lib/api.ts';
import { publicGuest } from '../../services/guests.ts';
import { subscriptionOf } from '../../services/payments/subscriptions.ts';

/**
 * The answer of a call that may have changed the plan: the guest read
 * afresh, their subscription, a client secret if one is to be confirmed,
 * and the payment the call made or settled.
 */
export async function subscriptionAnswer(
  app: FastifyInstance,
  guestId: number,
  { clientSecret, payment }: { clientSecret: string | null; payment: PaymentOutcome | null } = { clientSecret: null, payment: null },
) {
  const [row] = await app.db.select().from(guests).where(eq(guests.id, guestId));
  if (row === undefined) throw new ApiFailure('authentication_failed');
  return { guest: await publicGuest(app.db, row), subscription: subscriptionOf(row), clientSecret, payment };
}

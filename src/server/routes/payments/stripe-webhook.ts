import type { FastifyPluginAsync } from 'fastify';
import Stripe from 'stripe';
import { z } from 'zod';
import { paymentEvents } from '../../db/schema/index.ts';
import { DEFAULT_LANGUAGE } from '../../../shared/constants.ts';
import { ApiFailure, failure } from '../../lib/api.ts';
import type { Charge } from '../../services/payments/provider.ts';
import { keptCustomerOf, settleIn } from '../../services/payments/subscriptions.ts';

/** Stripe's default tolerance for a signature's timestamp: 5 minutes. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

const eventSchema = z.object({
  id: z.string().min(1).max(255),
  type: z.string().max(255),
  data: z.object({ object: z.object({ id: z.string().min(1).max(255), object: z.string() }).passthrough() }),
});

type StripeEvent = z.infer<typeof eventSchema>;

/**
 * The event of a delivery, if Stripe signed it: the library's
 * `webhooks.constructEvent` checks `Stripe-Signature` (an HMAC-SHA256 of
 * `${t}.${rawBody}` with `secret`, any `v1`, compared in constant time, `t`
 * no older than the tolerance at `nowMs`); then the event must have the
 * shape read here. Otherwise the reason it is refused.
 */
export function signedStripeEvent(
  rawBody: Buffer,
  header: string | undefined,
  secret: string,
  nowMs: number,
): StripeEvent | 'stripe_event_unsigned' | 'stripe_event_invalid' {
  let json: unknown;
  try {
    json = Stripe.webhooks.constructEvent(rawBody, header ?? '', secret, SIGNATURE_TOLERANCE_SECONDS, undefined, nowMs);
  } catch (error) {
    // Past the signature, what fails is the body: not JSON, or not a snapshot event.
    return error instanceof Stripe.errors.StripeSignatureVerificationError ? 'stripe_event_unsigned' : 'stripe_event_invalid';
  }
  const parsed = eventSchema.safeParse(json);
  return parsed.success ? parsed.data : 'stripe_event_invalid';
}

/** The events that settle a payment. */
const PAYMENT_EVENTS = new Set(['payment_intent.succeeded', 'payment_intent.payment_failed']);

/**
 * `POST /api/payments/stripe/webhook` (docs/payments.md): Stripe's events,
 * outside the API envelope's parsing (answered in its shape, in English). The signature is checked over the raw body;
 * each event id is handled once, concurrent duplicates included: its row in
 * `payment_events` is the claim, inserted in the transaction that applies it.
 */
const stripeWebhook: FastifyPluginAsync = async (app) => {
  // Every body is kept raw, whatever its type: the signature is over its bytes.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 512 * 1024 }, (_request, body, done) => done(null, body));
  // In the envelope's shape: a body that cannot be read is the sender's fault; anything else is ours, and Stripe sends the event again.
  app.setErrorHandler((error, request, reply) => {
    const statusCode = typeof error === 'object' && error !== null && 'statusCode' in error && typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (statusCode >= 500 || statusCode < 400) {
      request.log.error({ err: error }, 'Stripe event failed');
      return reply.code(500).send(failure(DEFAULT_LANGUAGE, 'server_error'));
    }
    request.log.info({ err: error }, 'Stripe event unreadable');
    return reply.code(statusCode).send(failure(DEFAULT_LANGUAGE, statusCode === 413 ? 'request_too_large' : 'unreadable_request'));
  });

  app.post('/webhook', async (request, reply) => {
    const secret = app.stripeWebhookSecret;
    if (secret === null) return reply.code(404).send(failure(DEFAULT_LANGUAGE, 'stripe_not_configured'));
    const rawBody = request.body;
    if (!Buffer.isBuffer(rawBody)) return reply.code(400).send(failure(DEFAULT_LANGUAGE, 'stripe_event_invalid'));
    const signature = request.headers['stripe-signature'];
    const event = signedStripeEvent(rawBody, typeof signature === 'string' ? signature : undefined, secret, Date.now());
    if (typeof event === 'string') return reply.code(400).send(failure(DEFAULT_LANGUAGE, event));
    const context = app.paymentsContext();
    // What the provider says of the payment now, read before the transaction (it is a network call).
    let charge: Charge | null = null;
    let keptCustomer: string | null = null;
    try {
      charge = PAYMENT_EVENTS.has(event.type) ? await app.paymentProvider.retrieve(event.data.object.id) : null;
      keptCustomer = charge === null ? null : await keptCustomerOf(context, charge);
    } catch (error) {
      if (!(error instanceof ApiFailure)) throw error;
      // Stripe sends the event again later.
      return reply.code(503).send(failure(DEFAULT_LANGUAGE, 'payment_provider_unavailable'));
    }
    const settling = charge;
    const guestId = await app.db.transaction(async (tx) => {
      const claimed = await tx
        .insert(paymentEvents)
        .values({ eventId: event.id, type: event.type, receivedAt: app.clock.now() })
        .onConflictDoNothing()
        .returning({ eventId: paymentEvents.eventId });
      if (claimed.length === 0 || settling === null) return null;
      return settleIn({ ...context, db: tx }, settling, keptCustomer);
    });
    if (guestId !== null) await app.invalidateReadCache(guestId);
    return { api: { status: 'success' as const } };
  });
};

export default stripeWebhook;

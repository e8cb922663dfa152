import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { paymentEvents } from '../../db/schema/index.ts';
import { DEFAULT_LANGUAGE } from '../../../shared/constants.ts';
import { ApiFailure, failure } from '../../lib/api.ts';
import type { Charge } from '../../services/payments/provider.ts';
import { keptCustomerOf, settleIn } from '../../services/payments/subscriptions.ts';

/** Stripe's default tolerance for a signature's timestamp: 5 minutes. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/**
 * Whether `header` (`Stripe-Signature: t=…,v1=…[,v1=…]`) signs `rawBody`
 * with `secret`: an HMAC-SHA256 of `${t}.${rawBody}`, compared in constant
 * time, with a timestamp within the tolerance of `nowMs`.
 */
export function verifyStripeSignature(rawBody: Buffer, header: string | undefined, secret: string, nowMs: number): boolean {
  if (header === undefined) return false;
  const parts = header.split(',').map((part) => part.split('=', 2) as [string, string | undefined]);
  const timestamp = Number(parts.find(([key]) => key === 't')?.[1]);
  if (!Number.isInteger(timestamp) || Math.abs(nowMs / 1000 - timestamp) > SIGNATURE_TOLERANCE_SECONDS) return false;
  const expected = createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest();
  return parts.some(([key, value]) => {
    if (key !== 'v1' || value === undefined || !/^[0-9a-f]{64}$/.test(value)) return false;
    return timingSafeEqual(Buffer.from(value, 'hex'), expected);
  });
}

const eventSchema = z.object({
  id: z.string().min(1).max(255),
  type: z.string().max(255),
  data: z.object({ object: z.object({ id: z.string().min(1).max(255), object: z.string() }).passthrough() }),
});

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
    if (!verifyStripeSignature(rawBody, typeof signature === 'string' ? signature : undefined, secret, Date.now())) {
      return reply.code(400).send(failure(DEFAULT_LANGUAGE, 'stripe_event_unsigned'));
    }
    let json: unknown;
    try {
      json = JSON.parse(rawBody.toString('utf8'));
    } catch {
      return reply.code(400).send(failure(DEFAULT_LANGUAGE, 'stripe_event_invalid'));
    }
    const parsed = eventSchema.safeParse(json);
    if (!parsed.success) return reply.code(400).send(failure(DEFAULT_LANGUAGE, 'stripe_event_invalid'));
    const event = parsed.data;
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

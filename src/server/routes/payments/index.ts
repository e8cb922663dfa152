import type { FastifyPluginAsync } from 'fastify';
import { authenticatedRequestSchema, bareRequestSchema } from '../../../shared/api/envelope.ts';
import {
  localConfirmRequestSchema,
  localTokenPayload,
  localTokenRequestSchema,
  paymentIdOf,
  paymentsConfigPayload,
  settleRequestSchema,
  subscriptionChangePayload,
} from '../../../shared/api/payments.ts';
import { RATE_RULES } from '../../lib/rate-limiter.ts';
import { ApiFailure, apiPost } from '../../lib/api.ts';
import { LocalPaymentProvider } from '../../services/payments/local.ts';
import { paymentOf, settle } from '../../services/payments/subscriptions.ts';
import { subscriptionAnswer } from './answers.ts';

/**
 * The payment calls beside `/guest/subscribe` (docs/payments.md), under
 * /api/payments: the provider the browser talks to, the subscription as
 * /subscription shows it, reading back a payment the guest confirmed, and
 * the local provider's card form and confirm step.
 */
const payments: FastifyPluginAsync = async (app) => {
  /** The local provider, or 'payment_provider_other' under Stripe. */
  function localProvider(): LocalPaymentProvider {
    if (!(app.paymentProvider instanceof LocalPaymentProvider)) throw new ApiFailure('payment_provider_other');
    return app.paymentProvider;
  }

  apiPost(app, '/config', {
    access: 'public',
    body: bareRequestSchema,
    payload: paymentsConfigPayload,
    async handler() {
      return { provider: app.paymentProvider.name, publishableKey: app.paymentProvider.publishableKey };
    },
  });

  apiPost(app, '/subscription', {
    access: 'guest',
    body: authenticatedRequestSchema,
    payload: subscriptionChangePayload,
    async handler(_body, { guest }) {
      return subscriptionAnswer(app, guest.id);
    },
  });

  /** After the browser confirmed a payment with the provider: its outcome, read from the provider (the webhook may not have come yet). */
  apiPost(app, '/settle', {
    access: 'guest',
    body: settleRequestSchema,
    payload: subscriptionChangePayload,
    async handler({ payment }, { guest }) {
      const context = app.paymentsContext();
      const paymentId = paymentIdOf(payment.clientSecret);
      const recorded = await paymentOf(context, guest.id, paymentId);
      const charge = await app.paymentProvider.retrieve(paymentId);
      await settle(context, charge);
      return subscriptionAnswer(app, guest.id, {
        clientSecret: charge.status === 'requires_action' ? payment.clientSecret : null,
        payment: { status: charge.status, amountYen: recorded.amountYen, decline: charge.decline },
      });
    },
  });

  apiPost(app, '/local/token', {
    access: 'guest',
    body: localTokenRequestSchema,
    payload: localTokenPayload,
    async handler({ card }, { guest }) {
      await app.rateLimiter.enforce(`card-token:guest:${guest.id}`, RATE_RULES.cardTokensPerGuest);
      return localProvider().tokenise(card);
    },
  });

  /** The local provider's authentication step: the guest approves or declines the payment. */
  apiPost(app, '/local/confirm', {
    // Approving a payment is the guest's alone (docs/sessions.md).
    access: 'guest-not-facilitator',
    body: localConfirmRequestSchema,
    payload: subscriptionChangePayload,
    async handler({ payment }, { guest }) {
      const provider = localProvider();
      const context = app.paymentsContext();
      const paymentId = paymentIdOf(payment.clientSecret);
      const recorded = await paymentOf(context, guest.id, paymentId);
      const charge = await provider.retrieve(recorded.providerPaymentId);
      const outcome = payment.approve
        ? { ...charge, status: 'succeeded' as const, failure: null, decline: null }
        : { ...charge, status: 'failed' as const, failure: 'The guest declined to authenticate the payment.', decline: 'authentication_failed' as const };
      // Settled before (confirmed twice), the payment stays as it was settled.
      const settled = (await settle(context, outcome)) === null ? await provider.retrieve(recorded.providerPaymentId) : outcome;
      return subscriptionAnswer(app, guest.id, {
        clientSecret: null,
        payment: { status: settled.status, amountYen: recorded.amountYen, decline: settled.decline },
      });
    },
  });
};

export default payments;

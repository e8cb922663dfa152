import type { FastifyPluginAsync } from 'fastify';
import { authenticatedRequestSchema } from '../../../shared/api/envelope.ts';
import { subscribeRequestSchema, subscriptionChangePayload, updateCardRequestSchema } from '../../../shared/api/payments.ts';
import { apiPost } from '../../lib/api.ts';
import { subscriptionAnswer } from '../payments/answers.ts';
import { subscribe, unsubscribe, updateCard } from '../../services/payments/subscriptions.ts';

/**
 * `/guest/subscribe`, `/guest/unsubscribe` and `/guest/updateCard`
 * (docs/api.md, docs/payments.md). Each answers the guest and their
 * subscription; subscribe also its payment (a declined card is an answer,
 * with the decline's code) and a client secret when the card asks the
 * guest to confirm the payment. Only the guest may: a facilitator's session is
 * refused (`guest-not-facilitator`).
 */
const payments: FastifyPluginAsync = async (app) => {
  apiPost(app, '/subscribe', {
    access: 'guest-not-facilitator',
    body: subscribeRequestSchema,
    payload: subscriptionChangePayload,
    async handler({ subscription }, { guest }) {
      return subscriptionAnswer(app, guest.id, await subscribe(app.paymentsContext(), guest, subscription.plan, subscription.token));
    },
  });

  apiPost(app, '/unsubscribe', {
    access: 'guest-not-facilitator',
    body: authenticatedRequestSchema,
    payload: subscriptionChangePayload,
    async handler(_body, { guest }) {
      await unsubscribe(app.paymentsContext(), guest.id);
      return subscriptionAnswer(app, guest.id);
    },
  });

  apiPost(app, '/updateCard', {
    access: 'guest-not-facilitator',
    body: updateCardRequestSchema,
    payload: subscriptionChangePayload,
    async handler({ subscription }, { guest }) {
      await updateCard(app.paymentsContext(), guest, subscription.token);
      return subscriptionAnswer(app, guest.id);
    },
  });
};

export default payments;

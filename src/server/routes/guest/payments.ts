import type { FastifyPluginAsync } from 'fastify';
import { authenticatedRequestSchema } from '../../../shared/api/envelope.ts';
import { subscribeRequestSchema, subscriptionChangePayload, updateCardRequestSchema } from '../../../shared/api/payments.ts';
import { apiPost } from '../../lib/api.ts';
import { refuseFacilitator } from '../../services/sessions.ts';
import { subscriptionAnswer } from '../payments/answers.ts';
import { subscribe, unsubscribe, updateCard } from '../../services/payments/subscriptions.ts';

/**
 * `/guest/subscribe`, `/guest/unsubscribe` and `/guest/updateCard`
 * (docs/api.md, docs/payments.md). Each answers the guest and their
 * subscription; subscribe also a client secret when the card asks the guest
 * to confirm the payment. Only the guest may: a facilitator's session is
 * refused (services/sessions.ts, `refuseFacilitator`).
 */
const payments: FastifyPluginAsync = async (app) => {
  apiPost(app, '/subscribe', {
    body: subscribeRequestSchema,
    payload: subscriptionChangePayload,
    async handler({ guest: credentials, subscription }) {
      const { guest, session } = await app.authenticatedSession(credentials);
      refuseFacilitator(session);
      const clientSecret = await subscribe(app.paymentsContext(), guest, subscription.plan, subscription.token);
      return subscriptionAnswer(app, guest.id, clientSecret);
    },
  });

  apiPost(app, '/unsubscribe', {
    body: authenticatedRequestSchema,
    payload: subscriptionChangePayload,
    async handler({ guest: credentials }) {
      const { guest, session } = await app.authenticatedSession(credentials);
      refuseFacilitator(session);
      await unsubscribe(app.paymentsContext(), guest.id);
      return subscriptionAnswer(app, guest.id, null);
    },
  });

  apiPost(app, '/updateCard', {
    body: updateCardRequestSchema,
    payload: subscriptionChangePayload,
    async handler({ guest: credentials, subscription }) {
      const { guest, session } = await app.authenticatedSession(credentials);
      refuseFacilitator(session);
      await updateCard(app.paymentsContext(), guest, subscription.token);
      return subscriptionAnswer(app, guest.id, null);
    },
  });
};

export default payments;

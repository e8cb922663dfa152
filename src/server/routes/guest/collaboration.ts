import { eq } from 'drizzle-orm';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import {
  calendarFeedPath,
  calendarFeedRequestSchema,
  calendarFeedSchema,
  regenerateWebhookTokenRequestSchema,
  TRIGGER_DELIVERIES_SHOWN,
  triggerDeliveriesRequestSchema,
  triggerDeliverySchema,
  triggerSecretRequestSchema,
  triggerSecretSchema,
  webhookTokenSchema,
} from '../../../shared/api/collaboration.ts';
import { guests } from '../../db/schema/index.ts';
import { ApiFailure, apiPost } from '../../lib/api.ts';
import { appUrl } from '../../config.ts';
import { regenerateCalendarFeed, removeCalendarFeed } from '../../services/calendar-feed.ts';
import { recentDeliveries } from '../../services/triggers/deliveries.ts';
import { newTriggerSecret } from '../../services/triggers/signer.ts';
import { regenerateWebhookToken } from '../../services/triggers/webhook-token.ts';

/**
 * The Collaboration screen's calls under /api/guest (docs/collaboration.md):
 * the webhook token, the trigger's signing secret and its deliveries.
 */
const collaboration: FastifyPluginAsync = async (app) => {
  apiPost(app, '/regenerateWebhookToken', {
    body: regenerateWebhookTokenRequestSchema,
    payload: { webhookToken: webhookTokenSchema },
    async handler({ guest: credentials }) {
      const guest = await app.authenticatedGuest(credentials);
      return { webhookToken: await regenerateWebhookToken(app.db, guest.id, app.clock.now()) };
    },
  });

  /**
   * The signing secret must stay readable to sign, so it is shown again
   * whenever the tab opens; a guest without one gets one here.
   */
  apiPost(app, '/readTriggerSecret', {
    body: triggerSecretRequestSchema,
    payload: { triggerSecret: triggerSecretSchema },
    async handler({ guest: credentials }) {
      const guest = await app.authenticatedGuest(credentials);
      if (guest.triggerSecret !== null) return { triggerSecret: guest.triggerSecret };
      const [updated] = await app.db
        .update(guests)
        .set({ triggerSecret: newTriggerSecret() })
        .where(eq(guests.id, guest.id))
        .returning({ triggerSecret: guests.triggerSecret });
      if (updated?.triggerSecret == null) throw new ApiFailure('authentication_failed');
      return { triggerSecret: updated.triggerSecret };
    },
  });

  /** A new secret signs every call from now on, retries of earlier deliveries included. */
  apiPost(app, '/regenerateTriggerSecret', {
    body: triggerSecretRequestSchema,
    payload: { triggerSecret: triggerSecretSchema },
    async handler({ guest: credentials }) {
      const guest = await app.authenticatedGuest(credentials);
      const triggerSecret = newTriggerSecret();
      await app.db.update(guests).set({ triggerSecret, updatedAt: app.clock.now() }).where(eq(guests.id, guest.id));
      return { triggerSecret };
    },
  });

  apiPost(app, '/regenerateCalendarFeed', {
    body: calendarFeedRequestSchema,
    payload: { calendarFeed: calendarFeedSchema },
    async handler({ guest: credentials }) {
      const guest = await app.authenticatedGuest(credentials);
      const { token, hint } = await regenerateCalendarFeed(app.db, guest.id, app.clock.now());
      return { calendarFeed: { url: `${appUrl(app.config)}${calendarFeedPath(token)}`, hint } };
    },
  });

  apiPost(app, '/removeCalendarFeed', {
    body: calendarFeedRequestSchema,
    payload: {},
    async handler({ guest: credentials }) {
      const guest = await app.authenticatedGuest(credentials);
      await removeCalendarFeed(app.db, guest.id, app.clock.now());
      return {};
    },
  });

  apiPost(app, '/triggerDeliveries', {
    body: triggerDeliveriesRequestSchema,
    payload: { triggerDeliveries: z.array(triggerDeliverySchema) },
    async handler({ guest: credentials }) {
      const guest = await app.authenticatedGuest(credentials);
      return { triggerDeliveries: await recentDeliveries(app.db, guest.id, TRIGGER_DELIVERIES_SHOWN) };
    },
  });
};

export default collaboration;

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
 * the webhook token, the trigger's signing secret and its deliveries; and
 * the calendar feed's address. Making or reading a credential is the
 * guest's alone (`guest-not-facilitator`, docs/sessions.md).
 */
const collaboration: FastifyPluginAsync = async (app) => {
  apiPost(app, '/regenerateWebhookToken', {
    access: 'guest-not-facilitator',
    body: regenerateWebhookTokenRequestSchema,
    payload: { webhookToken: webhookTokenSchema },
    async handler(_body, { guest }) {
      return { webhookToken: await regenerateWebhookToken(app.db, guest.id, app.clock.now()) };
    },
  });

  /**
   * The signing secret must stay readable to sign, so it is shown again
   * whenever the tab opens; a guest without one gets one here.
   */
  apiPost(app, '/readTriggerSecret', {
    access: 'guest-not-facilitator',
    body: triggerSecretRequestSchema,
    payload: { triggerSecret: triggerSecretSchema },
    async handler(_body, { guest }) {
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
    access: 'guest-not-facilitator',
    body: triggerSecretRequestSchema,
    payload: { triggerSecret: triggerSecretSchema },
    async handler(_body, { guest }) {
      const triggerSecret = newTriggerSecret();
      await app.db.update(guests).set({ triggerSecret, updatedAt: app.clock.now() }).where(eq(guests.id, guest.id));
      return { triggerSecret };
    },
  });

  apiPost(app, '/regenerateCalendarFeed', {
    access: 'guest-not-facilitator',
    body: calendarFeedRequestSchema,
    payload: { calendarFeed: calendarFeedSchema },
    async handler(_body, { guest }) {
      const { token, hint } = await regenerateCalendarFeed(app.db, guest.id, app.clock.now());
      return { calendarFeed: { url: `${appUrl(app.config)}${calendarFeedPath(token)}`, hint } };
    },
  });

  apiPost(app, '/removeCalendarFeed', {
    access: 'guest',
    body: calendarFeedRequestSchema,
    payload: {},
    async handler(_body, { guest }) {
      await removeCalendarFeed(app.db, guest.id, app.clock.now());
      return {};
    },
  });

  apiPost(app, '/triggerDeliveries', {
    access: 'guest',
    body: triggerDeliveriesRequestSchema,
    payload: { triggerDeliveries: z.array(triggerDeliverySchema) },
    async handler(_body, { guest }) {
      return { triggerDeliveries: await recentDeliveries(app.db, guest.id, TRIGGER_DELIVERIES_SHOWN) };
    },
  });
};

export default collaboration;

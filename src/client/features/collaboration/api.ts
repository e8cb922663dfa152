import type { TriggerDelivery } from '../../../shared/api/collaboration.ts';
import { api, guestChanged } from '../../app/api.ts';

/** The Collaboration screen's calls (docs/api.md, "Collaboration"); its settings are saved with `guestUpdate` (account/api.ts). */
export const collaborationApi = api.enhanceEndpoints({ addTagTypes: ['TriggerSecret', 'TriggerDelivery'] }).injectEndpoints({
  endpoints: (build) => ({
    guestRegenerateWebhookToken: build.mutation<{ webhookToken: { token: string; hint: string } }, void>({
      query: () => ({ path: '/guest/regenerateWebhookToken', body: {}, auth: true }),
      invalidatesTags: guestChanged,
    }),
    guestReadTriggerSecret: build.query<{ triggerSecret: string }, void>({
      query: () => ({ path: '/guest/readTriggerSecret', body: {}, auth: true }),
      providesTags: ['TriggerSecret'],
    }),
    guestRegenerateTriggerSecret: build.mutation<{ triggerSecret: string }, void>({
      query: () => ({ path: '/guest/regenerateTriggerSecret', body: {}, auth: true }),
      invalidatesTags: ['TriggerSecret'],
    }),
    guestTriggerDeliveries: build.query<{ triggerDeliveries: TriggerDelivery[] }, void>({
      query: () => ({ path: '/guest/triggerDeliveries', body: {}, auth: true }),
      providesTags: ['TriggerDelivery'],
    }),
  }),
});

export const {
  useGuestRegenerateWebhookTokenMutation,
  useGuestReadTriggerSecretQuery,
  useGuestRegenerateTriggerSecretMutation,
  useGuestTriggerDeliveriesQuery,
} = collaborationApi;

import type { Guest } from '../../../shared/api/guest.ts';
import type { Decline, PaymentOutcome, PaymentProviderName, Subscription } from '../../../shared/api/payments.ts';
import { api, cacheAnsweredGuest, guestChanged } from '../../app/api.ts';

/** The answer of the calls that may change the plan (docs/payments.md). */
export interface SubscriptionAnswer {
  guest: Guest;
  subscription: Subscription;
  clientSecret: string | null;
  /** The payment the call made or settled; a declined card is answered here, with its decline. */
  payment: PaymentOutcome | null;
}

/** The plan and card calls of /subscription; an answer's `guest` replaces the guest read (app/api.ts). */
export const subscriptionApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** Which provider takes the card: the local form, or Stripe's with its publishable key. */
    paymentsConfig: build.query<{ provider: PaymentProviderName; publishableKey: string | null }, void>({
      query: () => ({ path: '/payments/config', body: {} }),
    }),
    paymentsSubscription: build.query<SubscriptionAnswer, void>({
      query: () => ({ path: '/payments/subscription', body: {}, auth: true }),
      providesTags: ['Guest'],
    }),
    guestSubscribe: build.mutation<SubscriptionAnswer, { plan: number; token: string }>({
      query: (subscription) => ({ path: '/guest/subscribe', body: { subscription }, auth: true }),
      invalidatesTags: guestChanged,
      onQueryStarted: cacheAnsweredGuest,
    }),
    guestUnsubscribe: build.mutation<SubscriptionAnswer, void>({
      query: () => ({ path: '/guest/unsubscribe', body: {}, auth: true }),
      invalidatesTags: guestChanged,
      onQueryStarted: cacheAnsweredGuest,
    }),
    guestUpdateCard: build.mutation<SubscriptionAnswer, { token: string }>({
      query: (subscription) => ({ path: '/guest/updateCard', body: { subscription }, auth: true }),
      invalidatesTags: guestChanged,
      onQueryStarted: cacheAnsweredGuest,
    }),
    /** After Stripe confirmed a payment in the browser: its outcome, read back by the server. */
    paymentsSettle: build.mutation<SubscriptionAnswer, { clientSecret: string }>({
      query: (payment) => ({ path: '/payments/settle', body: { payment }, auth: true }),
      invalidatesTags: guestChanged,
      onQueryStarted: cacheAnsweredGuest,
    }),
    /** The local provider's card form: the card becomes a token (only brand and last four are kept), or is refused with a decline. */
    paymentsLocalToken: build.mutation<
      { card: { token: string; brand: string; last4: string } | null; decline: Decline | null },
      { number: string; expMonth: number; expYear: number; cvc: string }
    >({
      query: (card) => ({ path: '/payments/local/token', body: { card }, auth: true }),
    }),
    /** The local provider's authentication step. */
    paymentsLocalConfirm: build.mutation<SubscriptionAnswer, { clientSecret: string; approve: boolean }>({
      query: (payment) => ({ path: '/payments/local/confirm', body: { payment }, auth: true }),
      invalidatesTags: guestChanged,
      onQueryStarted: cacheAnsweredGuest,
    }),
  }),
});

export const {
  usePaymentsConfigQuery,
  usePaymentsSubscriptionQuery,
  useGuestSubscribeMutation,
  useGuestUnsubscribeMutation,
  useGuestUpdateCardMutation,
  usePaymentsSettleMutation,
  usePaymentsLocalTokenMutation,
  usePaymentsLocalConfirmMutation,
} = subscriptionApi;

import { z } from 'zod';
import { apiRequestSchema, guestCredentialsSchema } from './envelope.ts';
import { guestSchema } from './guest.ts';
import { PLAN_CODES } from '../plans.ts';

/**
 * Plans and card payment (docs/payments.md): `/guest/subscribe`,
 * `/guest/unsubscribe`, `/guest/updateCard` and the `/payments/*` calls.
 */

export const PAYMENT_PROVIDER_NAMES = ['local', 'stripe'] as const;
export type PaymentProviderName = (typeof PAYMENT_PROVIDER_NAMES)[number];

/** A card token: the local provider's token, or a Stripe PaymentMethod id (`pm_…`). */
export const cardTokenSchema = z.string().min(1).max(255);

/** A payment's client secret (`<payment id>_secret_<random>`), as `/guest/subscribe` gave it. */
export const clientSecretSchema = z
  .string()
  .max(255)
  .regex(/^[A-Za-z0-9]+_[A-Za-z0-9_-]+_secret_[A-Za-z0-9_-]+$/);

/** The payment id inside a client secret. */
export function paymentIdOf(clientSecret: string): string {
  return clientSecret.slice(0, clientSecret.indexOf('_secret_'));
}

export const subscribeRequestSchema = z.object({
  api: apiRequestSchema,
  guest: guestCredentialsSchema,
  /** `plan`: a plan code (`PLANS` of shared/plans.ts); only light and standard are paid by card. */
  subscription: z.object({
    plan: z
      .number()
      .int()
      .min(Math.min(...PLAN_CODES))
      .max(Math.max(...PLAN_CODES)),
    token: cardTokenSchema,
  }),
});

export const updateCardRequestSchema = z.object({
  api: apiRequestSchema,
  guest: guestCredentialsSchema,
  subscription: z.object({ token: cardTokenSchema }),
});

/** `/payments/settle`: reads a payment that needed confirmation back from the provider. */
export const settleRequestSchema = z.object({
  api: apiRequestSchema,
  guest: guestCredentialsSchema,
  payment: z.object({ clientSecret: clientSecretSchema }),
});

/** `/payments/local/confirm`: the guest's answer to the local provider's authentication step. */
export const localConfirmRequestSchema = z.object({
  api: apiRequestSchema,
  guest: guestCredentialsSchema,
  payment: z.object({ clientSecret: clientSecretSchema, approve: z.boolean() }),
});

/** `/payments/local/token`: a card as typed; only its brand, last four digits and test outcome are kept. */
export const localTokenRequestSchema = z.object({
  api: apiRequestSchema,
  guest: guestCredentialsSchema,
  card: z.object({
    number: z.string().max(40),
    expMonth: z.number().int(),
    expYear: z.number().int(),
    cvc: z.string().max(8),
  }),
});

/** What the subscription screen shows besides the guest (who holds the plan code and expiry). */
export const subscriptionSchema = z.object({
  plan: z.number(),
  /** The day of the month a light or standard plan is paid on (1-28). */
  paymentDay: z.number().nullable(),
  nextPaymentAt: z.number().nullable(),
  expiredAt: z.number().nullable(),
  card: z.object({ brand: z.string(), last4: z.string() }).nullable(),
});
export type Subscription = z.infer<typeof subscriptionSchema>;

/**
 * Why a card was refused, as a code: the app words it in its own language
 * (docs/payments.md, Declines). `card_declined` is a plain decline,
 * `authentication_failed` a 3-D Secure check failed or refused,
 * `invalid_expiry` a date that cannot be right (past, or no month), and
 * `other` any reason the provider gives that none of these names.
 */
export const DECLINES = [
  'card_declined',
  'authentication_failed',
  'expired_card',
  'incorrect_number',
  'incorrect_cvc',
  'invalid_expiry',
  'insufficient_funds',
  'other',
] as const;
export type Decline = (typeof DECLINES)[number];

/** The payment a call made or settled: what it charged and how it went; `decline` is set when it failed. */
const paymentOutcomeSchema = z.object({
  status: z.enum(['requires_action', 'succeeded', 'failed']),
  amountYen: z.number(),
  decline: z.enum(DECLINES).nullable(),
});
export type PaymentOutcome = z.infer<typeof paymentOutcomeSchema>;

/**
 * The answer of the calls that may change the plan: the guest, the
 * subscription, the client secret of a payment to confirm, and the payment
 * the call made or settled (null for a call that charges nothing). A
 * declined card is an answer too, with the plan unchanged.
 */
export const subscriptionChangePayload = {
  guest: guestSchema,
  subscription: subscriptionSchema,
  /** Set when the card needs the guest to confirm the payment (3-D Secure); the plan changes once it has succeeded. */
  clientSecret: z.string().nullable(),
  payment: paymentOutcomeSchema.nullable(),
};

export const paymentsConfigPayload = {
  provider: z.enum(PAYMENT_PROVIDER_NAMES),
  /** Stripe's publishable key; null for the local provider. */
  publishableKey: z.string().nullable(),
};

/** The local provider's card check: the card's token, brand and last four, or why the card was refused (`decline`). */
export const localTokenPayload = {
  card: z.object({ token: z.string(), brand: z.string(), last4: z.string() }).nullable(),
  decline: z.enum(DECLINES).nullable(),
};

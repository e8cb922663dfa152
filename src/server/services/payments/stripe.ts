import Stripe from 'stripe';
import type { Decline } from '../../../shared/api/payments.ts';
import { ApiFailure } from '../../lib/api.ts';
import type { CardMethod, Charge, ChargeRequest, PaymentProvider } from './provider.ts';

/**
 * The Stripe API version every request names (`Stripe-Version`): the one this
 * release of the `stripe` package is typed for, so that the types describe
 * what Stripe answers. Upgrading the package means reading Stripe's changelog
 * between the two versions and changing this (the type check insists).
 */
export const STRIPE_API_VERSION: Stripe.LatestApiVersion = '2026-10-28.endive';

/** How long one call to Stripe may take, and how often the library tries a call again when it got no answer, a conflict or a server error (safe: every POST has an idempotency key). */
const STRIPE_TIMEOUT_MS = 20_000;
const STRIPE_NETWORK_RETRIES = 2;

export interface StripeSettings {
  secretKey: string;
  publishableKey: string;
  /** Signs the webhook's events (`whsec_…`); without it the webhook refuses every event. */
  webhookSecret: string | null;
  /** `https://api.stripe.com`, or a stand-in for tests. */
  apiBase: string;
}

/** Stripe's settings from the environment, when both keys are set (docs/payments.md). */
export function stripeSettingsFrom(env: NodeJS.ProcessEnv): StripeSettings | null {
  const secretKey = env.STRIPE_SECRET_KEY ?? '';
  const publishableKey = env.STRIPE_PUBLISHABLE_KEY ?? '';
  if (secretKey === '' || publishableKey === '') return null;
  const webhookSecret = env.STRIPE_WEBHOOK_SECRET ?? '';
  const apiBase = env.STRIPE_API_BASE ?? 'https://api.stripe.com';
  stripeAddressOf(apiBase);
  return { secretKey, publishableKey, webhookSecret: webhookSecret === '' ? null : webhookSecret, apiBase };
}

/** Where the client sends its requests: the protocol, host and port of `apiBase` (the library adds `/v1/…`). */
function stripeAddressOf(apiBase: string): { protocol: Stripe.HttpProtocol; host: string; port: number } {
  const url = URL.parse(apiBase);
  const protocol = url?.protocol === 'https:' ? 'https' : url?.protocol === 'http:' ? 'http' : null;
  if (url === null || protocol === null || (url.pathname !== '/' && url.pathname !== '')) {
    throw new Error(`STRIPE_API_BASE must be an http(s) origin such as https://api.stripe.com, not "${apiBase}".`);
  }
  const port = url.port === '' ? (protocol === 'https' ? 443 : 80) : Number(url.port);
  // An IPv6 host comes bracketed in a URL, and bare to Node's http.request.
  return { protocol, host: url.hostname.replace(/^\[(.*)\]$/, '$1'), port };
}

function methodOf(value: string | Stripe.PaymentMethod | null): CardMethod | null {
  if (value === null || typeof value === 'string' || value.card === undefined) return null;
  return { id: value.id, brand: value.card.brand, last4: value.card.last4 };
}

function idOf(value: string | { id: string } | null): string | null {
  return value === null || typeof value === 'string' ? value : value.id;
}

/** Stripe's error codes and decline codes (https://docs.stripe.com/declines/codes) that name a decline the app words. */
const DECLINE_OF_CODE: Readonly<Record<string, Decline>> = {
  card_declined: 'card_declined',
  generic_decline: 'card_declined',
  do_not_honor: 'card_declined',
  authentication_required: 'authentication_failed',
  payment_intent_authentication_failure: 'authentication_failed',
  expired_card: 'expired_card',
  incorrect_number: 'incorrect_number',
  invalid_number: 'incorrect_number',
  incorrect_cvc: 'incorrect_cvc',
  invalid_cvc: 'incorrect_cvc',
  invalid_expiry_month: 'invalid_expiry',
  invalid_expiry_year: 'invalid_expiry',
  insufficient_funds: 'insufficient_funds',
};

/** The decline of a Stripe card error or `last_payment_error`: its decline code when it names one (it is the finer), else its code, else 'other'. */
export function declineOf(error: { code?: string | null; decline_code?: string | null } | null | undefined): Decline {
  const { code, decline_code: declineCode } = error ?? {};
  return DECLINE_OF_CODE[declineCode ?? ''] ?? DECLINE_OF_CODE[code ?? ''] ?? 'other';
}

function chargeOf(intent: Stripe.PaymentIntent): Charge {
  const status = intent.status === 'succeeded' ? 'succeeded' : intent.status === 'requires_action' ? 'requires_action' : 'failed';
  return {
    id: intent.id,
    status,
    clientSecret: status === 'requires_action' ? intent.client_secret : null,
    failure: status === 'failed' ? (intent.last_payment_error?.message ?? `The payment is ${intent.status}.`) : null,
    decline: status === 'failed' ? declineOf(intent.last_payment_error) : null,
    method: methodOf(intent.payment_method),
    customerId: idOf(intent.customer),
  };
}

/**
 * Stripe through its official library, on the pinned API version: a customer
 * per guest, the card as a PaymentMethod attached to it, and a PaymentIntent
 * per charge, confirmed at once.
 */
export class StripePaymentProvider implements PaymentProvider {
  readonly name = 'stripe';
  readonly publishableKey: string;
  private readonly stripe: Stripe;

  constructor(settings: StripeSettings) {
    this.publishableKey = settings.publishableKey;
    this.stripe = new Stripe(settings.secretKey, {
      apiVersion: STRIPE_API_VERSION,
      ...stripeAddressOf(settings.apiBase),
      timeout: STRIPE_TIMEOUT_MS,
      maxNetworkRetries: STRIPE_NETWORK_RETRIES,
    });
  }

  /** Runs a call; a card Stripe refuses to read becomes `failure`, and any other Stripe error (no answer included) 'payment_provider_unavailable'. */
  private async guarded<Result>(call: () => Promise<Result>, failure: 'card_token_unknown' | 'payment_provider_unavailable'): Promise<Result> {
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof Stripe.errors.StripeError)) throw error;
      const status = error.statusCode ?? 0;
      throw new ApiFailure(status >= 400 && status < 500 ? failure : 'payment_provider_unavailable');
    }
  }

  async attachCard(token: string, customer: { id: string | null; email: string; guestId: number }): Promise<{ customerId: string; method: CardMethod }> {
    const customerId =
      customer.id ??
      (
        await this.guarded(
          () =>
            this.stripe.customers.create(
              { email: customer.email, metadata: { guest_id: String(customer.guestId) } },
              { idempotencyKey: `customer-${customer.guestId}` },
            ),
          'payment_provider_unavailable',
        )
      ).id;
    const attached = await this.guarded(() => this.stripe.paymentMethods.attach(token, { customer: customerId }), 'card_token_unknown');
    const method = methodOf(attached);
    if (method === null) throw new ApiFailure('card_token_unknown');
    return { customerId, method };
  }

  async makeDefault(customerId: string, methodId: string): Promise<string> {
    await this.guarded(
      () => this.stripe.customers.update(customerId, { invoice_settings: { default_payment_method: methodId } }),
      'payment_provider_unavailable',
    );
    return customerId;
  }

  async defaultMethod(customerId: string): Promise<string | null> {
    const customer = await this.guarded(() => this.stripe.customers.retrieve(customerId), 'payment_provider_unavailable');
    // A deleted customer has no card.
    if (customer.deleted === true) return null;
    return idOf(customer.invoice_settings.default_payment_method);
  }

  async charge(request: ChargeRequest): Promise<Charge> {
    try {
      const intent = await this.stripe.paymentIntents.create(
        {
          amount: request.amountYen,
          currency: 'jpy',
          customer: request.customerId,
          payment_method: request.methodId,
          allowed_payment_method_types: ['card'],
          confirm: true,
          off_session: request.offSession ? true : undefined,
          description: request.description,
          metadata: { guest_id: String(request.guestId) },
          expand: ['payment_method'],
        },
        { idempotencyKey: request.idempotencyKey },
      );
      return chargeOf(intent);
    } catch (error) {
      if (!(error instanceof Stripe.errors.StripeError)) throw error;
      // A declined card is HTTP 402 carrying the failed PaymentIntent.
      if (error instanceof Stripe.errors.StripeCardError && error.payment_intent !== undefined) {
        return {
          ...chargeOf(error.payment_intent),
          status: 'failed',
          clientSecret: null,
          failure: error.message === '' ? 'Your card was declined.' : error.message,
          decline: declineOf(error),
        };
      }
      throw new ApiFailure(error.statusCode === 402 ? 'card_declined' : 'payment_provider_unavailable');
    }
  }

  /** `customers.del`: Stripe detaches its cards, so nothing can be charged to it again. One already deleted (404 `resource_missing`) is done. */
  async deleteCustomer(customerId: string): Promise<void> {
    try {
      await this.stripe.customers.del(customerId);
    } catch (error) {
      if (!(error instanceof Stripe.errors.StripeError)) throw error;
      if (error.statusCode === 404 && error.code === 'resource_missing') return;
      throw new ApiFailure('payment_provider_unavailable');
    }
  }

  async retrieve(paymentId: string): Promise<Charge> {
    const intent = await this.guarded(() => this.stripe.paymentIntents.retrieve(paymentId, { expand: ['payment_method'] }), 'payment_provider_unavailable');
    return chargeOf(intent);
  }
}

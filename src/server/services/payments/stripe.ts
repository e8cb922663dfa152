import { z } from 'zod';
import { ApiFailure } from '../../lib/api.ts';
import type { CardMethod, Charge, ChargeRequest, PaymentProvider } from './provider.ts';

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
  return {
    secretKey,
    publishableKey,
    webhookSecret: webhookSecret === '' ? null : webhookSecret,
    apiBase: env.STRIPE_API_BASE ?? 'https://api.stripe.com',
  };
}

const cardSchema = z.object({ brand: z.string(), last4: z.string() });
const paymentMethodSchema = z.object({ id: z.string(), card: cardSchema.nullish() });
const customerSchema = z.object({
  id: z.string(),
  invoice_settings: z.object({ default_payment_method: z.union([z.string(), paymentMethodSchema]).nullable() }).nullish(),
});
const paymentIntentSchema = z.object({
  id: z.string(),
  status: z.string(),
  client_secret: z.string().nullable(),
  payment_method: z.union([z.string(), paymentMethodSchema]).nullable(),
  customer: z.string().nullable().optional(),
  last_payment_error: z.object({ message: z.string().optional() }).nullable().optional(),
});
const errorSchema = z.object({
  error: z.object({
    type: z.string().optional(),
    code: z.string().optional(),
    message: z.string().optional(),
    payment_intent: paymentIntentSchema.optional(),
  }),
});
type PaymentIntent = z.infer<typeof paymentIntentSchema>;

/** Form-encodes Stripe's nested parameters: `{metadata: {guest_id: 1}}` → `metadata[guest_id]=1`. */
export function formEncode(params: Readonly<Record<string, unknown>>, prefix = ''): URLSearchParams {
  const form = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    const name = prefix === '' ? key : `${prefix}[${key}]`;
    if (value === undefined || value === null) continue;
    if (typeof value === 'object') {
      for (const [nested, nestedValue] of formEncode(value as Record<string, unknown>, name)) form.append(nested, nestedValue);
    } else {
      form.append(name, String(value));
    }
  }
  return form;
}

function methodOf(value: PaymentIntent['payment_method']): CardMethod | null {
  if (value === null || typeof value === 'string' || value.card == null) return null;
  return { id: value.id, brand: value.card.brand, last4: value.card.last4 };
}

function chargeOf(intent: PaymentIntent): Charge {
  const status = intent.status === 'succeeded' ? 'succeeded' : intent.status === 'requires_action' ? 'requires_action' : 'failed';
  return {
    id: intent.id,
    status,
    clientSecret: status === 'requires_action' ? intent.client_secret : null,
    failure: status === 'failed' ? (intent.last_payment_error?.message ?? `The payment is ${intent.status}.`) : null,
    method: methodOf(intent.payment_method),
    customerId: intent.customer ?? null,
  };
}

/** A Stripe answer that is not a success: a card error (HTTP 402) or anything else. */
class StripeError extends Error {
  constructor(
    readonly status: number,
    readonly body: z.infer<typeof errorSchema> | null,
  ) {
    super(`Stripe answered ${status}: ${body?.error.message ?? 'no error message'}`);
    this.name = 'StripeError';
  }
}

/**
 * Stripe through its REST API with `fetch` (form-encoded bodies, the secret
 * key as a bearer token): a customer per guest, the card as a PaymentMethod
 * attached to it, and a PaymentIntent per charge, confirmed at once.
 */
export class StripePaymentProvider implements PaymentProvider {
  readonly name = 'stripe';
  readonly publishableKey: string;

  constructor(
    private readonly settings: StripeSettings,
    private readonly fetchFn: typeof fetch = fetch,
  ) {
    this.publishableKey = settings.publishableKey;
  }

  private async request<Schema extends z.ZodType>(
    method: 'GET' | 'POST',
    path: string,
    schema: Schema,
    params: Readonly<Record<string, unknown>> = {},
    idempotencyKey?: string,
  ): Promise<z.output<Schema>> {
    const form = formEncode(params);
    const url = new URL(path, this.settings.apiBase);
    if (method === 'GET') url.search = form.toString();
    const headers: Record<string, string> = { authorization: `Bearer ${this.settings.secretKey}` };
    if (method === 'POST') headers['content-type'] = 'application/x-www-form-urlencoded';
    if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey;
    let response: Response;
    let json: unknown;
    try {
      response = await this.fetchFn(url, { method, headers, body: method === 'POST' ? form.toString() : undefined, signal: AbortSignal.timeout(20_000) });
      json = await response.json();
    } catch {
      throw new ApiFailure('payment_provider_unavailable');
    }
    if (!response.ok) {
      const parsed = errorSchema.safeParse(json);
      throw new StripeError(response.status, parsed.success ? parsed.data : null);
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) throw new ApiFailure('payment_provider_unavailable');
    return parsed.data;
  }

  /** Runs a call; a card Stripe refuses to read becomes `failure`, and any other Stripe error 'payment_provider_unavailable'. */
  private async guarded<Result>(call: () => Promise<Result>, failure: 'card_token_unknown' | 'payment_provider_unavailable'): Promise<Result> {
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof StripeError)) throw error;
      throw new ApiFailure(error.status >= 400 && error.status < 500 ? failure : 'payment_provider_unavailable');
    }
  }

  async attachCard(token: string, customer: { id: string | null; email: string; guestId: number }): Promise<{ customerId: string; method: CardMethod }> {
    const customerId =
      customer.id ??
      (
        await this.guarded(
          () => this.request('POST', '/v1/customers', customerSchema, { email: customer.email, metadata: { guest_id: customer.guestId } }, `customer-${customer.guestId}`),
          'payment_provider_unavailable',
        )
      ).id;
    const attached = await this.guarded(
      () => this.request('POST', `/v1/payment_methods/${encodeURIComponent(token)}/attach`, paymentMethodSchema, { customer: customerId }),
      'card_token_unknown',
    );
    if (attached.card == null) throw new ApiFailure('card_token_unknown');
    return { customerId, method: { id: attached.id, brand: attached.card.brand, last4: attached.card.last4 } };
  }

  async makeDefault(customerId: string, methodId: string): Promise<string> {
    await this.guarded(
      () => this.request('POST', `/v1/customers/${encodeURIComponent(customerId)}`, customerSchema, { invoice_settings: { default_payment_method: methodId } }),
      'payment_provider_unavailable',
    );
    return customerId;
  }

  async defaultMethod(customerId: string): Promise<string | null> {
    const customer = await this.guarded(() => this.request('GET', `/v1/customers/${encodeURIComponent(customerId)}`, customerSchema), 'payment_provider_unavailable');
    const method = customer.invoice_settings?.default_payment_method ?? null;
    return typeof method === 'string' || method === null ? method : method.id;
  }

  async charge(request: ChargeRequest): Promise<Charge> {
    const params = {
      amount: request.amountYen,
      currency: 'jpy',
      customer: request.customerId,
      payment_method: request.methodId,
      payment_method_types: { 0: 'card' },
      confirm: true,
      off_session: request.offSession ? true : undefined,
      description: request.description,
      metadata: { guest_id: request.guestId },
      expand: { 0: 'payment_method' },
    };
    try {
      return chargeOf(await this.request('POST', '/v1/payment_intents', paymentIntentSchema, params, request.idempotencyKey));
    } catch (error) {
      // A declined card is HTTP 402 carrying the failed PaymentIntent.
      const intent = error instanceof StripeError ? error.body?.error.payment_intent : undefined;
      if (error instanceof StripeError && error.status === 402 && intent !== undefined) {
        return { ...chargeOf(intent), status: 'failed', clientSecret: null, failure: error.body?.error.message ?? 'Your card was declined.' };
      }
      if (error instanceof StripeError) throw new ApiFailure(error.status === 402 ? 'card_authentication_failed' : 'payment_provider_unavailable');
      throw error;
    }
  }

  async retrieve(paymentId: string): Promise<Charge> {
    const intent = await this.guarded(
      () => this.request('GET', `/v1/payment_intents/${encodeURIComponent(paymentId)}`, paymentIntentSchema, { expand: { 0: 'payment_method' } }),
      'payment_provider_unavailable',
    );
    return chargeOf(intent);
  }
}

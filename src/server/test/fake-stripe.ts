import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Stripe's test PaymentMethods that are declined, with the error Stripe answers for each (https://docs.stripe.com/testing#declined-payments). */
const DECLINED_METHODS: Readonly<Record<string, { last4: string; code: string; decline_code: string; message: string }>> = {
  pm_card_chargeDeclined: { last4: '0002', code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' },
  pm_card_visa_chargeDeclinedInsufficientFunds: {
    last4: '9995',
    code: 'card_declined',
    decline_code: 'insufficient_funds',
    message: 'Your card has insufficient funds.',
  },
  pm_card_chargeDeclinedExpiredCard: { last4: '0069', code: 'expired_card', decline_code: 'expired_card', message: 'Your card has expired.' },
  pm_card_chargeDeclinedIncorrectCvc: {
    last4: '0127',
    code: 'incorrect_cvc',
    decline_code: 'incorrect_cvc',
    message: "Your card's security code is incorrect.",
  },
};

/**
 * Stripe's REST API as far as the provider (the official library) uses it, in memory: customers,
 * test PaymentMethods (pm_card_visa succeeds, pm_card_threeDSecure2Required
 * asks for authentication, those of `DECLINED_METHODS` are declined) and
 * PaymentIntents. Every request is recorded. A deleted customer is gone
 * (404 `resource_missing`); while `down` is set every request answers a
 * server error Stripe says not to retry.
 */
export class FakeStripe {
  readonly requests: { method: string; path: string; headers: Record<string, string | string[] | undefined>; form: URLSearchParams }[] = [];
  readonly intents = new Map<string, { id: string; status: string; customer: string; payment_method: string; client_secret: string }>();
  private readonly defaults = new Map<string, string>();
  private readonly deleted = new Set<string>();
  /** Every request fails with a 500 until it is unset. */
  down = false;
  private readonly server: Server;
  private count = 0;

  constructor() {
    this.server = createServer((request, response) => {
      let raw = '';
      request.on('data', (chunk: Buffer) => (raw += chunk.toString()));
      request.on('end', () => {
        const url = new URL(request.url ?? '/', 'http://stripe.test');
        const form = new URLSearchParams(request.method === 'GET' ? url.search : raw);
        this.requests.push({ method: request.method ?? '', path: url.pathname, headers: request.headers, form });
        const [status, body] = this.down
          ? [500, { error: { type: 'api_error', message: 'Stripe is down.' } }]
          : this.answer(request.method ?? '', url.pathname, form, request.headers.authorization);
        response.writeHead(status, { 'content-type': 'application/json', 'stripe-should-retry': 'false' }).end(JSON.stringify(body));
      });
    });
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private method(id: string) {
    const last4 = { pm_card_visa: '4242', pm_card_threeDSecure2Required: '3155' }[id] ?? DECLINED_METHODS[id]?.last4;
    return last4 === undefined ? null : { id, object: 'payment_method', card: { brand: 'visa', last4 } };
  }

  private intentBody(intent: { id: string; status: string; customer: string; payment_method: string; client_secret: string }) {
    return { ...intent, object: 'payment_intent', payment_method: this.method(intent.payment_method), last_payment_error: null };
  }

  private answer(method: string, path: string, form: URLSearchParams, authorization: string | undefined): [number, unknown] {
    if (authorization !== 'Bearer sk_test_fake') return [401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } }];
    let match: RegExpExecArray | null;
    if (method === 'POST' && path === '/v1/customers') {
      this.count += 1;
      return [200, { id: `cus_${this.count}`, object: 'customer', invoice_settings: { default_payment_method: null } }];
    }
    if ((match = /^\/v1\/customers\/([^/]+)$/.exec(path)) !== null) {
      const id = match[1] ?? '';
      if (this.deleted.has(id)) return [404, { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such customer: '${id}'` } }];
      if (method === 'DELETE') {
        this.deleted.add(id);
        return [200, { id, object: 'customer', deleted: true }];
      }
      const chosen = form.get('invoice_settings[default_payment_method]');
      if (method === 'POST' && chosen !== null) this.defaults.set(id, chosen);
      return [200, { id, object: 'customer', invoice_settings: { default_payment_method: this.defaults.get(id) ?? null } }];
    }
    if ((match = /^\/v1\/payment_methods\/([^/]+)\/attach$/.exec(path)) !== null) {
      const found = this.method(match[1] ?? '');
      return found === null ? [404, { error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such PaymentMethod' } }] : [200, found];
    }
    if (method === 'POST' && path === '/v1/payment_intents') {
      this.count += 1;
      const paymentMethod = form.get('payment_method') ?? '';
      const id = `pi_${this.count}`;
      const status = paymentMethod === 'pm_card_threeDSecure2Required' ? 'requires_action' : 'succeeded';
      const intent = { id, status, customer: form.get('customer') ?? '', payment_method: paymentMethod, client_secret: `${id}_secret_abc` };
      const refusal = DECLINED_METHODS[paymentMethod];
      if (refusal !== undefined) {
        const declined = { ...intent, status: 'requires_payment_method' };
        this.intents.set(id, declined);
        const { code, decline_code, message } = refusal;
        return [402, { error: { type: 'card_error', code, decline_code, message, payment_intent: this.intentBody(declined) } }];
      }
      this.intents.set(id, intent);
      return [200, this.intentBody(intent)];
    }
    if ((match = /^\/v1\/payment_intents\/([^/]+)$/.exec(path)) !== null) {
      const intent = this.intents.get(match[1] ?? '');
      return intent === undefined ? [404, { error: { type: 'invalid_request_error', message: 'No such payment_intent' } }] : [200, this.intentBody(intent)];
    }
    return [404, { error: { message: `Unrecognized request URL (${method}: ${path})` } }];
  }
}

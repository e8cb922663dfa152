import { createHmac } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guests, paymentEvents, payments } from '../../db/schema/index.ts';
import { FakeStripe } from '../../test/fake-stripe.ts';
import { apiBlock, credentials, fail, signUp, succeed, useTestServer } from '../../test/harness.ts';
import { signedStripeEvent } from '../../routes/payments/stripe-webhook.ts';
import { declineOf, STRIPE_API_VERSION, StripePaymentProvider, stripeSettingsFrom } from './stripe.ts';

const WEBHOOK_SECRET = 'whsec_test_secret';
const fake = new FakeStripe();
let stripeBase = '';

beforeAll(async () => {
  stripeBase = await fake.start();
  Object.assign(process.env, {
    STRIPE_SECRET_KEY: 'sk_test_fake',
    STRIPE_PUBLISHABLE_KEY: 'pk_test_fake',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_BASE: stripeBase,
  });
});
const server = useTestServer();
afterAll(async () => {
  for (const name of ['STRIPE_SECRET_KEY', 'STRIPE_PUBLISHABLE_KEY', 'STRIPE_WEBHOOK_SECRET', 'STRIPE_API_BASE']) Reflect.deleteProperty(process.env, name);
  await fake.stop();
});

function provider(): StripePaymentProvider {
  return new StripePaymentProvider({ secretKey: 'sk_test_fake', publishableKey: 'pk_test_fake', webhookSecret: WEBHOOK_SECRET, apiBase: stripeBase });
}

function sign(payload: string, timestamp = Math.floor(Date.now() / 1000), secret = WEBHOOK_SECRET): string {
  return `t=${timestamp},v1=${createHmac('sha256', secret).update(`${timestamp}.${payload}`).digest('hex')}`;
}

function deliver(payload: string, signature: string | undefined) {
  return server.app.inject({
    method: 'POST',
    url: '/api/payments/stripe/webhook',
    payload,
    headers: { 'content-type': 'application/json', ...(signature === undefined ? {} : { 'stripe-signature': signature }) },
  });
}

function succeededEvent(eventId: string, intentId: string): string {
  return JSON.stringify({ id: eventId, object: 'event', type: 'payment_intent.succeeded', data: { object: { id: intentId, object: 'payment_intent' } } });
}

describe('the Stripe provider through the official library', () => {
  it('makes a customer, attaches the card and charges it in yen with the idempotency key, on the pinned API version', async () => {
    const stripe = provider();
    const { customerId, method } = await stripe.attachCard('pm_card_visa', { id: null, email: 'a@example.com', guestId: 9 });
    expect(method).toEqual({ id: 'pm_card_visa', brand: 'visa', last4: '4242' });
    const customer = fake.requests.find((request) => request.path === '/v1/customers');
    expect(customer?.headers['idempotency-key']).toBe('customer-9');
    expect(Object.fromEntries(customer?.form ?? [])).toEqual({ email: 'a@example.com', 'metadata[guest_id]': '9' });
    const charge = await stripe.charge({
      customerId,
      methodId: method.id,
      amountYen: 2710,
      description: 'd',
      guestId: 9,
      offSession: false,
      idempotencyKey: 'key-1',
    });
    expect(charge).toMatchObject({ status: 'succeeded', method: { last4: '4242' }, customerId });
    const sent = fake.requests.find((request) => request.path === '/v1/payment_intents');
    expect(sent?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(sent?.headers['stripe-version']).toBe(STRIPE_API_VERSION);
    expect(sent?.headers['idempotency-key']).toBe('key-1');
    expect(Object.fromEntries(sent?.form ?? [])).toEqual({
      amount: '2710',
      currency: 'jpy',
      customer: customerId,
      payment_method: 'pm_card_visa',
      'allowed_payment_method_types[0]': 'card',
      confirm: 'true',
      description: 'd',
      'metadata[guest_id]': '9',
      'expand[0]': 'payment_method',
    });
    // Every request names the pinned version, whatever the account's default.
    expect(new Set(fake.requests.map((request) => request.headers['stripe-version']))).toEqual(new Set([STRIPE_API_VERSION]));
  });

  it('hands back the client secret of a card that asks for authentication, and a declined card as a failed charge', async () => {
    const stripe = provider();
    const base = { customerId: 'cus_x', amountYen: 7500, description: 'd', guestId: 9, idempotencyKey: 'k' };
    const pending = await stripe.charge({ ...base, methodId: 'pm_card_threeDSecure2Required', offSession: false, idempotencyKey: 'k2' });
    expect(pending).toMatchObject({ status: 'requires_action', clientSecret: `${pending.id}_secret_abc` });
    const declined = await stripe.charge({ ...base, methodId: 'pm_card_chargeDeclined', offSession: true, idempotencyKey: 'k3' });
    expect(declined).toMatchObject({ status: 'failed', failure: 'Your card was declined.', decline: 'card_declined', clientSecret: null });
    expect(fake.requests.at(-1)?.form.get('off_session')).toBe('true');
  });

  it('names the decline of each refused card: its decline code first, else its code, else other', () => {
    expect(declineOf({ code: 'card_declined', decline_code: 'insufficient_funds' })).toBe('insufficient_funds');
    expect(declineOf({ code: 'card_declined', decline_code: 'generic_decline' })).toBe('card_declined');
    expect(declineOf({ code: 'expired_card' })).toBe('expired_card');
    expect(declineOf({ code: 'incorrect_cvc', decline_code: 'incorrect_cvc' })).toBe('incorrect_cvc');
    expect(declineOf({ code: 'payment_intent_authentication_failure' })).toBe('authentication_failed');
    expect(declineOf({ code: 'card_declined', decline_code: 'fraudulent' })).toBe('card_declined');
    expect(declineOf({ code: 'processing_error' })).toBe('other');
    expect(declineOf(null)).toBe('other');
  });

  it('keeps the default card on the customer and reads it back', async () => {
    const stripe = provider();
    expect(await stripe.makeDefault('cus_d', 'pm_card_visa')).toBe('cus_d');
    expect(await stripe.defaultMethod('cus_d')).toBe('pm_card_visa');
  });

  it('deletes a customer with customers.del, and counts one already deleted as deleted', async () => {
    const stripe = provider();
    await stripe.deleteCustomer('cus_gone');
    await stripe.deleteCustomer('cus_gone');
    const deletes = fake.requests.filter((request) => request.method === 'DELETE');
    expect(deletes.map((request) => request.path)).toEqual(['/v1/customers/cus_gone', '/v1/customers/cus_gone']);
    expect(deletes[0]?.headers['stripe-version']).toBe(STRIPE_API_VERSION);
    fake.down = true;
    try {
      await expect(stripe.deleteCustomer('cus_other')).rejects.toMatchObject({ key: 'payment_provider_unavailable' });
    } finally {
      fake.down = false;
    }
  });

  it('turns an unknown card into a clear error, and an unreachable or unauthorised Stripe into "could not be reached"', async () => {
    await expect(provider().attachCard('pm_unknown', { id: 'cus_1', email: 'a@example.com', guestId: 1 })).rejects.toMatchObject({ key: 'card_token_unknown' });
    const wrongKey = new StripePaymentProvider({ secretKey: 'sk_wrong', publishableKey: 'pk', webhookSecret: null, apiBase: stripeBase });
    await expect(wrongKey.defaultMethod('cus_1')).rejects.toMatchObject({ key: 'payment_provider_unavailable' });
    const nowhere = new StripePaymentProvider({ secretKey: 'sk_test_fake', publishableKey: 'pk', webhookSecret: null, apiBase: 'http://127.0.0.1:9' });
    await expect(nowhere.retrieve('pi_1')).rejects.toMatchObject({ key: 'payment_provider_unavailable' });
  });

  it('reads STRIPE_API_BASE as an origin, and names the variable when it is not one', () => {
    const keys = { STRIPE_SECRET_KEY: 'sk', STRIPE_PUBLISHABLE_KEY: 'pk' };
    expect(stripeSettingsFrom(keys)?.apiBase).toBe('https://api.stripe.com');
    expect(stripeSettingsFrom({ ...keys, STRIPE_API_BASE: 'http://127.0.0.1:12111' })?.apiBase).toBe('http://127.0.0.1:12111');
    for (const base of ['api.stripe.com', 'ftp://api.stripe.com', 'https://api.stripe.com/v1']) {
      expect(() => stripeSettingsFrom({ ...keys, STRIPE_API_BASE: base })).toThrow(/^STRIPE_API_BASE must be an http\(s\) origin/);
    }
  });
});

describe('the app under Stripe', () => {
  it('gives the browser the provider and publishable key, and refuses the local card form', async () => {
    expect(await succeed(server.app, '/payments/config', { api: apiBlock() })).toMatchObject({ provider: 'stripe', publishableKey: 'pk_test_fake' });
    const guest = await signUp(server.app);
    const card = { number: '4242424242424242', expMonth: 1, expYear: 2040, cvc: '123' };
    expect(await fail(server.app, '/payments/local/token', { api: apiBlock(), guest: credentials(guest), card })).toBe(
      'This call belongs to the other card payment provider.',
    );
  });

  it('subscribes with a card that succeeds, and with one that needs confirming once the browser has confirmed it (re-read)', async () => {
    const guest = await signUp(server.app);
    const light = await succeed(server.app, '/guest/subscribe', {
      api: apiBlock(),
      guest: credentials(guest),
      subscription: { plan: 5, token: 'pm_card_visa' },
    });
    expect(light).toMatchObject({ clientSecret: null, subscription: { plan: 5, card: { last4: '4242' } } });
    const pending = await succeed(server.app, '/guest/subscribe', {
      api: apiBlock(),
      guest: credentials(guest),
      subscription: { plan: 3, token: 'pm_card_threeDSecure2Required' },
    });
    const clientSecret = String(pending.clientSecret);
    expect(pending).toMatchObject({ subscription: { plan: 5 } });
    const intent = fake.intents.get(clientSecret.split('_secret_')[0] ?? '');
    if (intent === undefined) throw new Error('no intent');
    intent.status = 'succeeded';
    const settled = await succeed(server.app, '/payments/settle', { api: apiBlock(), guest: credentials(guest), payment: { clientSecret } });
    expect(settled).toMatchObject({ subscription: { plan: 3, card: { last4: '3155' } } });
    const [row] = await server.app.db.select().from(guests).where(eq(guests.id, guest.id));
    expect(row?.paymentCustomerId).toMatch(/^cus_/);
  });

  it("answers each of Stripe's declined test cards with its decline and the amount, the plan unchanged", async () => {
    const guest = await signUp(server.app);
    const cards = [
      ['pm_card_chargeDeclined', 'card_declined'],
      ['pm_card_visa_chargeDeclinedInsufficientFunds', 'insufficient_funds'],
      ['pm_card_chargeDeclinedExpiredCard', 'expired_card'],
      ['pm_card_chargeDeclinedIncorrectCvc', 'incorrect_cvc'],
    ] as const;
    for (const [token, decline] of cards) {
      const answer = await succeed(server.app, '/guest/subscribe', { api: apiBlock('ja'), guest: credentials(guest), subscription: { plan: 3, token } });
      expect(answer).toMatchObject({ clientSecret: null, payment: { status: 'failed', decline }, subscription: { plan: 1, card: null } });
    }
  });
});

describe('the Stripe webhook', () => {
  async function pendingSubscription(): Promise<{ guestId: number; intentId: string }> {
    const guest = await signUp(server.app);
    const pending = await succeed(server.app, '/guest/subscribe', {
      api: apiBlock(),
      guest: credentials(guest),
      subscription: { plan: 3, token: 'pm_card_threeDSecure2Required' },
    });
    const intentId = String(pending.clientSecret).split('_secret_')[0] ?? '';
    const intent = fake.intents.get(intentId);
    if (intent === undefined) throw new Error('no intent');
    intent.status = 'succeeded';
    return { guestId: guest.id, intentId };
  }

  async function planOf(guestId: number): Promise<number | undefined> {
    const [row] = await server.app.db.select({ plan: guests.subscriptionPlan }).from(guests).where(eq(guests.id, guestId));
    return row?.plan;
  }

  it('checks the signature over the raw body: good, wrong, tampered, stale, missing; then the shape of the event', () => {
    const payload = succeededEvent('evt_1', 'pi_1');
    const body = Buffer.from(payload);
    const now = Date.now();
    expect(signedStripeEvent(body, sign(payload), WEBHOOK_SECRET, now)).toMatchObject({
      id: 'evt_1',
      type: 'payment_intent.succeeded',
      data: { object: { id: 'pi_1' } },
    });
    // Within the 5 minutes' tolerance, and past it.
    expect(signedStripeEvent(body, sign(payload, Math.floor(now / 1000) - 299), WEBHOOK_SECRET, now)).toMatchObject({ id: 'evt_1' });
    expect(signedStripeEvent(body, sign(payload, Math.floor(now / 1000) - 301), WEBHOOK_SECRET, now)).toBe('stripe_event_unsigned');
    expect(signedStripeEvent(body, sign(payload, undefined, 'whsec_other'), WEBHOOK_SECRET, now)).toBe('stripe_event_unsigned');
    expect(signedStripeEvent(Buffer.from(payload.replace('evt_1', 'evt_2')), sign(payload), WEBHOOK_SECRET, now)).toBe('stripe_event_unsigned');
    expect(signedStripeEvent(body, 'v1=abc', WEBHOOK_SECRET, now)).toBe('stripe_event_unsigned');
    expect(signedStripeEvent(body, undefined, WEBHOOK_SECRET, now)).toBe('stripe_event_unsigned');
    expect(signedStripeEvent(Buffer.from('not json'), sign('not json'), WEBHOOK_SECRET, now)).toBe('stripe_event_invalid');
    expect(signedStripeEvent(Buffer.from('{"id":"evt_1"}'), sign('{"id":"evt_1"}'), WEBHOOK_SECRET, now)).toBe('stripe_event_invalid');
  });

  it('refuses a bad or stale signature without touching the plan', async () => {
    const { guestId, intentId } = await pendingSubscription();
    const payload = succeededEvent('evt_bad', intentId);
    expect((await deliver(payload, sign(payload, undefined, 'whsec_other'))).statusCode).toBe(400);
    expect((await deliver(payload, sign(payload, Math.floor(Date.now() / 1000) - 600))).statusCode).toBe(400);
    expect((await deliver(payload, undefined)).statusCode).toBe(400);
    expect((await deliver('not json', sign('not json'))).statusCode).toBe(400);
    expect(await planOf(guestId)).toBe(1);
    expect(await server.app.db.select().from(paymentEvents).where(eq(paymentEvents.eventId, 'evt_bad'))).toEqual([]);
  });

  it('applies payment_intent.succeeded once, for the same event sent twice in a row', async () => {
    const { guestId, intentId } = await pendingSubscription();
    const payload = succeededEvent('evt_twice', intentId);
    const first = await deliver(payload, sign(payload));
    expect(first.statusCode).toBe(200);
    expect(await planOf(guestId)).toBe(3);
    const [before] = await server.app.db.select().from(guests).where(eq(guests.id, guestId));
    const second = await deliver(payload, sign(payload));
    expect(second.statusCode).toBe(200);
    const [after] = await server.app.db.select().from(guests).where(eq(guests.id, guestId));
    expect(after?.subscriptionCreatedAt).toBe(before?.subscriptionCreatedAt);
    expect(await server.app.db.select().from(paymentEvents).where(eq(paymentEvents.eventId, 'evt_twice'))).toHaveLength(1);
  });

  it('applies an event delivered twice at once exactly once', async () => {
    const { guestId, intentId } = await pendingSubscription();
    const payload = succeededEvent('evt_concurrent', intentId);
    const answers = await Promise.all([deliver(payload, sign(payload)), deliver(payload, sign(payload)), deliver(payload, sign(payload))]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200]);
    expect(await planOf(guestId)).toBe(3);
    expect(await server.app.db.select().from(paymentEvents).where(eq(paymentEvents.eventId, 'evt_concurrent'))).toHaveLength(1);
    const rows = await server.app.db.select().from(payments).where(eq(payments.guestId, guestId));
    expect(rows.map((row) => row.status)).toEqual(['succeeded']);
  });

  it('records a failed payment and leaves the plan as it was', async () => {
    const { guestId, intentId } = await pendingSubscription();
    const intent = fake.intents.get(intentId);
    if (intent !== undefined) intent.status = 'requires_payment_method';
    const payload = JSON.stringify({ id: 'evt_failed', type: 'payment_intent.payment_failed', data: { object: { id: intentId, object: 'payment_intent' } } });
    expect((await deliver(payload, sign(payload))).statusCode).toBe(200);
    expect(await planOf(guestId)).toBe(1);
    const rows = await server.app.db.select().from(payments).where(eq(payments.guestId, guestId));
    expect(rows.map((row) => row.status)).toEqual(['failed']);
  });
});

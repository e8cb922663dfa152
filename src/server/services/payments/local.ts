import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/database.ts';
import { localCards, payments } from '../../db/schema/index.ts';
import { ApiFailure } from '../../lib/api.ts';
import type { Clock } from '../../lib/clock.ts';
import { hashToken, newToken } from '../../lib/secrets.ts';
import type { Decline } from '../../../shared/api/payments.ts';
import type { CardMethod, Charge, ChargeRequest, PaymentProvider } from './provider.ts';

type Outcome = (typeof localCards.$inferSelect)['outcome'];

/** Stripe's test cards the local provider knows, and what paying with each does (docs/payments.md, Local). */
const TEST_CARDS: Readonly<Record<string, { brand: string; outcome: Outcome }>> = {
  '4242424242424242': { brand: 'visa', outcome: 'succeed' },
  '4000002500003155': { brand: 'visa', outcome: 'authenticate' },
  '4000000000000002': { brand: 'visa', outcome: 'decline' },
  '4000000000009995': { brand: 'visa', outcome: 'insufficient_funds' },
  '4000000000000069': { brand: 'visa', outcome: 'expired_card' },
  '4000000000000127': { brand: 'visa', outcome: 'incorrect_cvc' },
  '4000000000000119': { brand: 'visa', outcome: 'processing_error' },
};

/** What a failed payment with a card of this outcome was refused for, and the words Stripe gives for it. */
const REFUSALS: Readonly<Record<Exclude<Outcome, 'succeed'>, { decline: Decline; failure: string }>> = {
  authenticate: { decline: 'authentication_failed', failure: 'Your card requires authentication.' },
  decline: { decline: 'card_declined', failure: 'Your card was declined.' },
  insufficient_funds: { decline: 'insufficient_funds', failure: 'Your card has insufficient funds.' },
  expired_card: { decline: 'expired_card', failure: 'Your card has expired.' },
  incorrect_cvc: { decline: 'incorrect_cvc', failure: "Your card's security code is incorrect." },
  processing_error: { decline: 'other', failure: 'An error occurred while processing your card.' },
};

/** The local provider's customer is the card itself: `lcus_<card id>`. */
const CUSTOMER_PREFIX = 'lcus_';
/** A local payment id names its card, so that a confirmed payment knows what it was paid with: `lpi_<card id>_<random>`. */
const PAYMENT_PREFIX = 'lpi_';

/** 128 random bits in hex, which never holds the '_' that separates the parts of an id. */
function randomHex(): string {
  return randomBytes(16).toString('hex');
}

export interface TypedCard {
  number: string;
  expMonth: number;
  expYear: number;
  cvc: string;
}

/**
 * The local provider (docs/payments.md), the default: it needs no network
 * and behaves like Stripe's test cards (`TEST_CARDS`) — 4242 4242 4242 4242
 * succeeds, 4000 0025 0000 3155 asks the guest to authenticate (the app's
 * confirm step), 4000 0000 0000 0002 is declined, and others are declined
 * for a reason. A card id is the SHA-256 of the token the browser holds.
 */
export class LocalPaymentProvider implements PaymentProvider {
  readonly name = 'local';
  readonly publishableKey = null;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  /**
   * Checks a typed card as Stripe's card form would and keeps only its
   * brand, last four and outcome; returns its token, or why the card is
   * refused (an unknown number, an impossible expiry, a malformed code).
   */
  async tokenise(card: TypedCard): Promise<{ card: { token: string; brand: string; last4: string }; decline: null } | { card: null; decline: Decline }> {
    const digits = card.number.replace(/[\s-]/g, '');
    const known = TEST_CARDS[digits];
    if (known === undefined) return { card: null, decline: 'incorrect_number' };
    const now = new Date(this.clock.now());
    const year = card.expYear < 100 ? 2000 + card.expYear : card.expYear;
    const expired = year < now.getUTCFullYear() || (year === now.getUTCFullYear() && card.expMonth < now.getUTCMonth() + 1);
    if (card.expMonth < 1 || card.expMonth > 12 || expired || year > now.getUTCFullYear() + 50) return { card: null, decline: 'invalid_expiry' };
    if (!/^[0-9]{3,4}$/.test(card.cvc)) return { card: null, decline: 'incorrect_cvc' };
    const token = newToken();
    const last4 = digits.slice(-4);
    await this.db.insert(localCards).values({ token: hashToken(token), brand: known.brand, last4, outcome: known.outcome, createdAt: this.clock.now() });
    return { card: { token, brand: known.brand, last4 }, decline: null };
  }

  private async card(cardId: string): Promise<typeof localCards.$inferSelect | undefined> {
    const [card] = await this.db.select().from(localCards).where(eq(localCards.token, cardId));
    return card;
  }

  private static method(card: typeof localCards.$inferSelect): CardMethod {
    return { id: card.token, brand: card.brand, last4: card.last4 };
  }

  async attachCard(token: string): Promise<{ customerId: string; method: CardMethod }> {
    const card = await this.card(hashToken(token));
    if (card === undefined) throw new ApiFailure('card_token_unknown');
    return { customerId: CUSTOMER_PREFIX + card.token, method: LocalPaymentProvider.method(card) };
  }

  async makeDefault(_customerId: string, methodId: string): Promise<string> {
    return CUSTOMER_PREFIX + methodId;
  }

  async defaultMethod(customerId: string): Promise<string | null> {
    return customerId.startsWith(CUSTOMER_PREFIX) ? customerId.slice(CUSTOMER_PREFIX.length) : null;
  }

  /** The local customer is its card: the card is forgotten. */
  async deleteCustomer(customerId: string): Promise<void> {
    const cardId = await this.defaultMethod(customerId);
    if (cardId !== null) await this.db.delete(localCards).where(eq(localCards.token, cardId));
  }

  async charge(request: ChargeRequest): Promise<Charge> {
    const card = await this.card(request.methodId);
    if (card === undefined) throw new ApiFailure('card_token_unknown');
    // From the idempotency key: the same key names the same payment, as at Stripe.
    const id = `${PAYMENT_PREFIX}${card.token}_${hashToken(request.idempotencyKey).slice(0, 32)}`;
    const method = LocalPaymentProvider.method(card);
    const customerId = CUSTOMER_PREFIX + card.token;
    if (card.outcome === 'succeed') return { id, status: 'succeeded', clientSecret: null, failure: null, decline: null, method, customerId };
    if (card.outcome === 'authenticate' && !request.offSession) {
      return { id, status: 'requires_action', clientSecret: `${id}_secret_${randomHex()}`, failure: null, decline: null, method, customerId };
    }
    // Off session, nobody is there to authenticate: the card fails as one that needs it.
    return { id, status: 'failed', clientSecret: null, ...REFUSALS[card.outcome], method, customerId };
  }

  /** A local payment as recorded (the local provider keeps no other record of it). */
  async retrieve(paymentId: string): Promise<Charge> {
    const [payment] = await this.db
      .select()
      .from(payments)
      .where(and(eq(payments.provider, 'local'), eq(payments.providerPaymentId, paymentId)));
    if (payment === undefined) throw new ApiFailure('payment_not_found');
    const cardId = paymentId.slice(PAYMENT_PREFIX.length, paymentId.indexOf('_', PAYMENT_PREFIX.length));
    const card = await this.card(cardId);
    return {
      id: paymentId,
      status: payment.status,
      clientSecret: null,
      failure: payment.failure,
      decline: payment.status !== 'failed' ? null : card === undefined || card.outcome === 'succeed' ? 'other' : REFUSALS[card.outcome].decline,
      method: card === undefined ? null : LocalPaymentProvider.method(card),
      customerId: card === undefined ? null : CUSTOMER_PREFIX + card.token,
    };
  }
}

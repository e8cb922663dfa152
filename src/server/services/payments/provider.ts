import type { Decline, PaymentProviderName } from '../../../shared/api/payments.ts';

/** A card attached to a customer: the id the provider charges, and what the guest is shown of it. */
export interface CardMethod {
  id: string;
  brand: string;
  last4: string;
}

/** A charge as the provider sees it. `failure` holds the provider's reason when it failed. */
export interface Charge {
  id: string;
  status: 'requires_action' | 'succeeded' | 'failed';
  /** Set while the payment waits for the guest to confirm it. */
  clientSecret: string | null;
  failure: string | null;
  /** Why it failed, as the code the app words (null unless it failed). */
  decline: Decline | null;
  method: CardMethod | null;
  /** The customer it was charged to, whose card on file it becomes once it succeeds. */
  customerId: string | null;
}

export interface ChargeRequest {
  customerId: string;
  methodId: string;
  amountYen: number;
  description: string;
  guestId: number;
  /** A renewal: no one is there to authenticate, so a card that asks for it fails. */
  offSession: boolean;
  /** The same key never charges twice (Stripe's Idempotency-Key). */
  idempotencyKey: string;
}

/**
 * A card payment provider (docs/payments.md): the local one, which behaves
 * like Stripe's test cards, or Stripe. A card the provider refuses, or a
 * provider out of reach, throws `ApiFailure`; a declined charge is a
 * `Charge` with status 'failed'.
 */
export interface PaymentProvider {
  readonly name: PaymentProviderName;
  /** What the browser needs to collect a card (Stripe's publishable key); null for the local provider. */
  readonly publishableKey: string | null;
  /** Attaches the card of `token` to the guest's customer (made when `customerId` is null). */
  attachCard(token: string, customer: { id: string | null; email: string; guestId: number }): Promise<{ customerId: string; method: CardMethod }>;
  /** Makes the card the one renewals charge; returns the customer id to keep. */
  makeDefault(customerId: string, methodId: string): Promise<string>;
  /** The card renewals charge, if the customer has one. */
  defaultMethod(customerId: string): Promise<string | null>;
  charge(request: ChargeRequest): Promise<Charge>;
  /** A charge read back, with its card. */
  retrieve(paymentId: string): Promise<Charge>;
  /**
   * Deletes the customer and its cards (the guest deleted the account):
   * nothing can be charged to it afterwards. A customer already gone counts
   * as deleted; a provider out of reach throws 'payment_provider_unavailable'.
   */
  deleteCustomer(customerId: string): Promise<void>;
}

import { index, integer, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { epochMs, guests } from './guests.ts';

export const PAYMENT_PROVIDERS = ['local', 'stripe'] as const;
export const PAYMENT_STATUSES = ['requires_action', 'succeeded', 'failed'] as const;

/**
 * A charge for a plan (docs/payments.md, Plans), through the local
 * provider or Stripe. The plan changes only once it has succeeded.
 */
export const payments = pgTable(
  'payments',
  {
    id: serial('id').primaryKey(),
    /** Null once the guest deleted the account: the payment stays, anonymised, for the books (docs/payments.md). */
    guestId: integer('guest_id').references(() => guests.id, { onDelete: 'set null' }),
    provider: text('provider', { enum: PAYMENT_PROVIDERS }).notNull(),
    /** The provider's id of the payment (a PaymentIntent id for Stripe). */
    providerPaymentId: text('provider_payment_id').notNull(),
    plan: integer('plan').notNull(),
    amountYen: integer('amount_yen').notNull(),
    status: text('status', { enum: PAYMENT_STATUSES }).notNull(),
    /** Why it failed, in the provider's words. */
    failure: text('failure'),
    createdAt: epochMs('created_at').notNull(),
    updatedAt: epochMs('updated_at').notNull(),
  },
  (table) => [uniqueIndex('payments_provider_id').on(table.provider, table.providerPaymentId), index('payments_guest_id').on(table.guestId)],
);

/** A Stripe webhook event handled: its id is the key, so each is handled once, concurrent duplicates included. */
export const paymentEvents = pgTable('payment_events', {
  eventId: text('event_id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: epochMs('received_at').notNull(),
});

/** A card the local provider tokenised (it behaves like Stripe's test cards); only the brand, last four and outcome are kept. */
export const localCards = pgTable('local_cards', {
  token: text('token').primaryKey(),
  brand: text('brand').notNull(),
  last4: text('last4').notNull(),
  /** What paying with it does: succeeds, asks for authentication, or is declined ('decline' plainly, the others for that reason). */
  outcome: text('outcome', {
    enum: ['succeed', 'authenticate', 'decline', 'insufficient_funds', 'expired_card', 'incorrect_cvc', 'processing_error'],
  }).notNull(),
  createdAt: epochMs('created_at').notNull(),
});

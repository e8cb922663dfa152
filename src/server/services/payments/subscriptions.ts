import { randomBytes } from 'node:crypto';
import { and, eq, inArray, lte } from 'drizzle-orm';
import type { PaymentOutcome, Subscription } from '../../../shared/api/payments.ts';
import { isGrantedPlan, PAID_PLAN_NAMES, paidPlanOf, PLANS } from '../../../shared/plans.ts';
import { timeZoneOfBrowserOffset } from '../../../shared/time-zone.ts';
import type { Database } from '../../db/database.ts';
import { guests, payments, type GuestRow } from '../../db/schema/index.ts';
import { ApiFailure } from '../../lib/api.ts';
import type { Clock } from '../../lib/clock.ts';
import { firstCycle, followingPayment } from './billing.ts';
import type { Charge, PaymentProvider } from './provider.ts';

/** What the payment calls need of the app. */
export interface PaymentsContext {
  db: Database;
  clock: Clock;
  provider: PaymentProvider;
}

/** What /subscription shows beside the guest. */
export function subscriptionOf(guest: GuestRow): Subscription {
  return {
    plan: guest.subscriptionPlan,
    paymentDay: guest.paymentDay,
    nextPaymentAt: guest.nextPaymentAt,
    expiredAt: guest.subscriptionExpiredAt,
    card: guest.cardBrand !== null && guest.cardLast4 !== null ? { brand: guest.cardBrand, last4: guest.cardLast4 } : null,
  };
}

/** The guest's customer at this provider, if they have one there (a change of provider starts afresh). */
export function customerAt(provider: PaymentProvider, guest: GuestRow): string | null {
  const id = guest.paymentCustomerId;
  if (id === null) return null;
  return (provider.name === 'stripe') === id.startsWith('cus_') ? id : null;
}

async function lockedGuest(db: Database, guestId: number): Promise<GuestRow> {
  const [guest] = await db.select().from(guests).where(eq(guests.id, guestId)).for('update');
  if (guest === undefined) throw new ApiFailure('authentication_failed');
  return guest;
}

/**
 * Records what became of a payment that was waiting (a new one, or one the
 * guest had to confirm) and, when it succeeded, starts its plan: the plan,
 * the payment day and first renewal counted from when the payment was made,
 * and its card as the card on file. A payment already settled is left as it
 * is, so a webhook and a re-read may both report the same outcome. Returns
 * the guest whose payment this call settled, or null.
 */
export async function settle(ctx: PaymentsContext, charge: Charge): Promise<number | null> {
  const keptCustomer = await keptCustomerOf(ctx, charge);
  return ctx.db.transaction((tx) => settleIn({ ...ctx, db: tx }, charge, keptCustomer));
}

/** The customer id to keep once `charge` has succeeded, its card made the default (before any transaction: it may call the provider). */
export async function keptCustomerOf(ctx: PaymentsContext, charge: Charge): Promise<string | null> {
  if (charge.status !== 'succeeded' || charge.method === null || charge.customerId === null) return null;
  return ctx.provider.makeDefault(charge.customerId, charge.method.id);
}

/** `settle` inside the caller's transaction (the webhook's, which holds the claim on its event). */
export async function settleIn(ctx: PaymentsContext, charge: Charge, keptCustomer: string | null): Promise<number | null> {
  const { db } = ctx;
  const now = ctx.clock.now();
  const [payment] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.provider, ctx.provider.name), eq(payments.providerPaymentId, charge.id)))
    .for('update');
  if (payment === undefined || payment.status !== 'requires_action' || charge.status === 'requires_action') return null;
  await db.update(payments).set({ status: charge.status, failure: charge.failure, updatedAt: now }).where(eq(payments.id, payment.id));
  // A failed payment changes no plan; nor does one whose guest has deleted the account (kept, anonymised: docs/payments.md).
  if (charge.status === 'failed' || payment.guestId === null) return payment.guestId;
  const guest = await lockedGuest(db, payment.guestId);
  const plan = paidPlanOf(payment.plan);
  if (plan === null) return payment.guestId;
  const cycle = firstCycle(payment.createdAt, timeZoneOfBrowserOffset(guest.timezone), PLANS[plan].priceYen);
  await db
    .update(guests)
    .set({
      subscriptionPlan: payment.plan,
      subscriptionCreatedAt: now,
      subscriptionExpiredAt: null,
      paymentDay: cycle.paymentDay,
      nextPaymentAt: cycle.nextPaymentAt,
      ...(keptCustomer !== null && charge.method !== null
        ? { paymentCustomerId: keptCustomer, cardBrand: charge.method.brand, cardLast4: charge.method.last4 }
        : {}),
      updatedAt: now,
    })
    .where(eq(guests.id, guest.id));
  return guest.id;
}

function idempotencyKey(): string {
  return randomBytes(16).toString('hex');
}

/**
 * `/guest/subscribe` to light or standard: the card is attached and the
 * prorated first month charged. Returns the payment, and its client secret
 * when the guest must confirm it; a declined card leaves the plan as it was
 * (the failed payment is kept) and its payment says why.
 */
export async function subscribe(
  ctx: PaymentsContext,
  guest: GuestRow,
  planCode: number,
  token: string,
): Promise<{ clientSecret: string | null; payment: PaymentOutcome }> {
  if (isGrantedPlan(planCode)) throw new ApiFailure('plan_by_application');
  const plan = paidPlanOf(planCode);
  if (plan === null) throw new ApiFailure('invalid_request', { fields: 'subscription.plan' });
  if (guest.subscriptionPlan === planCode) throw new ApiFailure('plan_already_current');
  const { customerId, method } = await ctx.provider.attachCard(token, { id: customerAt(ctx.provider, guest), email: guest.email, guestId: guest.id });
  const now = ctx.clock.now();
  const { amountYen } = firstCycle(now, timeZoneOfBrowserOffset(guest.timezone), PLANS[plan].priceYen);
  const charge = await ctx.provider.charge({
    customerId,
    methodId: method.id,
    amountYen,
    description: `Warden ${plan} plan, first month`,
    guestId: guest.id,
    offSession: false,
    idempotencyKey: idempotencyKey(),
  });
  // Recorded as waiting first, whatever the outcome, so that settling is one path for every provider and event.
  await ctx.db.insert(payments).values({
    guestId: guest.id,
    provider: ctx.provider.name,
    providerPaymentId: charge.id,
    plan: planCode,
    amountYen,
    status: 'requires_action',
    createdAt: now,
    updatedAt: now,
  });
  const payment = { status: charge.status, amountYen, decline: charge.decline };
  if (charge.status === 'requires_action') return { clientSecret: charge.clientSecret, payment };
  await settle(ctx, charge);
  return { clientSecret: null, payment };
}

/** The payment of this id, if it is the guest's. */
export async function paymentOf(ctx: PaymentsContext, guestId: number, providerPaymentId: string) {
  const [payment] = await ctx.db
    .select()
    .from(payments)
    .where(and(eq(payments.provider, ctx.provider.name), eq(payments.providerPaymentId, providerPaymentId), eq(payments.guestId, guestId)));
  if (payment === undefined) throw new ApiFailure('payment_not_found');
  return payment;
}

/** When a card plan ended at `now` leaves the trial to end: the end of the month already paid for. */
export function trialEndAfterPaidPlan(guest: Pick<GuestRow, 'nextPaymentAt'>, now: number): number {
  return Math.max(now, guest.nextPaymentAt ?? now);
}

/**
 * `/guest/unsubscribe` from light or standard: the plan ends at once and
 * the guest keeps booking on the trial plan until the end of the month
 * already paid for (docs/payments.md); nothing more is charged.
 */
export async function unsubscribe(ctx: PaymentsContext, guestId: number): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const guest = await lockedGuest(tx, guestId);
    if (paidPlanOf(guest.subscriptionPlan) === null) throw new ApiFailure('plan_not_paid');
    const now = ctx.clock.now();
    await tx
      .update(guests)
      .set({
        subscriptionPlan: PLANS.trial.code,
        subscriptionCreatedAt: now,
        subscriptionExpiredAt: trialEndAfterPaidPlan(guest, now),
        paymentDay: null,
        nextPaymentAt: null,
        updatedAt: now,
      })
      .where(eq(guests.id, guestId));
  });
}

/** `/guest/updateCard`: the card on file, which renewals charge, becomes this one. */
export async function updateCard(ctx: PaymentsContext, guest: GuestRow, token: string): Promise<void> {
  if (guest.cardLast4 === null) throw new ApiFailure('card_on_file_missing');
  const { customerId, method } = await ctx.provider.attachCard(token, { id: customerAt(ctx.provider, guest), email: guest.email, guestId: guest.id });
  const kept = await ctx.provider.makeDefault(customerId, method.id);
  await ctx.db
    .update(guests)
    .set({ paymentCustomerId: kept, cardBrand: method.brand, cardLast4: method.last4, updatedAt: ctx.clock.now() })
    .where(eq(guests.id, guest.id));
}

/**
 * Charges one due renewal with the card on file, off session. Paid, the
 * next renewal is a month on; declined (or a card that asks for
 * authentication nobody is there to give), the plan lapses to an expired
 * trial (docs/payments.md). The charge's idempotency key names the renewal,
 * so servers ticking at once charge it once, and only the first to record
 * it changes the guest. Returns whether the guest changed.
 */
async function renewOne(ctx: PaymentsContext, guest: GuestRow): Promise<boolean> {
  const plan = paidPlanOf(guest.subscriptionPlan);
  const { nextPaymentAt: dueAt, paymentDay } = guest;
  if (plan === null || dueAt === null || paymentDay === null) return false;
  const customerId = customerAt(ctx.provider, guest);
  const methodId = customerId === null ? null : await ctx.provider.defaultMethod(customerId);
  const charge =
    customerId === null || methodId === null
      ? null
      : await ctx.provider.charge({
          customerId,
          methodId,
          amountYen: PLANS[plan].priceYen,
          description: `Warden ${plan} plan, monthly`,
          guestId: guest.id,
          offSession: true,
          idempotencyKey: `renewal-${guest.id}-${dueAt}`,
        });
  const paid = charge?.status === 'succeeded';
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    if (charge !== null) {
      await tx
        .insert(payments)
        .values({
          guestId: guest.id,
          provider: ctx.provider.name,
          providerPaymentId: charge.id,
          plan: guest.subscriptionPlan,
          amountYen: PLANS[plan].priceYen,
          status: paid ? 'succeeded' : 'failed',
          failure: paid ? null : (charge.failure ?? 'The card needs authentication.'),
          createdAt: now,
          updatedAt: now,
        })
        .onConflictDoNothing();
    }
    const change = paid
      ? { nextPaymentAt: followingPayment(dueAt, paymentDay, timeZoneOfBrowserOffset(guest.timezone)) }
      : { subscriptionPlan: PLANS.trial.code, subscriptionCreatedAt: now, subscriptionExpiredAt: now, paymentDay: null, nextPaymentAt: null };
    const changed = await tx
      .update(guests)
      .set({ ...change, updatedAt: now })
      .where(and(eq(guests.id, guest.id), eq(guests.nextPaymentAt, dueAt), eq(guests.subscriptionPlan, guest.subscriptionPlan)))
      .returning({ id: guests.id });
    return changed.length > 0;
  });
}

/** Charges the renewals due by now; returns the guests whose subscription changed. */
export async function renewDue(ctx: PaymentsContext, limit = 50): Promise<number[]> {
  const due = await ctx.db
    .select()
    .from(guests)
    .where(
      and(
        inArray(
          guests.subscriptionPlan,
          PAID_PLAN_NAMES.map((name) => PLANS[name].code),
        ),
        lte(guests.nextPaymentAt, ctx.clock.now()),
      ),
    )
    .limit(limit);
  const changed: number[] = [];
  for (const guest of due) if (await renewOne(ctx, guest)) changed.push(guest.id);
  return changed;
}

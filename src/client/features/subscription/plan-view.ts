import type { Subscription } from '../../../shared/api/payments.ts';
import { lightHoursLeft, paidPlanOf, PLANS, planNamed, type PlanName } from '../../../shared/plans.ts';

/** The order /subscription lists the plans in: cheapest paid first, then those given on application. */
const OFFERED: readonly PlanName[] = ['light', 'standard', 'university', 'free'];

/** The plans as /subscription lists them; light and standard are paid by card, the others given on application. */
export const PLAN_OFFERS: readonly { name: PlanName; code: number; priceYen: number; byCard: boolean }[] = OFFERED.map((name) => ({
  name,
  code: PLANS[name].code,
  priceYen: PLANS[name].priceYen,
  byCard: PLANS[name].paidByCard,
}));

/** The name of a plan code (the trial for an unknown one). */
export function planNameOf(code: number): PlanName {
  return planNamed(code) ?? 'trial';
}

/** What the current-plan panel shows (docs/payments.md, Plans). */
export type CurrentPlan =
  | { name: 'light'; remainingHours: number; paymentDay: number | null }
  | { name: 'standard'; nextPaymentAt: number | null }
  | { name: 'trial' | 'university' | 'free'; expiresAt: number | null; expired: boolean };

/** Light: 15 hours less this month's; standard: the next payment; the others: when they end, or that they have. */
export function currentPlan(subscription: Subscription, totalDurationThisMonth: number, now: number): CurrentPlan {
  const name = planNameOf(subscription.plan);
  if (name === 'light') {
    return { name, remainingHours: lightHoursLeft(totalDurationThisMonth), paymentDay: subscription.paymentDay };
  }
  if (name === 'standard') return { name, nextPaymentAt: subscription.nextPaymentAt };
  const expiresAt = subscription.expiredAt;
  return { name, expiresAt, expired: expiresAt !== null && expiresAt <= now };
}

/** Subscribe appears off standard (docs/payments.md, Plans), for each paid plan but the current one. */
export function subscribablePlans(planCode: number): number[] {
  if (planCode === PLANS.standard.code) return [];
  return PLAN_OFFERS.filter((offer) => offer.byCard && offer.code !== planCode).map((offer) => offer.code);
}

/** Unsubscribe appears on standard or light. */
export function canUnsubscribe(planCode: number): boolean {
  return paidPlanOf(planCode) !== null;
}

/**
 * Month and year of a typed expiry date, the ways people type it from a card:
 * `12/29`, `12 / 29`, `12-29`, `12/2029`, or the digits alone (`1229`,
 * `122029`); null when it is not one (or the month is not 1 to 12).
 */
export function parseExpiry(text: string): { expMonth: number; expYear: number } | null {
  const typed = text.trim();
  const match = /^(\d{1,2})\s*[/\-.]\s*(\d{2}|\d{4})$/.exec(typed) ?? /^(\d{2})(\d{2}|\d{4})$/.exec(typed);
  if (match === null) return null;
  const expMonth = Number(match[1]);
  if (expMonth < 1 || expMonth > 12) return null;
  return { expMonth, expYear: Number(match[2]) };
}

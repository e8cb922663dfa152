import type { Subscription } from '../../../shared/api/payments.ts';
import { PLANS, SUBSCRIPTION_PLAN_CODES } from '../../../shared/constants.ts';

export type PlanCodeName = keyof typeof SUBSCRIPTION_PLAN_CODES;

/** The plans as /subscription lists them, cheapest paid first; light and standard are paid by card, the others given on application. */
export const PLAN_OFFERS: readonly { name: PlanCodeName; code: number; priceYen: number; byCard: boolean }[] = [
  { name: 'light', code: SUBSCRIPTION_PLAN_CODES.light, priceYen: PLANS.light.priceYen, byCard: true },
  { name: 'standard', code: SUBSCRIPTION_PLAN_CODES.standard, priceYen: PLANS.standard.priceYen, byCard: true },
  { name: 'university', code: SUBSCRIPTION_PLAN_CODES.university, priceYen: PLANS.university.priceYen, byCard: false },
  { name: 'free', code: SUBSCRIPTION_PLAN_CODES.free, priceYen: PLANS.school.priceYen, byCard: false },
];

/** The name of a plan code (the trial for an unknown one). */
export function planNameOf(code: number): PlanCodeName {
  const entry = Object.entries(SUBSCRIPTION_PLAN_CODES).find(([, value]) => value === code);
  return entry === undefined ? 'trial' : (entry[0] as PlanCodeName);
}

/** What the current-plan panel shows (SPEC §4). */
export type CurrentPlan =
  | { name: 'light'; remainingHours: number; paymentDay: number | null }
  | { name: 'standard'; nextPaymentAt: number | null }
  | { name: 'trial' | 'university' | 'free'; expiresAt: number | null; expired: boolean };

/** Light: 15 hours less this month's; standard: the next payment; the others: when they end, or that they have. */
export function currentPlan(subscription: Subscription, totalDurationThisMonth: number, now: number): CurrentPlan {
  const name = planNameOf(subscription.plan);
  if (name === 'light') {
    const remainingHours = Math.max(0, Math.round((PLANS.light.monthlyHours - totalDurationThisMonth) * 100) / 100);
    return { name, remainingHours, paymentDay: subscription.paymentDay };
  }
  if (name === 'standard') return { name, nextPaymentAt: subscription.nextPaymentAt };
  const expiresAt = subscription.expiredAt;
  return { name, expiresAt, expired: expiresAt !== null && expiresAt <= now };
}

/** Subscribe appears off standard (SPEC §4), for each paid plan but the current one. */
export function subscribablePlans(planCode: number): number[] {
  if (planCode === SUBSCRIPTION_PLAN_CODES.standard) return [];
  return PLAN_OFFERS.filter((offer) => offer.byCard && offer.code !== planCode).map((offer) => offer.code);
}

/** Unsubscribe appears on standard or light. */
export function canUnsubscribe(planCode: number): boolean {
  return planCode === SUBSCRIPTION_PLAN_CODES.standard || planCode === SUBSCRIPTION_PLAN_CODES.light;
}

/** Month and year of a typed expiry date, `MM/YY` or `MM/YYYY`; null when it is not one. */
export function parseExpiry(text: string): { expMonth: number; expYear: number } | null {
  const match = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(text);
  if (match === null) return null;
  return { expMonth: Number(match[1]), expYear: Number(match[2]) };
}

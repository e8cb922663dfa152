/**
 * The subscription plans (docs/rules.md): their names, the codes the
 * database stores, their prices, which a card pays for monthly, the light
 * plan's monthly hours and how long a plan granted on application runs.
 */
import { DAY_MS } from './durations.ts';

/** Every plan under the product's names (docs/payments.md, Plans), with the integer code the database stores. */
export const PLANS = {
  /** Trial plan; the banner shows the days left. */
  trial: { code: 1, priceYen: 0, paidByCard: false, monthlyHours: null, grantedDays: null },
  /** For students under 24, granted on application for a year; the Japanese text gives 1,500 yen. */
  university: { code: 2, priceYen: 1_500, paidByCard: false, monthlyHours: null, grantedDays: 365 },
  /** 7,500 yen a month with no limit. */
  standard: { code: 3, priceYen: 7_500, paidByCard: true, monthlyHours: null, grantedDays: null },
  /** Free for school students, granted on application for 100 days. */
  free: { code: 4, priceYen: 0, paidByCard: false, monthlyHours: null, grantedDays: 100 },
  /** 3,000 yen a month with up to 15 hours. */
  light: { code: 5, priceYen: 3_000, paidByCard: true, monthlyHours: 15, grantedDays: null },
} as const;

export type PlanName = keyof typeof PLANS;

/** Days left of a trial = floor(remaining ms / this). */
export const TRIAL_DAY_MS = DAY_MS;

/** A monthly plan is paid on the day of the month it began, or on the 28th when it began later. */
export const LAST_PAYMENT_DAY = 28;

/** The plans a card pays for, monthly. */
type PaidPlanName = { [Name in PlanName]: (typeof PLANS)[Name]['paidByCard'] extends true ? Name : never }[PlanName];

/** The plans granted on application, for a number of days. */
type GrantedPlanName = { [Name in PlanName]: (typeof PLANS)[Name]['grantedDays'] extends number ? Name : never }[PlanName];

export const PLAN_NAMES = Object.keys(PLANS) as PlanName[];

/** The codes of every plan, lowest first. */
export const PLAN_CODES: readonly number[] = PLAN_NAMES.map((name) => PLANS[name].code).sort((a, b) => a - b);

export const PAID_PLAN_NAMES = PLAN_NAMES.filter((name): name is PaidPlanName => PLANS[name].paidByCard);

export const GRANTED_PLAN_NAMES = PLAN_NAMES.filter((name): name is GrantedPlanName => PLANS[name].grantedDays !== null);

/** The name of a plan code, or null for a code no plan has. */
export function planNamed(code: number): PlanName | null {
  return PLAN_NAMES.find((name) => PLANS[name].code === code) ?? null;
}

/** The plan name of a code paid by card, else null. */
export function paidPlanOf(code: number): PaidPlanName | null {
  const name = planNamed(code);
  return name !== null && PLANS[name].paidByCard ? (name as PaidPlanName) : null;
}

/** Whether a code is one of the plans granted on application (not paid by card). */
export function isGrantedPlan(code: number): boolean {
  const name = planNamed(code);
  return name !== null && PLANS[name].grantedDays !== null;
}

/** The hours of jail a light plan has left this month (15 less those used), to the hundredth, never below 0. */
export function lightHoursLeft(totalDurationThisMonth: number): number {
  return Math.max(0, Math.round((PLANS.light.monthlyHours - totalDurationThisMonth) * 100) / 100);
}

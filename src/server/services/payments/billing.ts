import { LAST_PAYMENT_DAY } from '../../../shared/plans.ts';
import { dayNumber, fromLocal, toLocal, type LocalDate } from '../../../shared/time-zone.ts';

/** The first of the month after `date`'s. */
function firstOfNextMonth(date: LocalDate): LocalDate {
  return date.month === 12 ? { year: date.year + 1, month: 1, day: 1 } : { year: date.year, month: date.month + 1, day: 1 };
}

function daysInMonth(date: LocalDate): number {
  const first = { ...date, day: 1 };
  return dayNumber(firstOfNextMonth(first)) - dayNumber(first);
}

export interface FirstCycle {
  /** The day of the month the plan is paid on from now on (1-28). */
  paymentDay: number;
  /** The first renewal: midnight of the payment day next month, in the guest's time zone. */
  nextPaymentAt: number;
  /** The first month's price: `price × days until the payment day ÷ days in this month`, rounded to the yen. */
  amountYen: number;
}

/**
 * The first month of a monthly plan begun at `now` (docs/payments.md,
 * Prorating): paid on the day it began, or on the 28th when it began on the
 * 29th to the 31st, which makes the first month a few days short.
 */
export function firstCycle(now: number, timeZone: string, priceYen: number): FirstCycle {
  const today = toLocal(now, timeZone);
  const paymentDay = Math.min(today.day, LAST_PAYMENT_DAY);
  const next = { ...firstOfNextMonth(today), day: paymentDay };
  const daysLeft = dayNumber(next) - dayNumber(today);
  return {
    paymentDay,
    nextPaymentAt: fromLocal(next, 0, timeZone),
    amountYen: Math.round((priceYen * daysLeft) / daysInMonth(today)),
  };
}

/** The renewal after the one due at `dueAt`: the payment day of the following month. */
export function followingPayment(dueAt: number, paymentDay: number, timeZone: string): number {
  const month = firstOfNextMonth(toLocal(dueAt, timeZone));
  return fromLocal({ ...month, day: paymentDay }, 0, timeZone);
}

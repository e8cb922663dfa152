import { describe, expect, it } from 'vitest';
import { canUnsubscribe, currentPlan, parseExpiry, planNameOf, subscribablePlans } from './plan-view.ts';

const base = { paymentDay: null, nextPaymentAt: null, expiredAt: null, card: null };

describe('the current plan', () => {
  it('shows light as 15 hours less this month’s, with the payment day', () => {
    expect(currentPlan({ ...base, plan: 5, paymentDay: 12 }, 3.25, 0)).toEqual({ name: 'light', remainingHours: 11.75, paymentDay: 12 });
    expect(currentPlan({ ...base, plan: 5 }, 16, 0)).toMatchObject({ remainingHours: 0 });
  });

  it('shows standard with its next payment, and the expiring plans as running or ended', () => {
    expect(currentPlan({ ...base, plan: 3, nextPaymentAt: 99 }, 0, 0)).toEqual({ name: 'standard', nextPaymentAt: 99 });
    expect(currentPlan({ ...base, plan: 1, expiredAt: 100 }, 0, 50)).toEqual({ name: 'trial', expiresAt: 100, expired: false });
    expect(currentPlan({ ...base, plan: 4, expiredAt: 100 }, 0, 100)).toEqual({ name: 'free', expiresAt: 100, expired: true });
    expect(currentPlan({ ...base, plan: 2 }, 0, 0)).toEqual({ name: 'university', expiresAt: null, expired: false });
  });
});

describe('the buttons', () => {
  it('offers the paid plans but the current one, none on standard; unsubscribing on light and standard', () => {
    expect(subscribablePlans(1)).toEqual([5, 3]);
    expect(subscribablePlans(5)).toEqual([3]);
    expect(subscribablePlans(3)).toEqual([]);
    expect([1, 2, 3, 4, 5].filter(canUnsubscribe)).toEqual([3, 5]);
    expect(planNameOf(4)).toBe('free');
  });
});

describe('parseExpiry', () => {
  it.each([
    ['12/34', { expMonth: 12, expYear: 34 }],
    [' 1 / 2030 ', { expMonth: 1, expYear: 2030 }],
    ['1229', { expMonth: 12, expYear: 29 }],
    ['0129', { expMonth: 1, expYear: 29 }],
    ['122029', { expMonth: 12, expYear: 2029 }],
    ['12-29', { expMonth: 12, expYear: 29 }],
    ['12 / 29', { expMonth: 12, expYear: 29 }],
    ['12.2029', { expMonth: 12, expYear: 2029 }],
  ])('reads %j', (typed, expiry) => {
    expect(parseExpiry(typed)).toEqual(expiry);
  });

  it.each(['', '129', '12/345', '1329', '00/29', '12/2', 'December 29', '12/29/01'])('refuses %j', (typed) => {
    expect(parseExpiry(typed)).toBeNull();
  });
});

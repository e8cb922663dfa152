import { describe, expect, it } from 'vitest';
import { digitsOfCvc, formatExpiry, formatYen, groupCardNumber } from './card-format.ts';

describe('the card fields as they are typed', () => {
  it('groups the number in fours, whatever was typed between the digits', () => {
    expect(groupCardNumber('4')).toBe('4');
    expect(groupCardNumber('4242')).toBe('4242');
    expect(groupCardNumber('42424')).toBe('4242 4');
    expect(groupCardNumber('4242424242424242')).toBe('4242 4242 4242 4242');
    expect(groupCardNumber('4242-4242 4242.4242')).toBe('4242 4242 4242 4242');
    expect(groupCardNumber('4242 4242 4242 4242 9999 99')).toBe('4242 4242 4242 4242 999');
    expect(groupCardNumber('abc')).toBe('');
  });

  it('writes the expiry as MM/YY, the slash once the year begins', () => {
    expect(formatExpiry('1')).toBe('1');
    expect(formatExpiry('12')).toBe('12');
    expect(formatExpiry('123')).toBe('12/3');
    expect(formatExpiry('1234')).toBe('12/34');
    expect(formatExpiry('12/345')).toBe('12/34');
    expect(formatExpiry('4')).toBe('04');
    expect(formatExpiry('429')).toBe('04/29');
    expect(formatExpiry('12-29')).toBe('12/29');
    expect(formatExpiry('12/2029')).toBe('12/29');
    expect(formatExpiry('')).toBe('');
  });

  it('keeps up to four digits of the security code', () => {
    expect(digitsOfCvc('12a3')).toBe('123');
    expect(digitsOfCvc('123456')).toBe('1234');
  });
});

describe('the amount charged', () => {
  it('is written in yen as each language writes money', () => {
    expect(formatYen(2710, 'en')).toBe('¥2,710');
    expect(formatYen(7500, 'ja')).toBe('￥7,500');
  });
});

import { describe, expect, it } from 'vitest';
import {
  emailHasChanged,
  facilitatorDestination,
  hasChanged,
  isCompletePhoneCode,
  isLoggedInAs,
  normalizePhone,
  passwordAlert,
  sanitizePhoneCode,
  shouldRequestPhoneCode,
  signupAlert,
} from './rules.ts';

describe('sign-up', () => {
  it('asks to agree to the terms when the box is not ticked', () => {
    expect(signupAlert(false)).toBe('alert_terms');
    expect(signupAlert(true)).toBeNull();
  });
});

describe('password reset', () => {
  it("says 'Password doesn't match' when the two differ", () => {
    expect(passwordAlert('secret-one', 'secret-two')).toBe('alert_password_mismatch');
    expect(passwordAlert('secret-one', 'secret-one')).toBeNull();
    expect(passwordAlert('', '')).toBeNull();
  });
});

describe('title and e-mail edits', () => {
  it('skips the save when the title is unchanged', () => {
    expect(hasChanged('alice', 'alice')).toBe(false);
    expect(hasChanged('alice', ' alice ')).toBe(false);
    expect(hasChanged('alice', 'Alice')).toBe(true);
    expect(hasChanged(undefined, 'alice')).toBe(true);
  });
  it('compares e-mails without case', () => {
    expect(emailHasChanged('a@example.com', 'A@Example.com')).toBe(false);
    expect(emailHasChanged('a@example.com', 'b@example.com')).toBe(true);
  });
});

describe('phone', () => {
  it('normalizes a number to its digits and leading +', () => {
    expect(normalizePhone('090-1234-5678')).toBe('09012345678');
    expect(normalizePhone('+81 90 1234 5678')).toBe('+819012345678');
  });
  it('requests a code only when the number changed', () => {
    expect(shouldRequestPhoneCode(null, '090-1234-5678')).toBe(true);
    expect(shouldRequestPhoneCode('09012345678', '090-1234-5678')).toBe(false);
    expect(shouldRequestPhoneCode('09012345678', '090-1234-5679')).toBe(true);
    expect(shouldRequestPhoneCode('09012345678', '')).toBe(false);
  });
  it('keeps the code input numeric, six digits at most', () => {
    expect(sanitizePhoneCode('12a 34-56')).toBe('123456');
    expect(sanitizePhoneCode('12345678')).toBe('123456');
    expect(isCompletePhoneCode('123456')).toBe(true);
    expect(isCompletePhoneCode('12345')).toBe(false);
  });
});

describe('login flow', () => {
  const guest = { id: 7, title: 'alice', email: 'alice@example.com' };
  it('is logged in when the guest has an id and the title or e-mail matches', () => {
    expect(isLoggedInAs(guest, 'alice')).toBe(true);
    expect(isLoggedInAs(guest, 'Alice@Example.com')).toBe(true);
    expect(isLoggedInAs(guest, 'bob')).toBe(false);
    expect(isLoggedInAs(null, 'alice')).toBe(false);
    expect(isLoggedInAs({ ...guest, id: undefined as unknown as number }, 'alice')).toBe(false);
  });
  it('sends a facilitator to /filters, or /reservations while /filters does not exist', () => {
    expect(facilitatorDestination(true)).toBe('/filters');
    expect(facilitatorDestination(false)).toBe('/reservations');
  });
});

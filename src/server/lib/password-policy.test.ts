import { describe, expect, it } from 'vitest';
import { ApiFailure } from './api.ts';
import { assertPasswordNotGuessable } from './password-policy.ts';

function refusal(password: string, personal: string[] = []): string | null {
  try {
    assertPasswordNotGuessable(password, personal);
    return null;
  } catch (error) {
    if (error instanceof ApiFailure) return error.key;
    throw error;
  }
}

describe('assertPasswordNotGuessable', () => {
  it.each(['12345678', 'password', 'PASSWORD', 'Password123!', '!!letmein2024', 'iloveyou', 'qwertyuiop', 'sunshine1'])(
    'refuses the common password %s',
    (password) => {
      expect(refusal(password)).toBe('password_common');
    },
  );

  it.each(['warden2026', 'Warden!!', 'ワーデン12345', 'my-warden'])('refuses the service name in %s', (password) => {
    expect(refusal(password)).toBe('password_common');
  });

  it('refuses the account name or the local part of its address, not a password that merely contains a short name', () => {
    expect(refusal('hanako1990', ['Hanako', 'hanako.s@example.com'])).toBe('password_common');
    expect(refusal('Hanako.S!!', ['Hanako', 'hanako.s@example.com'])).toBe('password_common');
    expect(refusal('hanako likes long walks', ['Hanako', 'hanako.s@example.com'])).toBeNull();
    expect(refusal('bob-the-builder-of-sheds', ['bob'])).toBeNull();
  });

  it.each(['correct horse battery', 'a long password', 'tsukue no ue no ringo', '机の上のりんごを食べた'])('accepts %s', (password) => {
    expect(refusal(password)).toBeNull();
  });
});

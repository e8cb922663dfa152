import { describe, expect, it } from 'vitest';
import { guestCreateRequestSchema } from '../../shared/api/guest.ts';
import { placeRefusal, schemaErrors } from './fieldErrors.ts';

const SIGN_UP = guestCreateRequestSchema.shape.guest.pick({ title: true, email: true, password: true });

describe('placeRefusal', () => {
  const fields = { sign_in_failed: 'password', email_taken: 'email' } as const;

  it('puts a refusal beside the field its code concerns, in the server’s words', () => {
    const error = { status: 'FAILED', message: 'The username or password is wrong.', code: 'sign_in_failed' };
    expect(placeRefusal(error, fields)).toEqual({ field: 'password', message: 'The username or password is wrong.' });
  });

  it('puts a refusal that concerns none of the form’s fields, or names no code, in the banner', () => {
    expect(placeRefusal({ status: 'FAILED', message: 'Too many attempts.', code: 'too_many_requests' }, fields)).toEqual({ banner: 'Too many attempts.' });
    expect(placeRefusal({ status: 'FAILED', message: 'No.', code: 'not_a_key' }, fields)).toEqual({ banner: 'No.' });
    expect(placeRefusal({ status: 'FAILED', message: 'No.' }, fields)).toEqual({ banner: 'No.' });
  });

  it('leaves what is no refusal (offline, the server failing, a dropped call) to the base query', () => {
    for (const status of ['NO_INTERNET', 'FETCH_ERROR', 'SERVER_ERROR', 'ABORTED', 'SKIPPED', 500] as const) {
      expect(placeRefusal({ status, message: 'x' }, fields)).toBeNull();
    }
    expect(placeRefusal(new Error('thrown'), fields)).toBeNull();
  });
});

describe('schemaErrors', () => {
  it('names every wrong field at once, each in the server’s words in the language', () => {
    expect(schemaErrors(SIGN_UP, { title: 'a@b', email: 'nope', password: 'short' }, 'en')).toEqual({
      title: 'The username must be 1 to 50 characters and cannot contain @.',
      email: 'The e-mail address is not valid.',
      password: 'The password must be 8 to 128 characters.',
    });
    expect(schemaErrors(SIGN_UP, { title: 'ok', email: 'nope', password: 'long enough' }, 'ja')).toEqual({ email: expect.any(String) });
  });

  it('is empty when the values pass', () => {
    expect(schemaErrors(SIGN_UP, { title: 'ok', email: 'a@example.com', password: 'long enough' }, 'en')).toEqual({});
  });
});

import { describe, expect, it } from 'vitest';
import { accountTexts } from './texts.ts';
import { introTexts } from '../intro/texts.ts';

describe.each([
  ['account', accountTexts],
  ['intro', introTexts],
] as const)('%s texts', (_name, texts) => {
  it('has every key in both languages, none empty', () => {
    expect(Object.keys(texts.ja).sort()).toEqual(Object.keys(texts.en).sort());
    for (const language of ['en', 'ja'] as const) {
      for (const value of Object.values(texts[language])) expect(value.trim()).not.toBe('');
    }
  });
});

it('words the alerts as the product does', () => {
  expect(accountTexts.en.alert_terms).toBe('Please agree to the Terms and Conditions');
  expect(accountTexts.en.alert_password_mismatch).toBe("Password doesn't match");
  expect(accountTexts.en.alert_code_wrong).toBe('Your code is wrong');
  expect(accountTexts.en.verify_waiting).toBe('verifying...');
});

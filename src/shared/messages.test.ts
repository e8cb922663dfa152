import { describe, expect, it } from 'vitest';
import { LANGUAGES } from './constants.ts';
import { MESSAGES, message } from './messages.ts';

function placeholders(text: string): string[] {
  return [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1] ?? '').sort();
}

describe('messages', () => {
  it.each(Object.entries(MESSAGES))('%s has a text in every language with the same placeholders', (key, texts) => {
    for (const language of LANGUAGES) {
      const text: unknown = texts[language];
      expect(typeof text === 'string' && text.trim().length > 0, `${key}.${language}`).toBe(true);
      expect(placeholders(String(text)), `${key}.${language}`).toEqual(placeholders(texts.en));
    }
  });

  it('keeps the product’s fixed wording verbatim', () => {
    expect(message('en', 'phone_code_wrong')).toBe('Your code is wrong');
    expect(message('en', 'no_change_within_6_hours')).toBe('No change available within 6 hours.');
    expect(message('en', 'email_sent')).toBe('email sent.');
    expect(message('en', 'unverified')).toBe('To book a jail session, please first verify your account from the link previously sent to your email address.');
    expect(message('en', 'suspended', { resumeDateTime: '2025-01-08 09:00' })).toBe(
      'Your account is temporarily suspended because of three ignored jail within a week. Back to available at 2025-01-08 09:00',
    );
  });

  it('fills parameters and leaves unknown ones visible', () => {
    expect(message('ja', 'invalid_request', { fields: 'guest.email' })).toBe('リクエストの内容が正しくありません: guest.email。');
    expect(message('en', 'invalid_request')).toBe('The request is invalid: {fields}.');
  });
});

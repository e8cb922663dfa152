import { describe, expect, it } from 'vitest';
import { detectLanguage, t } from './i18n.ts';

describe('detectLanguage', () => {
  it('takes the first supported browser language', () => {
    expect(detectLanguage(['ja-JP', 'en-US'])).toBe('ja');
    expect(detectLanguage(['fr-FR', 'en-GB', 'ja'])).toBe('en');
    expect(detectLanguage(['EN'])).toBe('en');
  });

  it('falls back to English', () => {
    expect(detectLanguage([])).toBe('en');
    expect(detectLanguage(['de-DE'])).toBe('en');
  });

  it('has every message in both languages', () => {
    expect(t('ja', 'cameraCheckLink')).not.toBe(t('en', 'cameraCheckLink'));
  });
});

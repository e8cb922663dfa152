import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../shared/constants.ts';
import { texts as common } from './i18n/common.ts';
import { browserTimezone, createI18n, type Texts, textsOf } from './i18n.ts';
import { detectLanguage, isLanguage } from './language.ts';

/** Every namespace with its texts: `common` and each feature's (the page loads these one by one). */
function allNamespaces(): Record<string, Texts> {
  const modules = import.meta.glob<Record<string, unknown>>('./features/**/texts.ts', { eager: true });
  const namespaces: Record<string, Texts> = { common };
  for (const [path, module] of Object.entries(modules)) {
    const name = /\.\/features\/(.+)\/texts\.ts$/.exec(path)?.[1];
    const texts = textsOf(module);
    if (name !== undefined && texts !== undefined) namespaces[name] = texts;
  }
  return namespaces;
}

/** Every key path of a texts object ('a.b' for nested ones). */
function keys(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([key, inner]) => keys(inner, prefix === '' ? key : `${prefix}.${key}`));
}

function at(value: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((inner, key) => (inner as Record<string, unknown>)[key], value);
}

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

  it('knows the languages', () => {
    expect(isLanguage('ja')).toBe(true);
    expect(isLanguage('fr')).toBe(false);
    expect(isLanguage(undefined)).toBe(false);
  });
});

describe('texts', () => {
  const namespaces = allNamespaces();

  it('has the shell namespace', () => {
    expect(Object.keys(namespaces)).toContain('common');
  });

  for (const [namespace, texts] of Object.entries(namespaces)) {
    it(`${namespace}: every key in both languages, non-empty, with the same placeholders`, () => {
      const en = keys(texts.en).sort();
      const ja = keys(texts.ja).sort();
      expect(ja, `keys of ${namespace} in ja and en`).toEqual(en);
      for (const key of en) {
        for (const language of LANGUAGES) {
          const text = at(texts[language], key);
          expect(typeof text, `${language}:${namespace}:${key}`).toBe('string');
          expect((text as string).trim(), `${language}:${namespace}:${key}`).not.toBe('');
        }
        const placeholders = (text: unknown) => [...String(text).matchAll(/\{\{\s*(\w+)/g)].map((match) => match[1]).sort();
        expect(placeholders(at(texts.ja, key)), `placeholders of ${namespace}:${key}`).toEqual(placeholders(at(texts.en, key)));
      }
    });
  }

  it('loads a feature namespace when it is first asked for, in the current language', async () => {
    const i18n = createI18n('ja');
    expect(i18n.hasResourceBundle('ja', 'jail')).toBe(false);
    await i18n.loadNamespaces('jail');
    expect(i18n.t('live_close', { ns: 'jail' })).toBe('閉じる');
    await i18n.changeLanguage('en');
    expect(i18n.t('live_close', { ns: 'jail' })).toBe('Close');
    await expect(i18n.loadNamespaces('nowhere')).resolves.toBeUndefined();
    expect(i18n.hasResourceBundle('en', 'nowhere')).toBe(false);
  });

  it('translates and switches language', async () => {
    const i18n = createI18n('en');
    expect(i18n.t('navList')).toBe('List');
    await i18n.changeLanguage('ja');
    expect(i18n.t('navList')).toBe('一覧');
    expect(i18n.t('version', { version: '70' })).toBe('バージョン 70');
  });

  it('takes the timezone from the browser offset', () => {
    expect(browserTimezone(new Date())).toBe(new Date().getTimezoneOffset());
  });
});

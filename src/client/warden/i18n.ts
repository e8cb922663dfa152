import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from '../../shared/constants.ts';
import { texts } from './texts.ts';

/** The console's language: the browser's first of ja/en, else English. */
export function browserLanguage(tags: readonly string[]): Language {
  const bases = tags.map((tag) => tag.toLowerCase().split('-')[0]);
  return LANGUAGES.find((language) => bases.includes(language)) ?? DEFAULT_LANGUAGE;
}

/**
 * i18next with the console's one namespace (`warden`). A missing key is
 * logged as 'Missing text …', which the browser tests fail on.
 */
export function createConsoleI18n(language: Language): I18n {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    resources: { en: { warden: texts.en }, ja: { warden: texts.ja } },
    lng: language,
    fallbackLng: false,
    supportedLngs: [...LANGUAGES],
    ns: ['warden'],
    defaultNS: 'warden',
    interpolation: { escapeValue: false },
    initAsync: false,
    saveMissing: true,
    missingKeyHandler(languages, namespace, key) {
      console.error(`Missing text ${languages.join(',')}:${namespace}:${key}`);
    },
  });
  return instance;
}

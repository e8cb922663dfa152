import i18next, { type BackendModule, type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from '../shared/constants.ts';
import { texts as common } from './i18n/common.ts';
import { detectLanguage } from './language.ts';

/**
 * The interface texts (docs/client.md, Texts): i18next with `ja` and `en`, English by
 * default, the language guessed from the browser and switchable.
 *
 * Texts live in namespaces: `common` (src/client/i18n/common.ts) for the
 * shell, and one namespace per feature, named after its folder: every
 * `src/client/features/<feature>/texts.ts` (a part of a feature that loads
 * apart, `features/<feature>/<part>/texts.ts`, is `<feature>/<part>`) exporting
 * `texts = { en: {...}, ja: {...} }` (or a single export of that shape, such
 * as `accountTexts`) is picked up here. Use them with
 * `useTranslation('<feature>')`. `common` comes with the page; a feature's
 * namespace is loaded with the first screen that asks for it (its own small
 * chunk), so the first screen carries only its own texts. A test fails when
 * a key is missing in one language (src/client/i18n.test.ts).
 */

/** The texts of one namespace in both languages; nested objects allowed. */
export interface Texts {
  en: Record<string, unknown>;
  ja: Record<string, unknown>;
}

/** The browser's offset from UTC in minutes (`Date.prototype.getTimezoneOffset`; Tokyo: -540). */
export function browserTimezone(now: Date = new Date()): number {
  return now.getTimezoneOffset();
}

/** The feature namespaces, each loaded on demand (`./features/<namespace>/texts.ts`). */
const featureTexts = import.meta.glob<Record<string, unknown>>('./features/**/texts.ts');

function isTexts(value: unknown): value is Texts {
  return typeof value === 'object' && value !== null && typeof (value as Texts).en === 'object' && typeof (value as Texts).ja === 'object';
}

/** A feature's texts: its export `texts`, else its one export shaped `{en, ja}`. */
export function textsOf(module: Record<string, unknown>): Texts | undefined {
  if (isTexts(module.texts)) return module.texts;
  const candidates = Object.values(module).filter(isTexts);
  return candidates.length === 1 ? candidates[0] : undefined;
}

/** An i18next backend that loads a feature's namespace in a language from its texts module. */
const featureTextsBackend: BackendModule = {
  type: 'backend',
  init() {},
  read(language, namespace, callback) {
    const load = featureTexts[`./features/${namespace}/texts.ts`];
    if (load === undefined) {
      callback(new Error(`No texts for the namespace ${namespace}`), false);
      return;
    }
    load().then(
      (module) => callback(null, textsOf(module)?.[language as Language] ?? {}),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), false),
    );
  },
};

/** Missing keys seen at run time (logged once each; the browser tests fail on them). */
export const missingKeys = new Set<string>();

/** Creates and initialises an i18next instance in `language`. */
export function createI18n(language: Language = DEFAULT_LANGUAGE): I18n {
  const instance = i18next.createInstance();
  void instance
    .use(featureTextsBackend)
    .use(initReactI18next)
    .init({
      resources: { en: { common: common.en }, ja: { common: common.ja } },
      partialBundledLanguages: true,
      lng: language,
      fallbackLng: false,
      supportedLngs: [...LANGUAGES],
      ns: ['common'],
      defaultNS: 'common',
      interpolation: { escapeValue: false },
      returnNull: false,
      initAsync: false,
      saveMissing: true,
      missingKeyHandler(languages, namespace, key) {
        const id = `${languages.join(',')}:${namespace}:${key}`;
        if (!missingKeys.has(id)) {
          missingKeys.add(id);
          console.error(`Missing text ${id}`);
        }
      },
    });
  return instance;
}

/** The page's instance. */
export const i18n = createI18n(typeof navigator === 'undefined' ? DEFAULT_LANGUAGE : detectLanguage());

/** Shows the interface in `language`: the texts and `<html lang>`. */
export function applyLanguage(language: Language): void {
  if (i18n.language !== language) void i18n.changeLanguage(language);
  document.documentElement.lang = language;
}

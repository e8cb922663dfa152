import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from '../shared/constants.ts';

// Apart from i18n.ts, so that the pages of text (static-page.ts) choose their language without i18next.

/** The interface language, guessed from the browser (docs/client.md, Texts); English by default. */
export function detectLanguage(languages: readonly string[] = navigator.languages): Language {
  for (const tag of languages) {
    const base = tag.toLowerCase().split('-')[0];
    const match = LANGUAGES.find((language) => language === base);
    if (match !== undefined) return match;
  }
  return DEFAULT_LANGUAGE;
}

/** Whether `value` is one of the interface languages. */
export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

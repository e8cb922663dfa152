import { createContext, use } from 'react';
import type { Language } from '../../shared/constants.ts';

/** The interface language and how to change it. */
export interface LanguageChoice {
  language: Language;
  choose(next: Language): void;
}

/**
 * Where the language lives on this page: the store in the app (App.tsx), the
 * visitor's first screen's own state before the app has loaded
 * (features/intro/IntroPage.tsx). Either way a change applies the texts and
 * `<html lang>` at once and is remembered on this device.
 */
export const LanguageChoiceContext = createContext<LanguageChoice | null>(null);

/** The language choice of the page; a screen outside either provider is a programming error. */
export function useLanguageChoice(): LanguageChoice {
  const choice = use(LanguageChoiceContext);
  if (choice === null) throw new Error('useLanguageChoice needs a LanguageChoiceContext provider');
  return choice;
}

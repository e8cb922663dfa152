import { getLocal, LANGUAGE_ID, openLocalDb } from './app/localDb.ts';
import { detectLanguage, isLanguage } from './language.ts';
import type { Language } from '../shared/constants.ts';

/**
 * The pages of text (terms.html, privacy.html; ui/static-page.css): opened
 * without #en or #ja, as a link from elsewhere or a typed address does, a
 * page shows its article in the language chosen in the app on this device,
 * else the browser's; a link with its language, or the page's language
 * links, are followed as they are. `<html lang>` follows the article shown.
 */
function shownLanguage(): Language | null {
  const hash = window.location.hash.slice(1);
  return isLanguage(hash) ? hash : null;
}

function show(language: Language): void {
  // A fragment navigation, so that the stylesheet's :target shows the article; it replaces the entry, so Back leaves the page.
  window.location.replace(`#${language}`);
  // The page's top, with its language links, rather than the article's heading.
  window.scrollTo(0, 0);
}

/** The language the guest chose in the app on this device, if any; a database that cannot be opened says nothing (and alerts nothing here). */
async function savedLanguage(): Promise<Language | null> {
  try {
    const saved = await getLocal<string>('language', LANGUAGE_ID, await openLocalDb());
    return isLanguage(saved) ? saved : null;
  } catch {
    return null;
  }
}

function followShownLanguage(): void {
  document.documentElement.lang = shownLanguage() ?? 'en';
}

window.addEventListener('hashchange', followShownLanguage);
if (shownLanguage() === null) {
  const guessed = detectLanguage();
  show(guessed);
  void savedLanguage().then((saved) => {
    // Unless the visitor has chosen a language on the page meanwhile.
    if (saved !== null && saved !== guessed && shownLanguage() === guessed) show(saved);
  });
}
followShownLanguage();

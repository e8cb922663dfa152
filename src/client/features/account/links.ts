// Set by vite.config.ts from CONTACT_EMAIL and TERMS_URL when the client is built.
declare const __CONTACT_EMAIL__: string;
declare const __TERMS_URL__: string;

/** The terms page linked from sign-up (the app's own terms.html unless TERMS_URL names another). */
const TERMS_URL: string = typeof __TERMS_URL__ === 'string' ? __TERMS_URL__ : '/terms.html';

/** The terms in the guest's language: the app's own page shows just the part its address names (#en, #ja). */
export function termsUrl(language: 'en' | 'ja'): string {
  return TERMS_URL === '/terms.html' ? `${TERMS_URL}#${language}` : TERMS_URL;
}
/**
 * The privacy page in the guest's language: always the app's own page
 * (privacy.html, #en or #ja), since it states what this build does.
 */
export function privacyUrl(language: 'en' | 'ja'): string {
  return `/privacy.html#${language}`;
}
/** The address of the contact mail link on /guest/show and on the terms page. */
export const CONTACT_EMAIL: string = typeof __CONTACT_EMAIL__ === 'string' ? __CONTACT_EMAIL__ : 'support@localhost';

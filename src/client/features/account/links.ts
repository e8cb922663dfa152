// Set by vite.config.ts from CONTACT_EMAIL and TERMS_URL when the client is built.
declare const __CONTACT_EMAIL__: string;
declare const __TERMS_URL__: string;

/** The terms page linked from sign-up (the app's own terms.html unless TERMS_URL names another). */
export const TERMS_URL: string = typeof __TERMS_URL__ === 'string' ? __TERMS_URL__ : '/terms.html';
/** The address of the contact mail link on /guest/show and on the terms page. */
export const CONTACT_EMAIL: string = typeof __CONTACT_EMAIL__ === 'string' ? __CONTACT_EMAIL__ : 'support@localhost';

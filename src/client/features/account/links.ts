/** The external terms page linked from sign-up, and the contact address of /guest/show. */
export const TERMS_URL = 'https://warden.app/terms';
export const CONTACT_EMAIL = 'support@warden.app';

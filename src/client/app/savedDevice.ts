// What this device remembers between visits (the local database, docs/client.md, State): read
// once at start-up by main.tsx, before it decides between the visitor's first screen and the app.
import type { Language } from '../../shared/constants.ts';
import { isLanguage } from '../language.ts';
import { AUTH_ID, type AuthRecord, getLocal, LANGUAGE_ID, putLocal, RETURNING_ID } from './localDb.ts';

export interface SavedDevice {
  /** The language chosen on this device, if one was. */
  language: Language | null;
  /** Who is signed in on this device, if anyone. */
  auth: AuthRecord | null;
  /** Whether a guest has signed out on this device: a returning guest starts at the sign-in screen, not the intro. */
  returning: boolean;
}

/** The saved language and session; a device whose database cannot be opened (the alert was shown) has neither. */
export async function readSavedDevice(): Promise<SavedDevice> {
  try {
    const language = await getLocal<string>('language', LANGUAGE_ID);
    const saved = await getLocal<AuthRecord>('auth', AUTH_ID);
    const auth =
      saved !== null && typeof saved.id === 'number' && typeof saved.token === 'string'
        ? { id: saved.id, token: saved.token, ...(saved.facilitator === true ? { facilitator: true as const } : {}) }
        : null;
    const returning = (await getLocal<boolean>('auth', RETURNING_ID)) === true;
    return { language: isLanguage(language) ? language : null, auth, returning };
  } catch {
    return { language: null, auth: null, returning: false };
  }
}

/** Remembers the language chosen on this device; a database that cannot be opened keeps nothing. */
export async function saveLanguage(language: Language): Promise<void> {
  await putLocal('language', LANGUAGE_ID, language).catch(() => undefined);
}

import { dictionary } from '@zxcvbn-ts/language-common';
import { ApiFailure } from './api.ts';

/**
 * The most used passwords of published breaches (zxcvbn-ts's common list,
 * about 49,000, of which 18,000 are long enough for our eight-character
 * minimum), lower-cased. ASVS 6.2.4 asks for at least the top 3,000.
 */
const COMMON_PASSWORDS: ReadonlySet<string> = new Set(dictionary['passwords-common'].map((password) => password.toLowerCase()));

/** Words anyone guessing a Warden password tries first (ASVS 6.2.11: the context's words). */
const SERVICE_WORDS = ['warden', 'ワーデン', 'jail'] as const;

/** The shortest name or address part that counts as a guessable word inside a password. */
const SHORTEST_PERSONAL_WORD = 4;

/** What a password is made of once case, digits and symbols around its letters are set aside. */
function core(password: string): string {
  return password.toLowerCase().replace(/^[\p{N}\p{P}\p{S}\s]+|[\p{N}\p{P}\p{S}\s]+$/gu, '');
}

/**
 * Refuses a new password that guessers try first: one of the common
 * passwords (as typed, or with digits and symbols stripped from its ends,
 * so "Password123!" is refused with "password"), the service's own name, or
 * the account's name or the local part of its address (`personal`).
 * Thrown as 'password_common', which the form shows beside the password.
 */
export function assertPasswordNotGuessable(password: string, personal: readonly string[] = []): void {
  const lower = password.toLowerCase();
  const stripped = core(password);
  const words = [...SERVICE_WORDS, ...personal.map((word) => word.toLowerCase().split('@')[0] ?? '').filter((word) => word.length >= SHORTEST_PERSONAL_WORD)];
  const guessable =
    COMMON_PASSWORDS.has(lower) ||
    COMMON_PASSWORDS.has(stripped) ||
    words.some((word) => stripped === word || lower === word || (stripped.includes(word) && stripped.length - word.length < SHORTEST_PERSONAL_WORD));
  if (guessable) throw new ApiFailure('password_common');
}

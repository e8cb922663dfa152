import { phoneSchema, type Guest } from '../../../shared/api/guest.ts';

/**
 * The account screens' form rules (docs/client.md, Form rules), kept pure so that each one
 * is unit tested without a browser. A rule answers the message key of the
 * alert to show, or null when the form may be sent.
 */

export type AccountAlert = 'alert_terms' | 'alert_password_mismatch' | 'alert_code_wrong';

/** Sign-up: the terms box must be ticked (key alert_terms). */
export function signupAlert(termsAccepted: boolean): AccountAlert | null {
  return termsAccepted ? null : 'alert_terms';
}

/** New password: the two fields must be equal, else 'Password doesn't match'. */
export function passwordAlert(password: string, confirmation: string): AccountAlert | null {
  return password === confirmation ? null : 'alert_password_mismatch';
}

/** Title and e-mail saves are skipped when the value did not change. */
export function hasChanged(current: string | null | undefined, entered: string): boolean {
  return (current ?? '').trim() !== entered.trim();
}

/** The e-mail compares without case: the server stores it lower-cased. */
export function emailHasChanged(current: string | null | undefined, entered: string): boolean {
  return (current ?? '').trim().toLowerCase() !== entered.trim().toLowerCase();
}

/** Digits of a phone number with its optional leading '+', as the server keeps it. */
export function normalizePhone(phone: string): string {
  const parsed = phoneSchema.safeParse(phone);
  return parsed.success ? parsed.data : phone.replace(/[^0-9+]/g, '');
}

/** The code request is sent only when the number changed. */
export function shouldRequestPhoneCode(current: string | null | undefined, entered: string): boolean {
  if (entered.trim() === '') return false;
  return normalizePhone(entered) !== normalizePhone(current ?? '');
}

/** The code input keeps digits only, at most six (a numeric input). */
export function sanitizePhoneCode(typed: string): string {
  return typed.replace(/[^0-9]/g, '').slice(0, 6);
}

/** A typed code can be sent once it has its six digits. */
export function isCompletePhoneCode(code: string): boolean {
  return /^[0-9]{6}$/.test(code);
}

/**
 * The login flow: logged in when the guest has an id and the title
 * or e-mail matches what was entered (the e-mail without case).
 */
export function isLoggedInAs(guest: Pick<Guest, 'id' | 'title' | 'email'> | null | undefined, entered: string): boolean {
  if (guest == null || typeof guest.id !== 'number') return false;
  const typed = entered.trim();
  return guest.title === typed || guest.email.toLowerCase() === typed.toLowerCase();
}

/** The password as /guest/edit shows it: never the real one. */
export const MASKED_PASSWORD = '••••••••';

/** Where /guest/loginAsLimFacilitator goes once signed in: /filters when the app has it (it does not yet). */
export function facilitatorDestination(hasFiltersRoute: boolean): '/filters' | '/reservations' {
  return hasFiltersRoute ? '/filters' : '/reservations';
}

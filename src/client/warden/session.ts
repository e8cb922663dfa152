import { WARDEN_IDLE_TIMEOUT_MS, WARDEN_IDLE_WARNING_MS } from '../../shared/api/warden.ts';
import { authenticateWarden, confirmWardenCode, logoutWarden, readWardenSession, RefusedCallError, savedToken, updateWardenPassword } from './api.ts';
import { secondFactorAsked, sessionUsed, signedIn, signedOut, signInFailed } from './sessionSlice.ts';
import type { ConsoleStore } from './store.ts';

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** At start-up: reads the saved console session back, or forgets it when the server refuses it. */
export async function restoreSession(store: ConsoleStore): Promise<void> {
  const token = savedToken.read();
  if (token === null) return;
  try {
    const { warden } = await readWardenSession(token, store.getState().session.language);
    store.dispatch(signedIn({ warden, token, at: Date.now() }));
  } catch (error) {
    savedToken.forget();
    store.dispatch(signedOut({ reason: messageOf(error) }));
  }
}

/** The first step, the password: the code is asked next; a failure is shown on the form. */
export async function signIn(store: ConsoleStore, email: string, password: string): Promise<void> {
  try {
    store.dispatch(secondFactorAsked(await authenticateWarden(email, password, store.getState().session.language)));
  } catch (error) {
    store.dispatch(signInFailed(messageOf(error)));
  }
}

/** The second step, the code of the authenticator app: the session opens; a failure is shown on the form. */
export async function confirmCode(store: ConsoleStore, code: string): Promise<void> {
  const { language, pendingSignIn } = store.getState().session;
  if (pendingSignIn === null) return;
  try {
    const { token } = await confirmWardenCode(pendingSignIn.ticket, code, language);
    savedToken.write(token);
    const { warden } = await readWardenSession(token, language);
    store.dispatch(signedIn({ warden, token, at: Date.now() }));
  } catch (error) {
    store.dispatch(signInFailed(messageOf(error)));
  }
}

/** A new password; answers the refusal to show, or null when it is changed (the warden's other sessions have ended). */
export async function changePassword(store: ConsoleStore, currentPassword: string, password: string): Promise<string | null> {
  const { token, language } = store.getState().session;
  if (token === null) return null;
  try {
    await updateWardenPassword(token, currentPassword, password, language);
    store.dispatch(sessionUsed(Date.now()));
    return null;
  } catch (error) {
    return messageOf(error);
  }
}

/**
 * Reads the session, which uses it: "Stay signed in" starts its idle time
 * again, and at its end the console learns it has ended and shows why.
 */
export async function checkSession(store: ConsoleStore): Promise<void> {
  const { token, language } = store.getState().session;
  if (token === null) return;
  try {
    await readWardenSession(token, language);
    store.dispatch(sessionUsed(Date.now()));
  } catch (error) {
    if (!(error instanceof RefusedCallError)) return;
    savedToken.forget();
    store.dispatch(signedOut({ reason: error.message }));
  }
}

/** How long until the idle time ends, when it is near enough to warn (docs/sessions.md); null before. */
export function idleTimeLeft(lastUsedAt: number, now: number): number | null {
  const left = lastUsedAt + WARDEN_IDLE_TIMEOUT_MS - now;
  return left > WARDEN_IDLE_WARNING_MS ? null : Math.max(0, left);
}

/** Ends the session on the server (as far as it can be reached) and on this tab. */
export async function signOut(store: ConsoleStore): Promise<void> {
  const { token, language } = store.getState().session;
  savedToken.forget();
  store.dispatch(signedOut({ reason: null }));
  if (token !== null) await logoutWarden(token, language).catch(() => undefined);
}

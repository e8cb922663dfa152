import { authenticateWarden, logoutWarden, readWardenSession, savedToken } from './api.ts';
import { signedIn, signedOut, signInFailed } from './sessionSlice.ts';
import type { ConsoleStore } from './store.ts';

/** At start-up: reads the saved console session back, or forgets it when the server refuses it. */
export async function restoreSession(store: ConsoleStore): Promise<void> {
  const token = savedToken.read();
  if (token === null) return;
  try {
    const { warden } = await readWardenSession(token, store.getState().session.language);
    store.dispatch(signedIn({ warden, token }));
  } catch (error) {
    savedToken.forget();
    store.dispatch(signedOut({ reason: error instanceof Error ? error.message : String(error) }));
  }
}

/** Signs in and reads the session back; a failure is shown on the form. */
export async function signIn(store: ConsoleStore, email: string, password: string): Promise<void> {
  const { language } = store.getState().session;
  try {
    const { token } = await authenticateWarden(email, password, language);
    savedToken.write(token);
    const { warden } = await readWardenSession(token, language);
    store.dispatch(signedIn({ warden, token }));
  } catch (error) {
    store.dispatch(signInFailed(error instanceof Error ? error.message : String(error)));
  }
}

/** Ends the session on the server (as far as it can be reached) and on this tab. */
export async function signOut(store: ConsoleStore): Promise<void> {
  const { token, language } = store.getState().session;
  savedToken.forget();
  store.dispatch(signedOut({ reason: null }));
  if (token !== null) await logoutWarden(token, language).catch(() => undefined);
}

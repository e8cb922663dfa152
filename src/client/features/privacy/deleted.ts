import { clearLocal } from '../../app/localDb.ts';
import { forgetSession } from '../../app/session.ts';
import { accountForgotten } from '../../app/slices/session.ts';
import type { AppStore } from '../../app/store.ts';

/** The navigation state that says the account was just deleted (not merely that /guest/deleted was opened). */
export const ACCOUNT_DELETED = 'account-deleted';

/**
 * The account is gone: this device forgets it as a logout does (the
 * session, the server state read with it, the banner) and also what it kept
 * of the guest's jails (the remembered works, the live jail's status) and
 * that a guest signed out here (the next visit starts at the intro).
 */
export async function forgetDeletedAccount(store: Pick<AppStore, 'dispatch'>): Promise<void> {
  forgetSession(store);
  store.dispatch(accountForgotten());
  await Promise.all([clearLocal('rememberedWorks'), clearLocal('jailStatus')]).catch(() => undefined);
}

import { describe, expect, it } from 'vitest';
import { WARDEN_IDLE_TIMEOUT_MS, WARDEN_IDLE_WARNING_MS } from '../../shared/api/warden.ts';
import { idleTimeLeft } from './session.ts';
import { initialSessionState, secondFactorAsked, sessionUsed, signedIn, signedOut, signInFailed } from './sessionSlice.ts';
import { makeConsoleStore } from './store.ts';

const AT = Date.UTC(2026, 0, 5, 9);

describe('the console session', () => {
  it('asks for the code after the password, opens on it, and forgets the ticket either way', () => {
    const store = makeConsoleStore(initialSessionState('en', false));
    const enrolment = { secret: 'JBSWY3DPEHPK3PXP', uri: 'otpauth://totp/Warden:w@example.com?secret=JBSWY3DPEHPK3PXP', qrSvg: '<svg/>' };
    store.dispatch(signInFailed('The e-mail address or password is wrong.'));
    store.dispatch(secondFactorAsked({ ticket: 'ticket', enrolment }));
    expect(store.getState().session).toMatchObject({ phase: 'secondFactor', pendingSignIn: { ticket: 'ticket', enrolment }, signInError: null });
    store.dispatch(signedIn({ warden: { id: 1, title: 'W' }, token: 'token', at: AT }));
    expect(store.getState().session).toMatchObject({ phase: 'signedIn', pendingSignIn: null, lastUsedAt: AT });
    store.dispatch(secondFactorAsked({ ticket: 'again', enrolment: null }));
    store.dispatch(signedOut({ reason: null }));
    expect(store.getState().session).toMatchObject({ phase: 'signedOut', pendingSignIn: null, token: null });
  });

  it('warns in the idle time’s last minutes, counting from the last use', () => {
    const store = makeConsoleStore(initialSessionState('en', false));
    store.dispatch(signedIn({ warden: { id: 1, title: 'W' }, token: 'token', at: AT }));
    store.dispatch(sessionUsed(AT + 60_000));
    // An answer that comes in late does not move the last use back.
    store.dispatch(sessionUsed(AT));
    const { lastUsedAt } = store.getState().session;
    expect(lastUsedAt).toBe(AT + 60_000);
    const end = lastUsedAt + WARDEN_IDLE_TIMEOUT_MS;
    expect(idleTimeLeft(lastUsedAt, end - WARDEN_IDLE_WARNING_MS - 1)).toBeNull();
    expect(idleTimeLeft(lastUsedAt, end - WARDEN_IDLE_WARNING_MS)).toBe(WARDEN_IDLE_WARNING_MS);
    expect(idleTimeLeft(lastUsedAt, end - 1_000)).toBe(1_000);
    expect(idleTimeLeft(lastUsedAt, end + 5_000)).toBe(0);
  });
});

import { describe, expect, it } from 'vitest';
import { apiBlock, credentials, fail, lastMessageTo, linkTokenMailedTo, outbox, signUp, useTestServer, succeed } from '../../test/harness.ts';

const server = useTestServer();

const HOUR = 3_600_000;

async function isVerified(guest: { id: number; token: string }): Promise<unknown> {
  const answer = await succeed(server.app, '/guest/read', { api: apiBlock(), guest });
  return (answer.guest as { isVerified: boolean }).isVerified;
}

describe('/guest/verifyEmail', () => {
  it('verifies with the mailed link, once', async () => {
    const guest = await signUp(server.app);
    const token = await linkTokenMailedTo(server.app, guest.email, 'verifyEmail');
    await succeed(server.app, '/guest/verifyEmail', { api: apiBlock(), guest: { token } });
    expect(await isVerified(credentials(guest))).toBe(true);
    expect(await fail(server.app, '/guest/verifyEmail', { api: apiBlock(), guest: { token } })).toBe('This link is invalid or has expired.');
  });

  it('expires after 24 hours', async () => {
    const guest = await signUp(server.app);
    const token = await linkTokenMailedTo(server.app, guest.email, 'verifyEmail');
    server.clock.offsetMs += 24 * HOUR;
    expect(await fail(server.app, '/guest/verifyEmail', { api: apiBlock('ja'), guest: { token } })).toBe('このリンクは無効か、有効期限が切れています。');
    expect(await isVerified(credentials(guest))).toBe(false);
  });

  it('refuses a password-reset token and an unknown one', async () => {
    const guest = await signUp(server.app);
    await succeed(server.app, '/guest/updatePasswordEmail', { api: apiBlock(), guest: { email: guest.email } });
    const resetToken = await linkTokenMailedTo(server.app, guest.email, 'updatePassword');
    expect(await fail(server.app, '/guest/verifyEmail', { api: apiBlock(), guest: { token: resetToken } })).toBe('This link is invalid or has expired.');
    expect(await fail(server.app, '/guest/verifyEmail', { api: apiBlock(), guest: { token: 'z'.repeat(43) } })).toBe('This link is invalid or has expired.');
  });
});

describe('/guest/resendVerifyEmail', () => {
  it('mails a new link that works, and refuses once verified', async () => {
    const guest = await signUp(server.app);
    const first = await linkTokenMailedTo(server.app, guest.email, 'verifyEmail');
    await succeed(server.app, '/guest/resendVerifyEmail', { api: apiBlock(), guest: credentials(guest) });
    const second = await linkTokenMailedTo(server.app, guest.email, 'verifyEmail');
    expect(second).not.toBe(first);
    await succeed(server.app, '/guest/verifyEmail', { api: apiBlock(), guest: { token: second } });
    expect(await fail(server.app, '/guest/resendVerifyEmail', { api: apiBlock(), guest: credentials(guest) })).toBe('Your e-mail address is already verified.');
  });

  it('needs a session and is rate limited', async () => {
    const guest = await signUp(server.app);
    expect(await fail(server.app, '/guest/resendVerifyEmail', { api: apiBlock(), guest: { id: guest.id, token: 'q'.repeat(43) } })).toBe(
      'You are signed out. Please sign in again.',
    );
    for (let i = 0; i < 3; i += 1) await succeed(server.app, '/guest/resendVerifyEmail', { api: apiBlock(), guest: credentials(guest) });
    expect(await fail(server.app, '/guest/resendVerifyEmail', { api: apiBlock(), guest: credentials(guest) })).toMatch(/Too many attempts/);
  });
});

describe('password reset', () => {
  it('answers the same whether or not the address exists, and mails only a guest', async () => {
    const guest = await signUp(server.app);
    const before = (await outbox(server.app)).length;
    const known = await succeed(server.app, '/guest/updatePasswordEmail', { api: apiBlock(), guest: { email: guest.email.toUpperCase() } });
    const unknown = await succeed(server.app, '/guest/updatePasswordEmail', { api: apiBlock(), guest: { email: 'nobody@example.com' } });
    expect(unknown).toEqual(known);
    const sent = (await outbox(server.app)).slice(before);
    expect(sent.map((message) => message.to)).toEqual([guest.email]);
    expect(sent[0]?.subject).toBe('Warden: reset your password');
    expect(sent[0]?.text).toMatch(/http:\/\/localhost:8080\/guest\/updatePassword\/[A-Za-z0-9_-]{43}/);
  });

  it('sets the new password once, and ends every session', async () => {
    const guest = await signUp(server.app);
    await succeed(server.app, '/guest/updatePasswordEmail', { api: apiBlock(), guest: { email: guest.email } });
    const token = await linkTokenMailedTo(server.app, guest.email, 'updatePassword');
    await succeed(server.app, '/guest/updatePassword', { api: apiBlock(), guest: { token, password: 'a brand new password' } });

    expect(await fail(server.app, '/guest/read', { api: apiBlock(), guest: credentials(guest) })).toBe('You are signed out. Please sign in again.');
    expect(await fail(server.app, '/guest/authenticate', { api: apiBlock(), guest: { title: guest.title, password: guest.password } })).toBe(
      'The username or password is wrong.',
    );
    await succeed(server.app, '/guest/authenticate', { api: apiBlock(), guest: { title: guest.title, password: 'a brand new password' } });
    expect(await fail(server.app, '/guest/updatePassword', { api: apiBlock(), guest: { token, password: 'another password' } })).toBe(
      'This link is invalid or has expired.',
    );
  });

  it('a link expires after an hour, and a newer reset uses up the older links', async () => {
    const guest = await signUp(server.app);
    await succeed(server.app, '/guest/updatePasswordEmail', { api: apiBlock(), guest: { email: guest.email } });
    const old = await linkTokenMailedTo(server.app, guest.email, 'updatePassword');
    server.clock.offsetMs += HOUR;
    expect(await fail(server.app, '/guest/updatePassword', { api: apiBlock(), guest: { token: old, password: 'a brand new password' } })).toBe(
      'This link is invalid or has expired.',
    );

    await succeed(server.app, '/guest/updatePasswordEmail', { api: apiBlock(), guest: { email: guest.email } });
    const first = await linkTokenMailedTo(server.app, guest.email, 'updatePassword');
    await succeed(server.app, '/guest/updatePasswordEmail', { api: apiBlock(), guest: { email: guest.email } });
    const second = await linkTokenMailedTo(server.app, guest.email, 'updatePassword');
    await succeed(server.app, '/guest/updatePassword', { api: apiBlock(), guest: { token: second, password: 'a brand new password' } });
    expect(await fail(server.app, '/guest/updatePassword', { api: apiBlock(), guest: { token: first, password: 'yet another one' } })).toBe(
      'This link is invalid or has expired.',
    );
  });

  it('refuses a guessable new password and keeps the link for another try', async () => {
    const guest = await signUp(server.app);
    await succeed(server.app, '/guest/updatePasswordEmail', { api: apiBlock(), guest: { email: guest.email } });
    const token = await linkTokenMailedTo(server.app, guest.email, 'updatePassword');
    expect(await fail(server.app, '/guest/updatePassword', { api: apiBlock(), guest: { token, password: 'iloveyou2' } })).toBe(
      'This password is too easy to guess: it is one of the most used passwords, or made of your name or address. Choose another.',
    );
    await succeed(server.app, '/guest/updatePassword', { api: apiBlock(), guest: { token, password: 'a brand new password' } });
  });

  it('checks the new password and the address', async () => {
    expect(await fail(server.app, '/guest/updatePassword', { api: apiBlock(), guest: { token: 'a'.repeat(43), password: 'short' } })).toBe(
      'The password must be 8 to 128 characters.',
    );
    expect(await fail(server.app, '/guest/updatePasswordEmail', { api: apiBlock(), guest: { email: '' } })).toBe('The e-mail address is not valid.');
  });

  it('mails in the guest’s language', async () => {
    const guest = await signUp(server.app);
    await succeed(server.app, '/guest/update', { api: apiBlock(), guest: { ...credentials(guest), language: 'ja' } });
    await succeed(server.app, '/guest/updatePasswordEmail', { api: apiBlock('en'), guest: { email: guest.email } });
    expect((await lastMessageTo(server.app, guest.email)).subject).toBe('Warden: パスワードの再設定');
  });
});

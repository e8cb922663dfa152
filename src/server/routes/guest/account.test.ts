import { describe, expect, it } from 'vitest';
import { runAdmin } from '../../admin.ts';
import { apiBlock, call, credentials, fail, lastMessageTo, signUp, useTestServer, succeed } from '../../test/harness.ts';

const server = useTestServer();

const MINUTE = 60_000;

const COMMON_PASSWORD = 'This password is too easy to guess: it is one of the most used passwords, or made of your name or address. Choose another.';

function createBody(overrides: Record<string, unknown> = {}, language: 'en' | 'ja' = 'en') {
  return {
    api: apiBlock(language),
    guest: { title: 'Hanako', email: 'Hanako@Example.com', password: 'correct horse', timezone: -540, language: 'ja', ...overrides },
  };
}

describe('/guest/create', () => {
  it('creates a guest, starts a session, mails a verification link and hides the password', async () => {
    const answer = await succeed(server.app, '/guest/create', createBody(), { remoteAddress: '10.9.0.1' });
    expect(answer.guest).toMatchObject({
      title: 'Hanako',
      email: 'hanako@example.com',
      isVerified: false,
      language: 'ja',
      timezone: -540,
      phone: null,
      subscriptionPlan: 1,
      lazyAlerts: [],
      suspendedUntil: null,
      earlyFinishBlockUntil: null,
    });
    expect(JSON.stringify(answer)).not.toMatch(/password|argon2/i);
    const guest = answer.guest as { id: number; token: string };
    expect(guest.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await succeed(server.app, '/guest/read', { api: apiBlock(), guest: { id: guest.id, token: guest.token } });

    const mail = await lastMessageTo(server.app, 'hanako@example.com');
    expect(mail).toMatchObject({ channel: 'email', subject: 'Warden: メールアドレスの確認' });
    expect(mail.text).toMatch(/http:\/\/localhost:8080\/guest\/verifyEmail\/[A-Za-z0-9_-]{43}/);
  });

  it('refuses a taken title (whatever its case) or e-mail address, in the request language', async () => {
    expect(await fail(server.app, '/guest/create', createBody({ title: 'HANAKO', email: 'other@example.com' }), { remoteAddress: '10.9.0.2' })).toBe(
      'This username is already taken.',
    );
    expect(await fail(server.app, '/guest/create', createBody({ title: 'Other', email: 'hanako@EXAMPLE.com' }, 'ja'), { remoteAddress: '10.9.0.2' })).toBe(
      'このメールアドレスはすでに登録されています。',
    );
  });

  it.each([
    [{ title: '' }, 'The username must be 1 to 50 characters and cannot contain @.'],
    [{ title: 'a@b' }, 'The username must be 1 to 50 characters and cannot contain @.'],
    [{ title: 'x'.repeat(51) }, 'The username must be 1 to 50 characters and cannot contain @.'],
    [{ email: 'not-an-address' }, 'The e-mail address is not valid.'],
    [{ password: 'short' }, 'The password must be 8 to 128 characters.'],
    [{ password: 'p'.repeat(129) }, 'The password must be 8 to 128 characters.'],
    [{ password: 'Password123!' }, COMMON_PASSWORD],
    [{ password: 'qwertyuiop' }, COMMON_PASSWORD],
    [{ password: 'Warden2026' }, COMMON_PASSWORD],
    [{ password: 'valid-1234', title: 'Valid' }, COMMON_PASSWORD],
    [{ timezone: 'Tokyo' }, 'The request is invalid: guest.timezone.'],
    [{ language: 'fr' }, 'The request is invalid: guest.language.'],
  ])('rejects %o with a clear message', async (field, expected) => {
    expect(await fail(server.app, '/guest/create', createBody({ title: 'Valid', email: 'valid@example.com', ...field }), { remoteAddress: '10.9.0.3' })).toBe(
      expected,
    );
  });

  it('ignores fields it does not know, and never stores them', async () => {
    const answer = await succeed(
      server.app,
      '/guest/create',
      { ...createBody({ title: 'Sneaky', email: 'sneaky@example.com', isVerified: true, subscriptionPlan: 3, isLimMember: true }), admin: true },
      { remoteAddress: '10.9.0.4' },
    );
    expect(answer.guest).toMatchObject({ isVerified: false, subscriptionPlan: 1, isLimMember: false });
    expect(answer).not.toHaveProperty('admin');
  });

  it('stores the password with argon2id at OWASP minimums', async () => {
    const { guests } = await import('../../db/schema/index.ts');
    const { eq } = await import('drizzle-orm');
    const [row] = await server.app.db.select({ passwordHash: guests.passwordHash }).from(guests).where(eq(guests.title, 'Hanako'));
    expect(row?.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });

  it('limits sign-ups from one address', async () => {
    const address = '10.9.1.1';
    const results: string[] = [];
    for (let i = 0; i < 11; i += 1) {
      const result = await call(server.app, '/guest/create', createBody({ title: `burst${i}`, email: `burst${i}@example.com` }), { remoteAddress: address });
      results.push(result.body.api.status);
    }
    expect(results.slice(0, 10).every((status) => status === 'success')).toBe(true);
    expect(results[10]).toBe('failed');
  });
});

describe('/guest/authenticate', () => {
  it('signs in by title (any case) or e-mail with a fresh token each time', async () => {
    const guest = await signUp(server.app);
    const byTitle = await succeed(server.app, '/guest/authenticate', {
      api: apiBlock(),
      guest: { title: guest.title.toUpperCase(), password: guest.password },
    });
    const byEmail = await succeed(server.app, '/guest/authenticate', { api: apiBlock(), guest: { title: guest.email, password: guest.password } });
    const first = byTitle.guest as { id: number; token: string };
    const second = byEmail.guest as { id: number; token: string };
    expect(first.id).toBe(guest.id);
    expect(second.id).toBe(guest.id);
    expect(new Set([guest.token, first.token, second.token]).size).toBe(3);
    await succeed(server.app, '/guest/read', { api: apiBlock(), guest: first });
    await succeed(server.app, '/guest/read', { api: apiBlock(), guest: second });
  });

  it('answers a wrong password and an unknown account alike', async () => {
    const guest = await signUp(server.app);
    const wrong = await fail(server.app, '/guest/authenticate', { api: apiBlock(), guest: { title: guest.title, password: 'wrong password' } });
    const unknown = await fail(server.app, '/guest/authenticate', { api: apiBlock(), guest: { title: 'nobody-at-all', password: 'wrong password' } });
    expect(wrong).toBe('The username or password is wrong.');
    expect(unknown).toBe(wrong);
    expect(await fail(server.app, '/guest/authenticate', { api: apiBlock('ja'), guest: { title: guest.title, password: 'wrong password' } })).toBe(
      'ユーザー名またはパスワードが違います。',
    );
  });

  it('rests an account after 10 failures for 15 minutes, then lets its owner in', async () => {
    const guest = await signUp(server.app);
    for (let i = 0; i < 10; i += 1) {
      await fail(
        server.app,
        '/guest/authenticate',
        { api: apiBlock(), guest: { title: guest.title, password: `wrong ${i}` } },
        { remoteAddress: `10.9.2.${i}` },
      );
    }
    const rightPassword = { api: apiBlock(), guest: { title: guest.title, password: guest.password } };
    expect(await fail(server.app, '/guest/authenticate', rightPassword, { remoteAddress: '10.9.2.100' })).toBe(
      'Too many attempts. Please wait a few minutes and try again.',
    );
    server.clock.offsetMs += 15 * MINUTE;
    await succeed(server.app, '/guest/authenticate', rightPassword, { remoteAddress: '10.9.2.100' });
  });

  it('limits attempts from one address, for a while', async () => {
    const guest = await signUp(server.app);
    const address = '10.9.3.1';
    const attempt = { api: apiBlock(), guest: { title: 'someone', password: 'guess' } };
    for (let i = 0; i < 30; i += 1) await call(server.app, '/guest/authenticate', attempt, { remoteAddress: address });
    const rightPassword = { api: apiBlock(), guest: { title: guest.title, password: guest.password } };
    expect(await fail(server.app, '/guest/authenticate', rightPassword, { remoteAddress: address })).toMatch(/Too many attempts/);
    await succeed(server.app, '/guest/authenticate', rightPassword, { remoteAddress: '10.9.3.2' });
    server.clock.offsetMs += 10 * MINUTE;
    await succeed(server.app, '/guest/authenticate', rightPassword, { remoteAddress: address });
  });
});

describe('/guest/read and /guest/logout', () => {
  it('fails the same for an unknown id, a wrong token and another guest’s token', async () => {
    const guest = await signUp(server.app);
    const other = await signUp(server.app);
    const expected = 'You are signed out. Please sign in again.';
    expect(await fail(server.app, '/guest/read', { api: apiBlock(), guest: { id: 999_999, token: guest.token } })).toBe(expected);
    expect(await fail(server.app, '/guest/read', { api: apiBlock(), guest: { id: guest.id, token: 'x'.repeat(43) } })).toBe(expected);
    expect(await fail(server.app, '/guest/read', { api: apiBlock(), guest: { id: guest.id, token: other.token } })).toBe(expected);
    expect(await fail(server.app, '/guest/read', { api: apiBlock(), guest: { id: guest.id } })).toBe('The request is invalid: guest.token.');
  });

  it('logout ends that session only', async () => {
    const guest = await signUp(server.app);
    const second = (await succeed(server.app, '/guest/authenticate', { api: apiBlock(), guest: { title: guest.title, password: guest.password } })).guest as {
      id: number;
      token: string;
    };
    await succeed(server.app, '/guest/logout', { api: apiBlock(), guest: credentials(guest) });
    const result = await call(server.app, '/guest/read', { api: apiBlock('ja'), guest: credentials(guest) });
    expect(result.body).toEqual({
      api: { status: 'failed', errorMessage: 'ログインが切れました。もう一度ログインしてください。', errorCode: 'authentication_failed' },
    });
    await succeed(server.app, '/guest/read', { api: apiBlock(), guest: second });
  });
});

describe('/guest/authenticateAsLimFacilitator', () => {
  it('signs a warden in as the guest named in the token, until it expires', async () => {
    const guest = await signUp(server.app);
    const other = await signUp(server.app);
    await runAdmin(['create-warden', '--title', 'Kenji', '--email', 'kenji@example.com'], server.app.db, server.clock, server.app.config);
    const lines = await runAdmin(
      ['facilitator-token', '--warden', 'kenji@example.com', '--guest', String(guest.id), '--hours', '1'],
      server.app.db,
      server.clock,
      server.app.config,
    );
    const token = lines[1] ?? '';
    expect(lines[2]).toBe(`http://localhost:8080/guest/loginAsLimFacilitator/${token}/${guest.id}`);

    const answer = await succeed(server.app, '/guest/authenticateAsLimFacilitator', {
      api: apiBlock(),
      guest: { id: String(guest.id) },
      facilitator: { token },
    });
    const session = answer.guest as { id: number; token: string };
    expect(session.id).toBe(guest.id);
    await succeed(server.app, '/guest/read', { api: apiBlock(), guest: session });

    const wrongGuest = { api: apiBlock(), guest: { id: other.id }, facilitator: { token } };
    expect(await fail(server.app, '/guest/authenticateAsLimFacilitator', wrongGuest)).toBe('The facilitator link is invalid or has expired.');
    expect(
      await fail(server.app, '/guest/authenticateAsLimFacilitator', { api: apiBlock(), guest: { id: guest.id }, facilitator: { token: 'y'.repeat(43) } }),
    ).toBe('The facilitator link is invalid or has expired.');
    // A token not yet used, after its hour.
    const [, unused = ''] = await runAdmin(
      ['facilitator-token', '--warden', 'kenji@example.com', '--guest', String(guest.id), '--hours', '1'],
      server.app.db,
      server.clock,
      server.app.config,
    );
    server.clock.offsetMs += 61 * MINUTE;
    expect(await fail(server.app, '/guest/authenticateAsLimFacilitator', { api: apiBlock(), guest: { id: guest.id }, facilitator: { token: unused } })).toBe(
      'The facilitator link is invalid or has expired.',
    );
  });
});

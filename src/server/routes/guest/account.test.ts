import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiBlock, call, credentials, fail, signUp, startTestServer, succeed, type TestServer } from '../../test/harness.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

describe('/guest/create', () => {
  it('creates a guest, starts a session and hides the password', async () => {
    const answer = await succeed(server.app, '/guest/create', {
      api: apiBlock(),
      guest: { title: 'Hanako', email: 'Hanako@Example.com', password: 'correct horse', timezone: -540, language: 'ja' },
    });
    expect(answer.guest).toMatchObject({ title: 'Hanako', email: 'hanako@example.com', isVerified: false, language: 'ja', timezone: -540, phone: null });
    expect(JSON.stringify(answer)).not.toMatch(/password|argon2/i);
    const guest = answer.guest as { id: number; token: string };
    expect(guest.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await succeed(server.app, '/guest/read', { api: apiBlock(), guest: { id: guest.id, token: guest.token } });
  });
});

describe('/guest/authenticate', () => {
  it('signs in by title or e-mail and fails clearly otherwise', async () => {
    const guest = await signUp(server.app);
    const byTitle = await succeed(server.app, '/guest/authenticate', { api: apiBlock(), guest: { title: guest.title.toUpperCase(), password: guest.password } });
    expect(byTitle.guest).toMatchObject({ id: guest.id });
    await succeed(server.app, '/guest/authenticate', { api: apiBlock(), guest: { title: guest.email, password: guest.password } });
    expect(await fail(server.app, '/guest/authenticate', { api: apiBlock(), guest: { title: guest.title, password: 'wrong password' } })).toBe(
      'The username or password is wrong.',
    );
  });

  it('logs out one session', async () => {
    const guest = await signUp(server.app);
    await succeed(server.app, '/guest/logout', { api: apiBlock(), guest: credentials(guest) });
    const result = await call(server.app, '/guest/read', { api: apiBlock('ja'), guest: credentials(guest) });
    expect(result.body).toEqual({ api: { status: 'failed', errorMessage: 'ログインが切れました。もう一度ログインしてください。' } });
  });
});

describe('smoke', () => {
  it('makes a ready guest', async () => {
    const { readyGuest } = await import('../../test/harness.ts');
    const guest = await readyGuest(server.app);
    const answer = await succeed(server.app, '/guest/read', { api: apiBlock(), guest: credentials(guest) });
    expect(answer.guest).toMatchObject({ isVerified: true, phone: expect.stringMatching(/^090/) });
  });
});

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WARDEN_IDLE_TIMEOUT_MS } from '../../../shared/api/warden.ts';
import { loadConfig } from '../../config.ts';
import { WARDEN_SESSION_MS } from '../../services/wardens.ts';
import { createWarden as createTestWarden, injectedCalls, type TestWarden } from '../../test/console.ts';
import { apiBlock, fail, signUp, startTestServer, succeed, useTestServer } from '../../test/harness.ts';
import { signInWarden } from '../../test/wardens.ts';

const server = useTestServer();

/** For tests that start a server of their own: opening and migrating a database takes seconds on a loaded machine. */
const OWN_SERVER_TIMEOUT_MS = 60_000;

type Warden = TestWarden & { secret?: string };

const createWarden = (): Promise<Warden> => createTestWarden(server);

/** Both steps of the sign-in (the second factor enrolled at the first); the warden keeps their secret for the next. */
async function signIn(warden: Warden, email = warden.email): Promise<{ id: number; token: string }> {
  const signedIn = await signInWarden(injectedCalls(server.app, '10.20.0.1'), { ...warden, email });
  warden.secret = signedIn.secret;
  return signedIn;
}

const SIGN_IN_FAILED = 'The e-mail address or password is wrong.';
const SIGNED_OUT = 'Your console session has ended. Please sign in again.';

describe('/warden/authenticate', () => {
  it('signs a warden in by e-mail (any case), password and code, and the session reads back', async () => {
    const warden = await createWarden();
    const signedIn = await signIn(warden, warden.email.toUpperCase());
    expect(signedIn.id).toBe(warden.id);
    expect(signedIn.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const read = await succeed(server.app, '/warden/read', { api: apiBlock(), warden: { token: signedIn.token } });
    expect(read).toEqual({ api: { status: 'success' }, warden: { id: signedIn.id, title: warden.title } });
  });

  it('answers a wrong password and an unknown address with the same message, in the request language', async () => {
    const warden = await createWarden();
    const body = (email: string, language: 'en' | 'ja' = 'en') => ({ api: apiBlock(language), warden: { email, password: 'not the password' } });
    expect(await fail(server.app, '/warden/authenticate', body(warden.email), { remoteAddress: '10.20.0.2' })).toBe(SIGN_IN_FAILED);
    expect(await fail(server.app, '/warden/authenticate', body('nobody@example.com'), { remoteAddress: '10.20.0.2' })).toBe(SIGN_IN_FAILED);
    expect(await fail(server.app, '/warden/authenticate', body('nobody@example.com', 'ja'), { remoteAddress: '10.20.0.2' })).toBe(
      'メールアドレスまたはパスワードが違います。',
    );
  });

  it('makes an account wait after 10 failed sign-ins, even with the right password', async () => {
    const warden = await createWarden();
    for (let attempt = 0; attempt < 10; attempt += 1) {
      await fail(
        server.app,
        '/warden/authenticate',
        { api: apiBlock(), warden: { email: warden.email, password: 'wrong password' } },
        { remoteAddress: '10.20.0.3' },
      );
    }
    expect(
      await fail(
        server.app,
        '/warden/authenticate',
        { api: apiBlock(), warden: { email: warden.email, password: warden.password } },
        { remoteAddress: '10.20.0.4' },
      ),
    ).toBe('Too many attempts. Please wait a few minutes and try again.');
  }, 60_000);

  it.each([
    [{}, 'The request is invalid: warden.'],
    [{ warden: { email: 'a@example.com' } }, 'The request is invalid: warden.password.'],
    [{ warden: { email: '', password: 'x' } }, 'The request is invalid: warden.email.'],
    [{ warden: { email: 'a@example.com', password: 'p'.repeat(129) } }, 'The request is invalid: warden.password.'],
    [{ warden: { email: 7, password: 'password' } }, 'The request is invalid: warden.email.'],
  ])('rejects %o with the envelope', async (fields, expected) => {
    expect(await fail(server.app, '/warden/authenticate', { api: apiBlock(), ...fields }, { remoteAddress: '10.20.0.5' })).toBe(expected);
  });
});

describe('/warden/read and /warden/logout', () => {
  it('ends a session after 12 hours, however busy', async () => {
    const warden = await createWarden();
    const { token } = await signIn(warden);
    try {
      // Used within every idle time, up to a minute before its end.
      for (let used = 0; used < WARDEN_SESSION_MS - 60_000; used += WARDEN_IDLE_TIMEOUT_MS - 60_000) {
        server.clock.offsetMs = used;
        await succeed(server.app, '/warden/read', { api: apiBlock(), warden: { token } });
      }
      server.clock.offsetMs = WARDEN_SESSION_MS - 60_000;
      await succeed(server.app, '/warden/read', { api: apiBlock(), warden: { token } });
      server.clock.offsetMs += 60_000;
      expect(await fail(server.app, '/warden/read', { api: apiBlock(), warden: { token } })).toBe(SIGNED_OUT);
    } finally {
      server.clock.offsetMs = 0;
    }
  });

  it('logout ends the session, and only that one', async () => {
    const warden = await createWarden();
    const first = await signIn(warden);
    const second = await signIn(warden);
    expect(await succeed(server.app, '/warden/logout', { api: apiBlock(), warden: { token: first.token } })).toEqual({ api: { status: 'success' } });
    expect(await fail(server.app, '/warden/read', { api: apiBlock(), warden: { token: first.token } })).toBe(SIGNED_OUT);
    expect(await fail(server.app, '/warden/logout', { api: apiBlock(), warden: { token: first.token } })).toBe(SIGNED_OUT);
    await succeed(server.app, '/warden/read', { api: apiBlock(), warden: { token: second.token } });
  });

  it('does not take a guest session token as a warden token', async () => {
    const guest = await signUp(server.app);
    expect(await fail(server.app, '/warden/read', { api: apiBlock('ja'), warden: { token: guest.token } })).toBe(
      'コンソールのログインが切れました。もう一度ログインしてください。',
    );
    await succeed(server.app, '/guest/read', { api: apiBlock(), guest: { id: guest.id, token: guest.token } });
  });

  it.each([
    [{}, 'The request is invalid: warden.'],
    [{ warden: {} }, 'The request is invalid: warden.token.'],
    [{ warden: { token: '' } }, 'The request is invalid: warden.token.'],
    [{ warden: { token: 'x'.repeat(201) } }, 'The request is invalid: warden.token.'],
  ])('rejects %o with the envelope', async (fields, expected) => {
    expect(await fail(server.app, '/warden/read', { api: apiBlock(), ...fields })).toBe(expected);
    expect(await fail(server.app, '/warden/logout', { api: apiBlock(), ...fields })).toBe(expected);
  });

  it('answers a body that is not JSON with the envelope', async () => {
    const response = await server.app.inject({ method: 'POST', url: '/api/warden/read', payload: '{"api":', headers: { 'content-type': 'application/json' } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ api: { status: 'failed', errorMessage: 'The request could not be read.', errorCode: 'unreadable_request' } });
  });
});

describe('ICE_SERVERS', () => {
  it('is read into the configuration, and a bad value stops the start with a readable error', () => {
    expect(loadConfig({}).iceServers).toEqual([]);
    const servers = [{ urls: 'stun:stun.example:3478' }, { urls: ['stun:a.example', 'stuns:b.example:5349'] }];
    expect(loadConfig({ ICE_SERVERS: JSON.stringify(servers) }).iceServers).toEqual(servers);
    expect(() => loadConfig({ ICE_SERVERS: 'stun:stun.example' })).toThrow(/ICE_SERVERS must be JSON/);
    expect(() => loadConfig({ ICE_SERVERS: '{"urls":"stun:x"}' })).toThrow(/ICE_SERVERS must be an array/);
    expect(() => loadConfig({ ICE_SERVERS: '[{"urls":"https://x"}]' })).toThrow(/ICE_SERVERS .* at 0\.urls/);
    expect(() => loadConfig({ ICE_SERVERS: '[{"urls":[]}]' })).toThrow(/ICE_SERVERS/);
    expect(() => loadConfig({ ICE_SERVERS: '[{"urls":"stun:x","password":"p"}]' })).toThrow(/ICE_SERVERS/);
  });
});

describe('the console page', () => {
  it(
    'is served at /warden and below it; other client routes get the guest app',
    async () => {
      const distDir = await mkdtemp(join(tmpdir(), 'warden-dist-'));
      await writeFile(join(distDir, 'index.html'), '<title>guest app</title>');
      await writeFile(join(distDir, 'warden.html'), '<title>console</title>');
      const other = await startTestServer({ distDir });
      try {
        for (const path of ['/warden', '/warden/', '/warden/jail/12']) {
          const response = await other.app.inject({ method: 'GET', url: path });
          expect(response.statusCode, path).toBe(200);
          expect(response.body, path).toContain('console');
          expect(response.headers['cache-control']).toBe('no-cache');
        }
        for (const path of ['/wardens', '/reservations', '/guest/show']) {
          expect((await other.app.inject({ method: 'GET', url: path })).body, path).toContain('guest app');
        }
      } finally {
        await other.close();
        await rm(distDir, { recursive: true, force: true });
      }
    },
    OWN_SERVER_TIMEOUT_MS,
  );
});

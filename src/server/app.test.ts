import webpush from 'web-push';
import { contentSecurityPolicy } from './plugins/security-headers.ts';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app.ts';
import { loadConfig, type Config } from './config.ts';

const INDEX_HTML = '<!doctype html><title>Warden</title><div id="root"></div>';
// The build's app.html: index.html with the app's chunks preloaded (vite.config.ts, appPages).
const APP_HTML = '<!doctype html><title>Warden</title><link rel="modulepreload" href="/assets/start-abc123.js"><div id="root"></div>';
// The build's home.html: app.html with the reservation list's chunks preloaded too.
const HOME_HTML =
  '<!doctype html><title>Warden</title><link rel="modulepreload" href="/assets/start-abc123.js"><link rel="modulepreload" href="/assets/ListScreen-abc123.js"><div id="root"></div>';
// The smallest valid module: the magic number and version 1.
const EMPTY_WASM = new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);

let dist: string;
let app: FastifyInstance;
let config: Config;

beforeAll(async () => {
  dist = await mkdtemp(join(tmpdir(), 'warden-dist-'));
  await mkdir(join(dist, 'assets'));
  await writeFile(join(dist, 'index.html'), INDEX_HTML);
  await writeFile(join(dist, 'app.html'), APP_HTML);
  await writeFile(join(dist, 'home.html'), HOME_HTML);
  await writeFile(join(dist, 'assets', 'main-abc123.js'), 'console.log("warden");');
  await writeFile(join(dist, 'assets', 'vision-simd-abc123.wasm'), EMPTY_WASM);
  await writeFile(join(dist, '.secret'), 'not for the web');
  config = { ...loadConfig({}), distDir: dist, database: { driver: 'pglite', dataDir: null } };
  app = await buildApp(config, { logger: false });
  // A route that fails, to prove errors do not leak internals.
  app.get('/api/test-failure', async () => {
    throw new Error('database password is hunter2 at /srv/secret.ts:12');
  });
  app.post('/api/test-echo', async (request) => request.body);
  await app.ready();
});

afterAll(async () => {
  await app.close();
  await rm(dist, { recursive: true, force: true });
});

describe('GET /api/health', () => {
  it('answers ok with the release version', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.json()).toEqual({ status: 'ok', version: config.version });
    expect(config.version).toMatch(/^\d+\.\d+\.\d+/);
  });
});

describe('static files', () => {
  it('serves index.html at / without caching it', async () => {
    const response = await app.inject({ method: 'GET', url: '/' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.body).toBe(INDEX_HTML);
  });

  it('serves hashed assets as immutable', async () => {
    const response = await app.inject({ method: 'GET', url: '/assets/main-abc123.js' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.body).toBe('console.log("warden");');
  });

  it('serves WebAssembly as application/wasm', async () => {
    const response = await app.inject({ method: 'GET', url: '/assets/vision-simd-abc123.wasm' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/wasm');
    expect(new Uint8Array(response.rawPayload)).toEqual(EMPTY_WASM);
  });

  it('sends the security headers the camera worker relies on', async () => {
    const response = await app.inject({ method: 'GET', url: '/' });
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['content-security-policy']).toContain("'wasm-unsafe-eval'");
    expect(response.headers['content-security-policy']).toContain("worker-src 'self' blob:");
    expect(response.headers['permissions-policy']).toContain('camera=(self)');
    // Without Stripe nothing of Stripe's is allowed.
    expect(response.headers['content-security-policy']).not.toContain('stripe');
  });

  it("allows Stripe.js's script, card frames and API only with Stripe as the payment provider", () => {
    const withStripe = contentSecurityPolicy({ stripe: true });
    expect(withStripe).toContain("script-src 'self' 'wasm-unsafe-eval' https://js.stripe.com");
    expect(withStripe).toContain('frame-src https://js.stripe.com https://hooks.stripe.com');
    expect(withStripe).toContain("connect-src 'self' data: blob: https://api.stripe.com");
    expect(contentSecurityPolicy({ stripe: false })).toContain("frame-src 'none'");
  });

  it('does not serve dotfiles', async () => {
    const response = await app.inject({ method: 'GET', url: '/.secret' });
    expect(response.body).not.toContain('not for the web');
  });
});

describe('single-page app fallback', () => {
  it.each(['/camera-check', '/reservation/12', '/guest/verifyEmail/a.b.c', '/no/such/page?x=1'])('serves app.html (the app preloaded) for %s', async (url) => {
    const response = await app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.body).toBe(APP_HTML);
  });

  it('serves index.html (without the app preloaded) at / to a client that accepts compressed files', async () => {
    const response = await app.inject({ method: 'GET', url: '/', headers: { 'accept-encoding': 'gzip' } });
    expect(response.statusCode).toBe(200);
    const body = response.headers['content-encoding'] === 'gzip' ? gunzipSync(response.rawPayload).toString('utf8') : response.body;
    expect(body).toBe(INDEX_HTML);
  });

  it("serves home.html (the list preloaded too) at the guest's home", async () => {
    const response = await app.inject({ method: 'GET', url: '/reservations' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.body).toBe(HOME_HTML);
  });

  it('serves app.html, then index.html, at the home when the build has no page of its own', async () => {
    await rm(join(dist, 'home.html'));
    try {
      expect((await app.inject({ method: 'GET', url: '/reservations' })).body).toBe(APP_HTML);
      await rm(join(dist, 'app.html'));
      const response = await app.inject({ method: 'GET', url: '/reservations' });
      expect(response.statusCode).toBe(200);
      expect(response.body).toBe(INDEX_HTML);
    } finally {
      await writeFile(join(dist, 'app.html'), APP_HTML);
      await writeFile(join(dist, 'home.html'), HOME_HTML);
    }
  });

  it('answers a missing build asset with a 404, not HTML', async () => {
    const response = await app.inject({ method: 'GET', url: '/assets/main-old999.js' });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
  });

  it('does not answer other methods with the app', async () => {
    const response = await app.inject({ method: 'POST', url: '/camera-check', payload: {} });
    expect(response.statusCode).toBe(404);
    expect(response.body).not.toContain('<title>');
  });
});

describe('API errors', () => {
  it.each(['/api', '/api/nope', '/api/health/extra'])('answers unknown %s with a JSON 404', async (url) => {
    const response = await app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.json()).toEqual({
      statusCode: 404,
      error: 'Not Found',
      message: `Route GET ${url} not found`,
    });
  });

  it('answers a failure with a 500 that hides the cause', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/test-failure' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({
      statusCode: 500,
      error: 'Internal Server Error',
      message: 'Something went wrong on our side.',
    });
    expect(response.body).not.toMatch(/hunter2|secret\.ts|at /);
  });

  it('answers a malformed request with a 400 and no stack', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/test-echo',
      headers: { 'content-type': 'application/json' },
      payload: '{not json',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    expect(response.body).not.toContain('stack');
    expect(response.body).not.toMatch(/node_modules|\.js:\d+/);
  });
});

describe('without a built client', () => {
  it('explains instead of failing', async () => {
    const bare = await buildApp({ ...config, distDir: join(dist, 'missing') }, { logger: false });
    const response = await bare.inject({ method: 'GET', url: '/camera-check' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({ statusCode: 503 });
    const health = await bare.inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(200);
    await bare.close();
    // It opens and migrates a database of its own, as a suite's setup does (vite.config.ts: a hook gets a minute).
  }, 60_000);
});

describe('configuration', () => {
  it('has the documented defaults', () => {
    const defaults = loadConfig({});
    expect(defaults.port).toBe(8080);
    expect(defaults.host).toBe('0.0.0.0');
    expect(defaults.dataDir).toMatch(/\.data\/?$/);
    expect(defaults.publicUrl).toBeNull();
  });

  it('reads the environment and rejects bad values', () => {
    const custom = loadConfig({ PORT: '9090', HOST: '127.0.0.1', DATA_DIR: '/tmp/w', PUBLIC_URL: 'https://warden.example/x' });
    expect(custom).toMatchObject({ port: 9090, host: '127.0.0.1', dataDir: '/tmp/w', publicUrl: 'https://warden.example' });
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ PUBLIC_URL: 'warden.example' })).toThrow(/PUBLIC_URL/);
  });

  it('gives guest sessions 30 idle days and 90 in all, or what SESSION_IDLE_DAYS and SESSION_MAX_DAYS say', () => {
    const day = 86_400_000;
    expect(loadConfig({}).guestSessions).toEqual({ idleMs: 30 * day, maxMs: 90 * day });
    expect(loadConfig({ SESSION_IDLE_DAYS: '0.5', SESSION_MAX_DAYS: '7' }).guestSessions).toEqual({ idleMs: day / 2, maxMs: 7 * day });
    expect(() => loadConfig({ SESSION_IDLE_DAYS: 'never' })).toThrow(/SESSION_IDLE_DAYS/);
    expect(() => loadConfig({ SESSION_MAX_DAYS: '0' })).toThrow(/SESSION_MAX_DAYS/);
    expect(() => loadConfig({ SESSION_IDLE_DAYS: '100' })).toThrow(/SESSION_IDLE_DAYS must not be more than SESSION_MAX_DAYS/);
  });

  it('takes both VAPID keys or neither (then they are made and kept), and a mailto: or https: subject', () => {
    const keys = webpush.generateVAPIDKeys();
    expect(loadConfig({}).vapidKeys).toBeNull();
    expect(loadConfig({ VAPID_PUBLIC_KEY: keys.publicKey, VAPID_PRIVATE_KEY: keys.privateKey }).vapidKeys).toEqual(keys);
    expect(() => loadConfig({ VAPID_PUBLIC_KEY: keys.publicKey })).toThrow(/both VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY/);
    expect(() => loadConfig({ VAPID_PUBLIC_KEY: 'short', VAPID_PRIVATE_KEY: keys.privateKey })).toThrow(/base64url/);
    expect(loadConfig({}).vapidSubject).toBe('mailto:support@localhost');
    expect(loadConfig({ CONTACT_EMAIL: 'help@warden.example' }).vapidSubject).toBe('mailto:help@warden.example');
    expect(loadConfig({ VAPID_SUBJECT: 'https://warden.example' }).vapidSubject).toBe('https://warden.example');
    expect(() => loadConfig({ VAPID_SUBJECT: 'warden.example' })).toThrow(/VAPID_SUBJECT/);
  });
});

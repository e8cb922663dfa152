import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { message } from '../shared/messages.ts';
import { loadConfig } from './config.ts';
import dev from './routes/dev.ts';
import { useTestServer } from './test/harness.ts';
import { ON_POSTGRES, postApi, runServerUntilExit, startWatchedServer, stopGracefully, type HttpAnswer } from './test/server-process.ts';

/** The modes of docs/operations.md: a plain start, WARDEN_DEV=1, NODE_ENV=production. */

interface RouteProbe {
  method: string;
  url: string;
}

/** Every route the development plugin declares, read from the plugin itself so that a route added later is covered. */
async function developmentRoutes(): Promise<RouteProbe[]> {
  const probe = Fastify({ logger: false });
  const routes: RouteProbe[] = [];
  probe.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routes.push({ method, url: route.url.replaceAll(/:[A-Za-z]+/g, '1') });
  });
  await probe.register(dev, { prefix: '/dev' });
  await probe.ready();
  await probe.close();
  return routes;
}

function requestFor(route: RouteProbe): RequestInit {
  const hasBody = route.method !== 'GET' && route.method !== 'HEAD';
  return hasBody ? { method: route.method, headers: { 'content-type': 'application/json' }, body: '{}' } : { method: route.method };
}

/** The structured start-up line (main.ts). */
function startupLine(output: string): Record<string, unknown> {
  for (const line of output.split('\n')) {
    if (!line.startsWith('{')) continue;
    const entry = JSON.parse(line) as Record<string, unknown>;
    if (typeof entry.msg === 'string' && entry.msg.startsWith('Warden is serving')) return entry;
  }
  throw new Error(`no start-up line in:\n${output}`);
}

async function succeeded(answer: Promise<HttpAnswer>, what: string): Promise<HttpAnswer> {
  const done = await answer;
  expect(done.api, what).toEqual({ status: 'success' });
  return done;
}

function newGuestForm(): { title: string; email: string; password: string; timezone: number; language: 'en' } {
  const title = `guest${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  return { title, email: `${title}@example.com`, password: 'a long password', timezone: -540, language: 'en' };
}

const PRODUCTION = {
  NODE_ENV: 'production',
  SMTP_URL: 'smtp://mail.example:25',
  SMS_PROVIDER: 'twilio',
  TWILIO_ACCOUNT_SID: 'AC0123456789abcdef0123456789abcdef',
  TWILIO_AUTH_TOKEN: 'auth-token',
  TWILIO_FROM: '+15005550006',
  STRIPE_SECRET_KEY: 'sk_live_x',
  STRIPE_PUBLISHABLE_KEY: 'pk_live_x',
};

function without(env: Record<string, string>, ...names: string[]): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !names.includes(name)));
}

describe('loadConfig', () => {
  it('a plain start: no development routes; messages printed on the console; Stripe if keyed, else the local provider', () => {
    expect(loadConfig({})).toMatchObject({
      isProduction: false,
      devRoutes: false,
      emailDelivery: 'console',
      sms: { provider: 'console' },
      paymentProvider: null,
    });
    expect(loadConfig({ WARDEN_DEV: '1' }).devRoutes).toBe(true);
    expect(loadConfig({ NODE_ENV: 'development' }).devRoutes).toBe(false);
    expect(() => loadConfig({ WARDEN_DEV: 'yes' })).toThrow('WARDEN_DEV must be 1 (or unset), not "yes"');
  });

  it('production with every transport and Stripe starts, without development routes', () => {
    expect(loadConfig(PRODUCTION)).toMatchObject({
      isProduction: true,
      devRoutes: false,
      emailDelivery: 'smtp',
      sms: { provider: 'twilio', accountSid: PRODUCTION.TWILIO_ACCOUNT_SID, authToken: 'auth-token', from: '+15005550006', countryCode: '81', apiBase: null },
      paymentProvider: null,
    });
  });

  it('refuses WARDEN_DEV=1 in production', () => {
    expect(() => loadConfig({ ...PRODUCTION, WARDEN_DEV: '1' })).toThrow(/WARDEN_DEV=1 .* refused with NODE_ENV=production/);
  });

  it('refuses production without SMTP unless e-mail is log-only by name', () => {
    expect(() => loadConfig(without(PRODUCTION, 'SMTP_URL'))).toThrow(/e-mail needs SMTP_URL .*, or EMAIL_DELIVERY=log/);
    expect(loadConfig({ ...without(PRODUCTION, 'SMTP_URL'), EMAIL_DELIVERY: 'log' }).emailDelivery).toBe('log');
    expect(() => loadConfig({ ...PRODUCTION, EMAIL_DELIVERY: 'log' })).toThrow('EMAIL_DELIVERY=log and SMTP_URL are both set');
    expect(() => loadConfig({ EMAIL_DELIVERY: 'console' })).toThrow('EMAIL_DELIVERY must be log (or unset)');
  });

  it('refuses production without an SMS provider unless SMS are log-only by name', () => {
    expect(() => loadConfig(without(PRODUCTION, 'SMS_PROVIDER'))).toThrow(
      /SMS .* need SMS_PROVIDER=twilio with TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM, or SMS_PROVIDER=log/,
    );
    expect(loadConfig({ ...PRODUCTION, SMS_PROVIDER: 'log' }).sms).toEqual({ provider: 'log' });
    expect(() => loadConfig({ SMS_PROVIDER: 'console' })).toThrow('SMS_PROVIDER must be twilio or log, not "console"');
  });

  it('names each missing Twilio variable', () => {
    for (const name of ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN', 'TWILIO_FROM']) {
      expect(() => loadConfig(without(PRODUCTION, name))).toThrow(`SMS_PROVIDER=twilio needs ${name}`);
    }
    expect(() => loadConfig({ SMS_PROVIDER: 'twilio' })).toThrow('SMS_PROVIDER=twilio needs TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_FROM');
  });

  it('refuses production without Stripe keys unless the local provider is chosen by name', () => {
    expect(() => loadConfig(without(PRODUCTION, 'STRIPE_SECRET_KEY', 'STRIPE_PUBLISHABLE_KEY'))).toThrow(
      /In production card payments need STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY \(Stripe\), or PAYMENT_PROVIDER=local/,
    );
    expect(() => loadConfig(without(PRODUCTION, 'STRIPE_PUBLISHABLE_KEY'))).toThrow(/need STRIPE_PUBLISHABLE_KEY \(Stripe\)/);
    expect(loadConfig({ ...without(PRODUCTION, 'STRIPE_SECRET_KEY', 'STRIPE_PUBLISHABLE_KEY'), PAYMENT_PROVIDER: 'local' }).paymentProvider).toBe('local');
    expect(() => loadConfig({ PAYMENT_PROVIDER: 'stripe' })).toThrow(/PAYMENT_PROVIDER=stripe needs STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY/);
    expect(() => loadConfig({ PAYMENT_PROVIDER: 'paypal' })).toThrow('PAYMENT_PROVIDER must be stripe or local, not "paypal"');
  });
});

describe('with WARDEN_DEV=1 (the test servers)', () => {
  const server = useTestServer();

  it('answers every development route', async () => {
    const routes = await developmentRoutes();
    expect(routes.map((route) => `${route.method} ${route.url}`)).toEqual(expect.arrayContaining(['GET /dev/outbox', 'POST /dev/clock', 'POST /dev/admin']));
    for (const route of routes) {
      const init = requestFor(route);
      const response = await server.app.inject({
        method: route.method as 'GET',
        url: route.url,
        payload: init.body as string | undefined,
        headers: init.headers as Record<string, string> | undefined,
      });
      expect(response.statusCode, `${route.method} ${route.url}`).not.toBe(404);
    }
  });
});

// On the default database, PGlite, as npm start starts them: the PGlite pass only (ON_POSTGRES).
describe.skipIf(ON_POSTGRES)('servers started as npm start starts them', () => {
  let dataDir = '';
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'warden-modes-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('a plain start serves no development route and prints sign-up links and phone codes on its console', async () => {
    const server = await startWatchedServer({ DATA_DIR: join(dataDir, 'plain') });
    try {
      expect(startupLine(server.output())).toMatchObject({
        mode: 'plain',
        database: 'pglite',
        email: 'console',
        sms: 'console',
        payments: 'local',
        redis: false,
      });
      const routes = await developmentRoutes();
      expect(routes.length).toBeGreaterThanOrEqual(7);
      for (const route of routes) {
        const response = await fetch(`${server.url}${route.url}`, requestFor(route));
        expect(response.status, `${route.method} ${route.url}`).toBe(404);
      }

      // A newcomer without SMTP signs up with the link the console shows.
      const form = newGuestForm();
      const created = await succeeded(postApi(server.url, '/guest/create', { guest: form }), 'sign-up');
      const guest = created.guest as { id: number; token: string };
      await expect.poll(() => server.output()).toContain(`To: ${form.email}`);
      const token = /\/guest\/verifyEmail\/([A-Za-z0-9_-]+)/.exec(server.output())?.[1];
      expect(token).toBeDefined();
      await succeeded(postApi(server.url, '/guest/verifyEmail', { guest: { token } }), 'verification');

      const phone = '09012345678';
      await succeeded(postApi(server.url, '/guest/requestPhoneCode', { guest: { id: guest.id, token: guest.token, phone } }), 'phone code');
      await expect.poll(() => server.output()).toContain(`To: ${phone}`);
      const code = /To: 09012345678\n\n\D*(\d{6})/.exec(server.output())?.[1];
      expect(code).toBeDefined();
      const updated = await succeeded(postApi(server.url, '/guest/update', { guest: { id: guest.id, token: guest.token, phone, phoneCode: code } }), 'phone');
      expect((updated.guest as { phone: string }).phone).toBe(phone);
    } finally {
      await stopGracefully(server.child);
    }
  }, 120_000);

  it('production with log-only messages sends none, logs that without their text, and says so at start', async () => {
    const server = await startWatchedServer({
      NODE_ENV: 'production',
      DATA_DIR: join(dataDir, 'production'),
      EMAIL_DELIVERY: 'log',
      SMS_PROVIDER: 'log',
      PAYMENT_PROVIDER: 'local',
    });
    try {
      expect(startupLine(server.output())).toMatchObject({ mode: 'production', email: 'log-only', sms: 'log-only', payments: 'local', redis: false });
      expect((await fetch(`${server.url}/dev/outbox`)).status).toBe(404);

      const form = newGuestForm();
      const created = await succeeded(postApi(server.url, '/guest/create', { guest: form }), 'sign-up');
      const guest = created.guest as { id: number; token: string };
      await succeeded(postApi(server.url, '/guest/requestPhoneCode', { guest: { id: guest.id, token: guest.token, phone: '09087654321' } }), 'phone code');
      await expect.poll(() => server.output()).toContain('no sms transport: message not sent');
      expect(server.output()).toContain('no email transport: message not sent');
      expect(server.output()).not.toContain('/guest/verifyEmail/');
      expect(server.output()).not.toContain(message('en', 'phone_code_sms', { code: '\u0000' }).split('\u0000')[0]);
      expect(server.output()).not.toContain('printed here instead of sent');
    } finally {
      await stopGracefully(server.child);
    }
  }, 120_000);

  it('production refuses to start with WARDEN_DEV=1, or without transports, with a readable message', async () => {
    const withDev = await runServerUntilExit({ ...PRODUCTION, WARDEN_DEV: '1', DATA_DIR: join(dataDir, 'refused') });
    expect(withDev.code).toBe(1);
    expect(withDev.output.trim()).toBe(
      'WARDEN_DEV=1 turns on the development routes (accounts, outbox, clock) and is refused with NODE_ENV=production: unset one of them',
    );
    const bare = await runServerUntilExit({ NODE_ENV: 'production', DATA_DIR: join(dataDir, 'refused') });
    expect(bare.code).toBe(1);
    expect(bare.output).toMatch(/^In production e-mail needs SMTP_URL/);
  }, 120_000);
});

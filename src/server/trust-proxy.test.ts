import { like } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import { rateLimitBuckets } from './db/schema/index.ts';
import { RATE_RULES } from './lib/rate-limiter.ts';
import { apiBlock, call, startTestServer, type TestServer } from './test/harness.ts';

/** Asks for a password-reset mail for an unknown address (limited per client address), as `remoteAddress` behind `forwardedFor`. */
async function askForReset(app: FastifyInstance, remoteAddress: string, forwardedFor: string | null, email: string): Promise<'sent' | 'limited'> {
  const result = await call(
    app,
    '/guest/updatePasswordEmail',
    { api: apiBlock(), guest: { email } },
    {
      remoteAddress,
      headers: { 'content-type': 'application/json', ...(forwardedFor === null ? {} : { 'x-forwarded-for': forwardedFor }) },
    },
  );
  expect(result.statusCode).toBe(200);
  if (result.body.api.status === 'success') return 'sent';
  expect(result.body.api.errorMessage).toMatch(/Too many attempts/);
  return 'limited';
}

/** The client addresses the mail limit counted, by bucket key. */
async function countedAddresses(app: FastifyInstance): Promise<string[]> {
  const rows = await app.db.select({ key: rateLimitBuckets.key }).from(rateLimitBuckets).where(like(rateLimitBuckets.key, 'mail:address:%'));
  return rows.map((row) => row.key.slice('mail:address:'.length)).sort();
}

let emailCounter = 0;
const nextEmail = (): string => `nobody${(emailCounter += 1)}@example.com`;

describe('TRUST_PROXY', () => {
  it('reads a hop count or a list of addresses and ranges, and refuses to trust everyone', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.2, 10.1.0.0/16,::1,fd00::/8,loopback' }).trustProxy).toEqual([
      '10.0.0.2',
      '10.1.0.0/16',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY must be the number of reverse proxies .* \(trusting every address/);
    expect(() => loadConfig({ TRUST_PROXY: 'yes' })).toThrow(/TRUST_PROXY must be the number .* or their addresses/);
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/33' })).toThrow(/TRUST_PROXY/);
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.300' })).toThrow(/TRUST_PROXY/);
  });
});

describe('behind one proxy (TRUST_PROXY=1)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ trustProxy: loadConfig({ TRUST_PROXY: '1' }).trustProxy });
  });
  afterAll(() => server.close());

  it('counts a client by the address the proxy added, whatever it put first', async () => {
    const proxy = '10.0.0.2';
    const limit = RATE_RULES.mailsPerAddress.limit;
    for (let i = 0; i < limit; i += 1) {
      expect(await askForReset(server.app, proxy, `198.51.100.${i}, 203.0.113.7`, nextEmail())).toBe('sent');
    }
    expect(await askForReset(server.app, proxy, `198.51.100.99, 203.0.113.7`, nextEmail())).toBe('limited');
    expect(await askForReset(server.app, proxy, '203.0.113.7', nextEmail())).toBe('limited');
    // Another client behind the same proxy is not held back.
    expect(await askForReset(server.app, proxy, '203.0.113.8', nextEmail())).toBe('sent');
    expect(await countedAddresses(server.app)).toEqual(['203.0.113.7', '203.0.113.8']);
  });
});

describe('behind proxies named by address (TRUST_PROXY=10.0.0.0/8)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ trustProxy: loadConfig({ TRUST_PROXY: '10.0.0.0/8' }).trustProxy });
  });
  afterAll(() => server.close());

  it('reads X-Forwarded-For from a trusted proxy only; any other caller is its socket address', async () => {
    expect(await askForReset(server.app, '10.3.0.1', '203.0.113.20', nextEmail())).toBe('sent');
    expect(await askForReset(server.app, '192.0.2.50', '203.0.113.21', nextEmail())).toBe('sent');
    expect(await askForReset(server.app, '192.0.2.51', null, nextEmail())).toBe('sent');
    expect(await countedAddresses(server.app)).toEqual(['192.0.2.50', '192.0.2.51', '203.0.113.20']);
  });
});

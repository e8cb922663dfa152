import { mkdtempSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { useTestServer, type TestServer } from '../test/harness.ts';
import { STRICT_TRANSPORT_SECURITY } from './security-headers.ts';

const dist = mkdtempSync(join(tmpdir(), 'warden-dist-'));
writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Warden</title>');
afterAll(() => rm(dist, { recursive: true, force: true }));

/** An API answer, a refusal, a missing route, a client page and a bad body: every kind of answer the server gives. */
const REQUESTS = [
  { method: 'GET', url: '/api/health' },
  { method: 'POST', url: '/api/guest/read', payload: '{"api":{"language":"en"},"guest":{"id":1,"token":"x"}}' },
  { method: 'GET', url: '/api/nothing-here' },
  { method: 'GET', url: '/reservations' },
  { method: 'POST', url: '/api/guest/read', payload: '{not json' },
] as const;

async function strictTransportHeaders(server: TestServer): Promise<(string | undefined)[]> {
  const headers: (string | undefined)[] = [];
  for (const request of REQUESTS) {
    const response = await server.app.inject({ ...request, headers: { 'content-type': 'application/json' } });
    const value = response.headers['strict-transport-security'];
    headers.push(Array.isArray(value) ? value.join(', ') : value);
  }
  return headers;
}

describe('Strict-Transport-Security over https', () => {
  const server = useTestServer({ publicUrl: 'https://warden.example', distDir: dist });

  it('is on every answer when PUBLIC_URL is https', async () => {
    expect(STRICT_TRANSPORT_SECURITY).toBe('max-age=31536000; includeSubDomains');
    expect(await strictTransportHeaders(server)).toEqual(REQUESTS.map(() => STRICT_TRANSPORT_SECURITY));
  });
});

describe('Strict-Transport-Security over http', () => {
  const server = useTestServer({ publicUrl: 'http://warden.example', distDir: dist });

  it('is on no answer when PUBLIC_URL is plain http', async () => {
    expect(await strictTransportHeaders(server)).toEqual(REQUESTS.map(() => undefined));
  });
});

describe('Strict-Transport-Security without PUBLIC_URL', () => {
  const server = useTestServer({ publicUrl: null, distDir: dist });

  it('is on no answer when the public address is not known', async () => {
    expect(await strictTransportHeaders(server)).toEqual(REQUESTS.map(() => undefined));
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import { BodyFuzzer, MALFORMED_PAYLOADS, supersetBody } from './test/fuzz.ts';
import { credentials, readyGuest, useTestServer } from './test/harness.ts';
import { apiPostRoutes } from './test/routes.ts';

/**
 * Every registered `POST /api/*` route, whoever added it, gets malformed and
 * random bodies; none may answer 5xx, and every answer is the envelope.
 */

const BODIES_PER_ROUTE = 60;

const server = useTestServer();
let routes: string[];

beforeAll(() => {
  routes = apiPostRoutes(server.app);
});

interface Envelope {
  api?: { status?: unknown; errorMessage?: unknown };
}

/** A ZIP's first bytes: the signature of its first local file header. */
const ZIP_SIGNATURE = Buffer.from('PK\x03\x04', 'latin1');

async function send(url: string, payload: string, contentType = 'application/json'): Promise<{ statusCode: number; body: Envelope }> {
  const response = await server.app.inject({ method: 'POST', url, payload, headers: { 'content-type': contentType } });
  // The export's success is the archive itself (docs/privacy.md, Export): it must be one.
  if (response.statusCode === 200 && response.headers['content-type'] === 'application/zip') {
    expect(response.rawPayload.subarray(0, ZIP_SIGNATURE.length), url).toEqual(ZIP_SIGNATURE);
    return { statusCode: response.statusCode, body: { api: { status: 'success' } } };
  }
  return { statusCode: response.statusCode, body: response.json<Envelope>() };
}

function expectEnvelope(result: { statusCode: number; body: Envelope }, what: string): void {
  expect(result.statusCode, what).toBeLessThan(500);
  expect(['success', 'failed'], what).toContain(result.body.api?.status);
  if (result.body.api?.status === 'failed') expect(typeof result.body.api.errorMessage, what).toBe('string');
}

describe('fuzz', () => {
  it('finds the API routes', () => {
    expect(routes).toContain('/api/guest/create');
    expect(routes).toContain('/api/errorLog/create');
    expect(routes.length).toBeGreaterThanOrEqual(15);
  });

  it('answers malformed payloads with the envelope, never a 5xx', async () => {
    for (const url of routes) {
      for (const payload of MALFORMED_PAYLOADS) {
        expectEnvelope(await send(url, payload), `${url} ${JSON.stringify(payload.slice(0, 40))}`);
      }
      expectEnvelope(await send(url, 'api=1', 'application/x-www-form-urlencoded'), `${url} form body`);
      expectEnvelope(await send(url, '{}', 'text/plain'), `${url} text/plain`);
    }
  }, 60_000);

  it('answers random and mutated bodies with the envelope, never a 5xx', async () => {
    let seed = 20_240_601;
    for (const url of routes) {
      // A guest of its own for each route: a route may log out or change the account.
      const guest = credentials(await readyGuest(server.app));
      const template = supersetBody(guest, server.clock.now());
      const fuzzer = new BodyFuzzer((seed += 1), guest);
      expectEnvelope(await send(url, JSON.stringify(template)), `${url} template`);
      for (let i = 0; i < BODIES_PER_ROUTE; i += 1) {
        const payload = JSON.stringify(i % 2 === 0 ? fuzzer.mutated(template) : fuzzer.body());
        expectEnvelope(await send(url, payload), `${url} ${payload.slice(0, 300)}`);
      }
    }
  }, 180_000);

  it('leaves Object.prototype alone', () => {
    expect(Object.prototype).not.toHaveProperty('polluted');
  });
});

import { Writable } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { LOG_REDACT_PATHS } from './app.ts';
import { PLANS } from '../shared/plans.ts';
import { apiBlock, bookJail, call, credentials, fail, outbox, readyGuest, signUp, startTestServer, succeed, useTestServer } from './test/harness.ts';

/** What the server wrote to its log, for the redaction test. */
const logLines: string[] = [];
const logStream = new Writable({
  write(chunk: Buffer, _encoding, done) {
    logLines.push(chunk.toString());
    done();
  },
});

const server = useTestServer({}, { logger: { level: 'debug', stream: logStream, redact: LOG_REDACT_PATHS } });

async function post(url: string, payload: string, contentType = 'application/json') {
  return server.app.inject({ method: 'POST', url, payload, headers: { 'content-type': contentType } });
}

describe('the envelope', () => {
  it('answers success as {api:{status:"success"}, ...payload}', async () => {
    const guest = await signUp(server.app);
    const answer = await succeed(server.app, '/guest/read', { api: apiBlock(), guest: credentials(guest) });
    expect(Object.keys(answer).sort()).toEqual(['api', 'guest']);
  });

  it('answers a body that is not JSON with 400 and the envelope', async () => {
    const response = await post('/api/guest/read', '{"api":');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ api: { status: 'failed', errorMessage: 'The request could not be read.', errorCode: 'unreadable_request' } });
    expect(response.body).not.toMatch(/stack|node_modules|at /);
  });

  it('answers a body of another type with 415 and the envelope', async () => {
    const response = await post('/api/guest/read', 'api[language]=en', 'application/x-www-form-urlencoded');
    expect(response.statusCode).toBe(415);
    expect(response.json()).toMatchObject({ api: { status: 'failed' } });
  });

  it('answers a body over 1 MiB with 413 and the envelope', async () => {
    const response = await post('/api/errorLog/create', JSON.stringify({ api: apiBlock(), errorLog: 'x'.repeat(1_100_000) }));
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ api: { status: 'failed', errorMessage: 'The request is too large.', errorCode: 'request_too_large' } });
  });

  it('answers a schema-invalid body with HTTP 200, naming the fields, in the request language', async () => {
    const result = await call(server.app, '/guest/read', { api: apiBlock('ja'), guest: { id: 'one', token: 7 } });
    expect(result.statusCode).toBe(200);
    expect(result.body).toEqual({
      api: { status: 'failed', errorMessage: 'リクエストの内容が正しくありません: guest.id, guest.token。', errorCode: 'invalid_request' },
    });
  });

  it('answers in English when the language is missing or unknown', async () => {
    expect(await fail(server.app, '/guest/read', { api: { language: 'fr' } })).toBe('The request is invalid: api.language, guest.');
    expect(await fail(server.app, '/guest/read', {})).toBe('The request is invalid: api, guest.');
  });

  it('refuses NUL characters, which the database cannot store', async () => {
    expect(await fail(server.app, '/errorLog/create', { api: apiBlock(), errorLog: 'a\u0000b' })).toBe('The request is invalid: errorLog.');
  });

  it('answers an unknown route or method with a JSON 404', async () => {
    const unknown = await post('/api/guest/nope', '{}');
    expect(unknown.statusCode).toBe(404);
    const wrongMethod = await server.app.inject({ method: 'GET', url: '/api/guest/read' });
    expect(wrongMethod.statusCode).toBe(404);
    expect(wrongMethod.headers['content-type']).toMatch(/^application\/json/);
  });

  it('answers an unexpected failure with 500 and the envelope, and logs the cause only', async () => {
    const spy = vi.spyOn(server.app, 'authenticatedSession').mockRejectedValue(new Error('connection to db.internal:5432 refused'));
    try {
      const response = await post('/api/guest/read', JSON.stringify({ api: apiBlock('ja'), guest: { id: 1, token: 'secret-session-token' } }));
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual({ api: { status: 'failed', errorMessage: 'サーバーエラーが発生しました。', errorCode: 'server_error' } });
      expect(response.body).not.toContain('db.internal');
      expect(logLines.join('')).toContain('db.internal');
    } finally {
      spy.mockRestore();
    }
  });

  it('never logs tokens, passwords or codes', async () => {
    const guest = await signUp(server.app, { password: 'do-not-log-this-password' });
    await call(server.app, '/guest/authenticate', { api: apiBlock(), guest: { title: guest.title, password: 'do-not-log-this-password' } });
    await call(server.app, '/guest/read', { api: apiBlock(), guest: { id: guest.id, token: 42 } });
    await call(server.app, '/guest/update', { api: apiBlock(), guest: { ...credentials(guest), phone: '09099998888', phoneCode: '654321' } });
    await post('/api/guest/read', `{"api":{"language":"en"},"guest":{"id":${guest.id},"token":"${guest.token}"`);
    const log = logLines.join('');
    expect(log.length).toBeGreaterThan(0);
    expect(log).not.toContain(guest.token);
    expect(log).not.toContain('do-not-log-this-password');
    expect(log).not.toContain('654321');
  });
});

describe('development routes', () => {
  it('GET /dev/outbox lists the messages, newest last', async () => {
    const first = await signUp(server.app);
    const second = await signUp(server.app);
    const messages = await outbox(server.app);
    const last = messages.at(-1);
    expect(messages.findLastIndex((message) => message.to === first.email)).toBeLessThan(messages.length - 1);
    expect(last).toMatchObject({ channel: 'email', to: second.email, subject: expect.any(String), text: expect.any(String), createdAt: expect.any(Number) });
  });

  it('POST /dev/clock shifts the server clock', async () => {
    const before = Date.now();
    const response = await server.app.inject({ method: 'POST', url: '/dev/clock', payload: { offsetMs: 86_400_000 } });
    expect(response.statusCode).toBe(200);
    const shifted = response.json<{ offsetMs: number; now: number }>();
    expect(shifted.offsetMs).toBe(86_400_000);
    expect(shifted.now - before).toBeGreaterThanOrEqual(86_400_000);
    expect(server.clock.now() - Date.now()).toBeGreaterThanOrEqual(86_399_000);
    const bad = await server.app.inject({ method: 'POST', url: '/dev/clock', payload: { offsetMs: 'tomorrow' } });
    expect(bad.statusCode).toBe(400);
    await server.app.inject({ method: 'POST', url: '/dev/clock', payload: { offsetMs: 0 } });
    expect(server.clock.offsetMs).toBe(0);
  });

  it('POST /dev/admin runs an admin command inside the server, and answers a bad one with 400', async () => {
    const guest = await signUp(server.app);
    const email = `warden-${guest.id}@example.com`;
    const created = await server.app.inject({
      method: 'POST',
      url: '/dev/admin',
      payload: { args: ['create-warden', '--title', `Warden ${guest.id}`, '--email', email] },
    });
    expect(created.statusCode).toBe(200);
    expect(created.json<{ lines: string[] }>().lines[0]).toMatch(/^warden \d+ created/);
    const issued = await server.app.inject({
      method: 'POST',
      url: '/dev/admin',
      payload: { args: ['facilitator-token', '--warden', email, '--guest', String(guest.id)] },
    });
    const [, token] = issued.json<{ lines: string[] }>().lines;
    const session = await succeed(server.app, '/guest/authenticateAsLimFacilitator', { api: apiBlock(), guest: { id: guest.id }, facilitator: { token } });
    expect(session.guest).toMatchObject({ id: guest.id });
    for (const args of [['nope'], ['create-warden', '--colour', 'red'], ['facilitator-token', '--warden', email, '--guest', '999999']]) {
      const bad = await server.app.inject({ method: 'POST', url: '/dev/admin', payload: { args } });
      expect(bad.statusCode, args.join(' ')).toBe(400);
      expect(bad.json<{ error: string }>().error).not.toBe('');
    }
  });

  it('POST /dev/guest-state sets lazy alerts, a suspension, the trial end, a plan and its hours used, seen by /guest/read', async () => {
    const guest = await signUp(server.app);
    const now = server.clock.now();
    const state = {
      guestId: guest.id,
      lazyAlerts: [now - 2_000, now - 1_000],
      suspendedUntil: now + 3_600_000,
      subscriptionExpiredAt: now - 1,
      subscriptionPlan: 'light',
      totalDurationThisMonth: 11.5,
    };
    expect((await server.app.inject({ method: 'POST', url: '/dev/guest-state', payload: state })).statusCode).toBe(200);
    const read = await succeed(server.app, '/guest/read', { api: apiBlock(), guest: credentials(guest) });
    expect(read.guest).toMatchObject({
      lazyAlerts: [{ created: now - 2_000 }, { created: now - 1_000 }],
      suspendedUntil: now + 3_600_000,
      subscriptionExpiredAt: now - 1,
      subscriptionPlan: PLANS.light.code,
      totalDurationThisMonth: 11.5,
    });
    const unknown = await server.app.inject({ method: 'POST', url: '/dev/guest-state', payload: { guestId: 999_999, lazyAlerts: [] } });
    expect(unknown.statusCode).toBe(404);
  });

  it('POST /dev/activity-logs adds logs that the reservation read returns in time order', async () => {
    const guest = await readyGuest(server.app);
    const { id, startTime } = await bookJail(server.app, guest, 7);
    const logs = [
      { type: 'instruction', time: startTime + 2_000, instruction: { text: 'second' } },
      { type: 'motion', time: startTime + 1_000, motion: { type: 1 } },
    ];
    expect((await server.app.inject({ method: 'POST', url: '/dev/activity-logs', payload: { reservationId: id, logs } })).statusCode).toBe(200);
    const read = await succeed(server.app, '/reservation/read', { api: apiBlock(), guest: credentials(guest), reservation: { id } });
    expect((read.reservation as { activityLogs: unknown[] }).activityLogs).toEqual([logs[1], logs[0]]);
    const bad = await server.app.inject({ method: 'POST', url: '/dev/activity-logs', payload: { reservationId: id, logs: [{ type: 'patrol', time: 1 }] } });
    expect(bad.statusCode).toBe(400);
  });
});

describe('in production', () => {
  it('has no /dev/ routes and keeps no outbox (without WARDEN_DEV)', async () => {
    const production = await startTestServer({ isProduction: true, devRoutes: false });
    try {
      await signUp(production.app);
      for (const [method, url] of [
        ['GET', '/dev/outbox'],
        ['GET', '/dev/clock'],
        ['POST', '/dev/clock'],
        ['POST', '/dev/admin'],
        ['POST', '/dev/guest-state'],
        ['POST', '/dev/activity-logs'],
      ] as const) {
        const response = await production.app.inject({ method, url, payload: method === 'POST' ? { offsetMs: 1 } : undefined });
        expect(response.statusCode, `${method} ${url}`).toBe(404);
      }
      expect(production.app.outbox.messages()).toEqual([]);
      expect(production.clock.offsetMs).toBe(0);
    } finally {
      await production.close();
    }
  }, 30_000);
});

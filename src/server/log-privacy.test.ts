import { mkdtempSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { runAdmin } from './admin.ts';
import { LOG_REDACT_PATHS } from './app.ts';
import { errorLogs } from './db/schema/index.ts';
import { MASK, maskTokens, TOKEN_PATHS } from './lib/log-privacy.ts';
import { apiBlock, useTestServer, succeed } from './test/harness.ts';
import { RelayClient } from './test/relay-client.ts';

/** Every line the server logged, as written. */
const logLines: string[] = [];
const logStream = new Writable({
  write(chunk: Buffer, _encoding, done) {
    logLines.push(
      ...chunk
        .toString()
        .split('\n')
        .filter((line) => line !== ''),
    );
    done();
  },
});

const dist = mkdtempSync(join(tmpdir(), 'warden-dist-'));
writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Warden</title><div id="root"></div>');
afterAll(() => rm(dist, { recursive: true, force: true }));

// The options main.ts gives (its level aside): the most a log ever shows.
const server = useTestServer({ distDir: dist }, { logger: { level: 'trace', stream: logStream, redact: LOG_REDACT_PATHS } });

const ADDRESS = '10.77.0.1';

/** The link of the newest mail to `email` whose path starts with `path`. */
function mailedLink(email: string, path: string): { url: string; token: string } {
  const message = server.app.outbox.messages().findLast((record) => record.to === email);
  const match = new RegExp(`https?://[^/\\s]+(${path}([A-Za-z0-9_-]+))`).exec(message?.text ?? '');
  if (match?.[1] === undefined || match[2] === undefined) throw new Error(`no ${path} link mailed to ${email}`);
  return { url: match[1], token: match[2] };
}

/** GETs a client page as a browser opening the link does; the app's page is the answer. */
async function openPage(url: string): Promise<void> {
  const response = await server.app.inject({ method: 'GET', url, headers: { accept: 'text/html' }, remoteAddress: ADDRESS });
  expect(response.statusCode, url).toBe(200);
  expect(response.body).toContain('<div id="root">');
}

function api(path: string, body: unknown): Promise<Record<string, unknown>> {
  return succeed(server.app, path, { api: apiBlock(), ...(body as object) }, { remoteAddress: ADDRESS });
}

function inject(options: InjectOptions) {
  return server.app.inject({ remoteAddress: ADDRESS, ...options });
}

interface Session {
  id: number;
  token: string;
}

describe('the log of a whole flow', () => {
  it('records every request and error, and none of the secrets the flow issued', async () => {
    const secrets: Record<string, string> = {};
    const email = 'log-flow@example.com';
    const password = 'first-password-1';

    // Sign-up, and the verification link: its page, then the call the page makes.
    const created = (await api('/guest/create', { guest: { title: 'logflow', email, password, timezone: -540, language: 'en' } })).guest as Session;
    secrets.firstSession = created.token;
    const verify = mailedLink(email, '/guest/verifyEmail/');
    secrets.verifyToken = verify.token;
    await openPage(verify.url);
    await api('/guest/verifyEmail', { guest: { token: verify.token } });

    // A password reset, the same way; the new password signs in.
    await api('/guest/updatePasswordEmail', { guest: { email } });
    const reset = mailedLink(email, '/guest/updatePassword/');
    secrets.resetToken = reset.token;
    await openPage(reset.url);
    secrets.newPassword = 'second-password-2';
    await api('/guest/updatePassword', { guest: { token: reset.token, password: secrets.newPassword } });
    const session = (await api('/guest/authenticate', { guest: { title: email, password: secrets.newPassword } })).guest as Session;
    secrets.session = session.token;

    // The webhook: a real token, a call that books (or is refused by a rule), one with a body that is not JSON, and a wrong method.
    const webhook = (await api('/guest/regenerateWebhookToken', { guest: session })).webhookToken as { token: string };
    secrets.webhookToken = webhook.token;
    await api('/guest/update', { guest: { ...session, webhookEnabled: true } });
    const booked = await inject({
      method: 'POST',
      url: `/hooks/reservation/${webhook.token}`,
      payload: { date: '2030-01-08', time: '10:30', duration: 90, repeatType: 'none', work: 'Write the chapter' },
    });
    expect([200, 422]).toContain(booked.statusCode);
    const unreadable = await inject({
      method: 'POST',
      url: `/hooks/reservation/${webhook.token}`,
      payload: '{"date":',
      headers: { 'content-type': 'application/json' },
    });
    expect(unreadable.statusCode).toBe(400);
    expect((await inject({ method: 'GET', url: `/hooks/reservation/${webhook.token}` })).statusCode).toBe(404);

    // The calendar feed: its address made, then read as a calendar app would.
    const feed = (await api('/guest/regenerateCalendarFeed', { guest: session })).calendarFeed as { url: string };
    const feedPath = new URL(feed.url).pathname;
    secrets.calendarToken = feedPath.slice('/calendar/'.length, -'.ics'.length);
    expect((await inject({ method: 'GET', url: feedPath })).statusCode).toBe(200);

    // A facilitator sign-in: the operator's token, its page, the call the page makes.
    await runAdmin(['create-warden', '--title', 'LogWarden', '--email', 'log-warden@example.com'], server.app.db, server.clock, server.app.config);
    const issued = await runAdmin(
      ['facilitator-token', '--warden', 'log-warden@example.com', '--guest', String(session.id), '--hours', '1'],
      server.app.db,
      server.clock,
      server.app.config,
    );
    const facilitatorToken = issued[1] ?? '';
    expect(facilitatorToken).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    secrets.facilitatorToken = facilitatorToken;
    await openPage(`/guest/loginAsLimFacilitator/${facilitatorToken}/${session.id}`);
    const facilitated = (await api('/guest/authenticateAsLimFacilitator', { guest: { id: session.id }, facilitator: { token: facilitatorToken } }))
      .guest as Session;
    secrets.facilitatorSession = facilitated.token;

    // A page's URL with a body that cannot be read goes through the error handler ('request rejected').
    const rejected = await inject({ method: 'POST', url: verify.url, payload: '{"token":', headers: { 'content-type': 'application/json' } });
    expect(rejected.statusCode).toBe(400);

    // A client error report names the page it broke on: kept without the token.
    await api('/errorLog/create', { guest: session, errorLog: `TypeError: x is undefined\nat /guest/updatePassword/${reset.token}` });
    const [report] = await server.app.db.select({ text: errorLogs.text }).from(errorLogs).where(eq(errorLogs.guestId, session.id));
    expect(report?.text).toBe(`TypeError: x is undefined\nat /guest/updatePassword/${MASK}`);

    // The live relay: the socket's handshake carries the session.
    const address = await server.app.listen({ port: 0, host: '127.0.0.1' });
    const socket = await RelayClient.connect(address, { guest: session });
    socket.socket.close();

    // The log saw the flow ...
    const entries = logLines.map((line) => JSON.parse(line) as { msg?: string; req?: { url?: string } });
    const requested = entries.filter((entry) => entry.msg === 'incoming request').map((entry) => entry.req?.url);
    expect(requested).toEqual(
      expect.arrayContaining([
        '/api/guest/create',
        `/guest/verifyEmail/${MASK}`,
        '/api/guest/verifyEmail',
        `/guest/updatePassword/${MASK}`,
        '/api/guest/updatePassword',
        `/hooks/reservation/${MASK}`,
        `/calendar/${MASK}`,
        `/guest/loginAsLimFacilitator/${MASK}/${session.id}`,
        '/api/guest/authenticateAsLimFacilitator',
      ]),
    );
    expect(requested.filter((url) => url === `/hooks/reservation/${MASK}`)).toHaveLength(3);
    expect(entries.filter((entry) => entry.msg === 'request rejected')).toHaveLength(1);
    expect(entries.filter((entry) => entry.msg === 'request completed').length).toBeGreaterThanOrEqual(requested.length);

    // ... and none of its secrets, in any line.
    const log = logLines.join('\n');
    for (const [name, secret] of Object.entries(secrets)) {
      expect(secret.length, name).toBeGreaterThanOrEqual(8);
      expect(log.includes(secret), `${name} is in the log`).toBe(false);
    }
  });
});

describe('maskTokens', () => {
  it('masks the secret of every token path, however the path is written, and keeps the rest', () => {
    expect(TOKEN_PATHS.length).toBeGreaterThanOrEqual(4);
    expect(maskTokens('/guest/verifyEmail/abc_DEF-123')).toBe(`/guest/verifyEmail/${MASK}`);
    expect(maskTokens('/GUEST/UpdatePassword/abc?lang=ja')).toBe(`/GUEST/UpdatePassword/${MASK}?lang=ja`);
    expect(maskTokens('//guest//loginAsLimFacilitator/abc/12')).toBe(`//guest//loginAsLimFacilitator/${MASK}/12`);
    expect(maskTokens('/hooks/reservation/a/b%2Fc#x')).toBe(`/hooks/reservation/${MASK}#x`);
    expect(maskTokens('/calendar/abc_DEF-123.ics')).toBe(`/calendar/${MASK}`);
    expect(maskTokens('/api/guest/verifyEmail')).toBe('/api/guest/verifyEmail');
    expect(maskTokens('/reservation/12')).toBe('/reservation/12');
  });

  it('masks query values whose names say secret, and keeps a log line valid JSON', () => {
    expect(maskTokens('/camera-check?engine=js&token=abc&apiKey=z&sid=q')).toBe(`/camera-check?engine=js&token=${MASK}&apiKey=${MASK}&sid=${MASK}`);
    const line = JSON.stringify({ msg: 'Reply was already sent in the "/guest/verifyEmail/abc" route', req: { url: '/hooks/reservation/x"y' } });
    const masked = maskTokens(line);
    expect(JSON.parse(masked)).toEqual({
      msg: `Reply was already sent in the "/guest/verifyEmail/${MASK}" route`,
      req: { url: `/hooks/reservation/${MASK}"y` },
    });
  });
});

import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TriggerDelivery } from '../../../shared/api/collaboration.ts';
import { guests } from '../../db/schema/index.ts';
import { hashToken } from '../../lib/secrets.ts';
import { apiBlock, credentials, fail, moveClockTo, readyGuest, runJailWithBreak, signUp, succeed, useTestServer, type TestGuest } from '../../test/harness.ts';

// The receiver listens on loopback, which only this exemption lets the triggers reach.
// Stubbed for this file alone: the files of a worker share its process (vite.config.ts, isolate).
vi.stubEnv('TRIGGER_ALLOW_HOSTS', '127.0.0.1');
afterAll(() => vi.unstubAllEnvs());
const server = useTestServer();

const MINUTE = 60_000;

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A trigger receiver on loopback: it records each call and answers the next status of its queue (200 when empty). */
let receiver: Server;
let receiverUrl = '';
let received: Received[] = [];
let statuses: number[] = [];

beforeAll(async () => {
  receiver = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      received.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body });
      response.writeHead(statuses.shift() ?? 200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => receiver.close(resolve));
});

beforeEach(() => {
  received = [];
  statuses = [];
});

function body(guest: TestGuest, fields: Record<string, unknown> = {}, language: 'en' | 'ja' = 'en') {
  return { api: apiBlock(language), guest: { ...credentials(guest), ...fields } };
}

async function deliveries(guest: TestGuest): Promise<TriggerDelivery[]> {
  return (await succeed(server.app, '/guest/triggerDeliveries', body(guest))).triggerDeliveries as TriggerDelivery[];
}

/** Verifies a Standard Webhooks signature as a receiver would, without the server's code. */
function verifySignature(call: Received, secret: string): boolean {
  const id = String(call.headers['webhook-id']);
  const timestamp = String(call.headers['webhook-timestamp']);
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${call.body}`).digest('base64');
  return String(call.headers['webhook-signature']).split(' ').includes(`v1,${expected}`);
}

describe('the webhook token', () => {
  it('is kept only as its hash with a hint, and a new one is answered once', async () => {
    const guest = await signUp(server.app);
    const read = (await succeed(server.app, '/guest/read', body(guest))).guest as Record<string, unknown>;
    expect(read).not.toHaveProperty('webhookToken');
    const [stored] = await server.app.db.select().from(guests).where(eq(guests.id, guest.id));
    expect(stored?.webhookToken).toMatch(/^[0-9a-f]{64}$/);
    expect(read.webhookTokenHint).toBe(stored?.webhookTokenHint);

    const answer = await succeed(server.app, '/guest/regenerateWebhookToken', body(guest));
    const { token, hint } = answer.webhookToken as { token: string; hint: string };
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(hint).toBe(token.slice(-4));
    const [after] = await server.app.db.select().from(guests).where(eq(guests.id, guest.id));
    expect(after?.webhookToken).toBe(hashToken(token));
    const reread = (await succeed(server.app, '/guest/read', body(guest))).guest as Record<string, unknown>;
    expect(reread.webhookTokenHint).toBe(hint);
    expect(JSON.stringify(reread)).not.toContain(token);
  });

  it('is regenerated only by its own guest', async () => {
    const guest = await signUp(server.app);
    const other = await signUp(server.app);
    expect(await fail(server.app, '/guest/regenerateWebhookToken', { api: apiBlock(), guest: { id: guest.id, token: other.token } })).toMatch(/sign in/i);
  });
});

describe('the trigger secret', () => {
  it('is a Standard Webhooks secret, the same on every read until a new one is made', async () => {
    const guest = await signUp(server.app);
    const first = (await succeed(server.app, '/guest/readTriggerSecret', body(guest))).triggerSecret as string;
    expect(first).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(first.slice(6), 'base64')).toHaveLength(24);
    expect((await succeed(server.app, '/guest/readTriggerSecret', body(guest))).triggerSecret).toBe(first);
    const renewed = (await succeed(server.app, '/guest/regenerateTriggerSecret', body(guest))).triggerSecret as string;
    expect(renewed).not.toBe(first);
    expect((await succeed(server.app, '/guest/readTriggerSecret', body(guest))).triggerSecret).toBe(renewed);
  });
});

describe('saving the trigger', () => {
  it('refuses an internal address in the language of the call, also behind a short form', async () => {
    const guest = await signUp(server.app);
    for (const triggerUrl of ['http://localhost/hook', 'http://10.0.0.1/', 'http://0x0a000001/', 'http://169.254.169.254/latest', 'http://[::1]/']) {
      expect(await fail(server.app, '/guest/update', body(guest, { triggerUrl }))).toBe(
        'The trigger URL points into a private or reserved network; use an address on the internet.',
      );
    }
    expect(await fail(server.app, '/guest/update', body(guest, { triggerUrl: 'http://192.168.1.1/' }, 'ja'))).toContain('プライベート');
  });

  it('refuses a body that is not JSON once filled, or names an unknown placeholder', async () => {
    const guest = await signUp(server.app);
    for (const triggerBody of ['{"work": {{work}', '{"x": {{nope}}}', 'not json']) {
      expect(await fail(server.app, '/guest/update', body(guest, { triggerBody }))).toContain('The trigger body must be JSON');
    }
    const saved = await succeed(server.app, '/guest/update', body(guest, { triggerBody: '{"text": "did {{ work }}", "minutes": {{achievement}}}' }));
    expect(saved.guest).toMatchObject({ triggerBody: '{"text": "did {{ work }}", "minutes": {{achievement}}}' });
  });
});

describe('the trigger call after a jail', () => {
  it('POSTs the filled template, signed, and lists the delivery', async () => {
    const guest = await readyGuest(server.app);
    await succeed(
      server.app,
      '/guest/update',
      body(guest, {
        triggerEnabled: true,
        triggerMethod: 'POST',
        triggerUrl: `${receiverUrl}/done?source=warden`,
        triggerBody: '{"text": "Finished: {{work}}", "on": {{date}}, "at": {{time}}, "planned": {{duration}}, "done": {{achievement}}}',
        timezone: -540,
      }),
    );
    const secret = (await succeed(server.app, '/guest/readTriggerSecret', body(guest))).triggerSecret as string;
    const reservation = await runJailWithBreak(server.app, guest);

    expect(received).toHaveLength(1);
    const [call] = received;
    if (call === undefined) throw new Error('no call');
    expect(call.method).toBe('POST');
    expect(call.url).toBe('/done?source=warden');
    expect(call.headers['content-type']).toBe('application/json');
    expect(call.headers['webhook-id']).toMatch(/^msg_/);
    expect(verifySignature(call, secret)).toBe(true);
    expect(verifySignature({ ...call, body: `${call.body} ` }, secret)).toBe(false);
    const start = new Date(reservation.startTime + 540 * MINUTE);
    expect(JSON.parse(call.body)).toEqual({
      text: 'Finished: Write the chapter',
      on: start.toISOString().slice(0, 10),
      at: start.toISOString().slice(11, 16),
      planned: 60,
      done: 40,
    });

    const [delivery] = await deliveries(guest);
    expect(delivery).toMatchObject({
      id: call.headers['webhook-id'],
      reservationId: reservation.id,
      work: 'Write the chapter',
      method: 'POST',
      status: 'delivered',
      attempts: 1,
      lastStatusCode: 200,
      lastError: null,
      nextAttemptAt: null,
    });
    // Another guest sees none of it.
    expect(await deliveries(await signUp(server.app))).toEqual([]);
  });

  it('sends the five values as the body when the template is empty, and in the query for GET', async () => {
    const guest = await readyGuest(server.app);
    await succeed(
      server.app,
      '/guest/update',
      body(guest, { triggerEnabled: true, triggerMethod: 'POST', triggerUrl: `${receiverUrl}/post`, triggerBody: null }),
    );
    await runJailWithBreak(server.app, guest);
    expect(Object.keys(JSON.parse(received[0]?.body ?? '{}') as object)).toEqual(['work', 'date', 'time', 'duration', 'achievement']);

    received = [];
    await succeed(server.app, '/guest/update', body(guest, { triggerMethod: 'GET', triggerUrl: `${receiverUrl}/get?keep=1` }));
    const secret = (await succeed(server.app, '/guest/readTriggerSecret', body(guest))).triggerSecret as string;
    await runJailWithBreak(server.app, guest);
    const [call] = received;
    if (call === undefined) throw new Error('no call');
    expect(call.method).toBe('GET');
    expect(call.body).toBe('');
    expect(verifySignature(call, secret)).toBe(true);
    const query = new URL(call.url, receiverUrl).searchParams;
    expect(query.get('keep')).toBe('1');
    expect(query.get('work')).toBe('Write the chapter');
    expect(query.get('duration')).toBe('60');
    expect(query.get('achievement')).toBe('40');
    expect(query.get('date')).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(query.get('time')).toMatch(/^\d{2}:\d{2}$/);
  });

  it('retries a failing receiver under the same id, on the clock, until it answers', async () => {
    const guest = await readyGuest(server.app);
    await succeed(server.app, '/guest/update', body(guest, { triggerEnabled: true, triggerUrl: `${receiverUrl}/flaky` }));
    statuses = [500, 503];
    const reservation = await runJailWithBreak(server.app, guest);
    const [failed] = await deliveries(guest);
    expect(failed).toMatchObject({ status: 'pending', attempts: 1, lastStatusCode: 500, lastError: 'the receiver answered 500' });
    // Five seconds after the attempt (the clock runs on while the test does).
    expect(failed?.nextAttemptAt).toBeGreaterThanOrEqual(reservation.endTime + MINUTE + 5_000);
    expect(failed?.nextAttemptAt).toBeLessThan(reservation.endTime + MINUTE + 6_000);

    await moveClockTo(server.app, reservation.endTime + MINUTE + 6_000);
    const [second] = await deliveries(guest);
    expect(second).toMatchObject({ status: 'pending', attempts: 2, lastStatusCode: 503 });
    expect(second?.nextAttemptAt).toBeGreaterThanOrEqual(reservation.endTime + MINUTE + 6_000 + 5 * MINUTE);

    await moveClockTo(server.app, reservation.endTime + 7 * MINUTE);
    const [delivered] = await deliveries(guest);
    expect(delivered).toMatchObject({ status: 'delivered', attempts: 3, lastStatusCode: 200, lastError: null });
    expect(received.map((call) => call.headers['webhook-id'])).toEqual(Array(3).fill(delivered?.id));
  });

  it('gives up after the last retry, a day later', async () => {
    const guest = await readyGuest(server.app);
    await succeed(server.app, '/guest/update', body(guest, { triggerEnabled: true, triggerUrl: `${receiverUrl}/down` }));
    statuses = Array<number>(7).fill(500);
    const reservation = await runJailWithBreak(server.app, guest);
    let time = reservation.endTime + MINUTE;
    for (const wait of [5_000, 5 * MINUTE, 30 * MINUTE, 120 * MINUTE, 300 * MINUTE, 600 * MINUTE]) {
      time += wait + 1_000;
      await moveClockTo(server.app, time);
    }
    const [delivery] = await deliveries(guest);
    expect(delivery).toMatchObject({ status: 'failed', attempts: 7, nextAttemptAt: null, lastStatusCode: 500 });
    expect(received).toHaveLength(7);
  });

  it('calls nothing when the trigger is off', async () => {
    const guest = await readyGuest(server.app);
    await succeed(server.app, '/guest/update', body(guest, { triggerEnabled: false, triggerUrl: `${receiverUrl}/off` }));
    await runJailWithBreak(server.app, guest);
    expect(received).toEqual([]);
    expect(await deliveries(guest)).toEqual([]);
  });
});

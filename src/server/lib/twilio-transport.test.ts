import { createServer, type IncomingMessage, type Server } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SmsConfig } from '../config.ts';
import { apiBlock, credentials, signUp, startTestServer, succeed } from '../test/harness.ts';
import { internationalNumber, TwilioTransport } from './twilio-transport.ts';

/** What Twilio's API would have received. */
interface ReceivedRequest {
  method: string;
  path: string;
  authorization: string;
  contentType: string;
  form: URLSearchParams;
}

const ACCOUNT_SID = 'AC00000000000000000000000000000001';
const AUTH_TOKEN = 'twilio-auth-token';
const received: ReceivedRequest[] = [];
/** The stand-in's next answer: Twilio's 201 with the message, or an error. */
let refuseNext = false;

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => resolve(body));
    request.on('error', reject);
  });
}

/** A local stand-in for api.twilio.com's Messages resource, answering as Twilio does. */
const standIn: Server = createServer((request, reply) => {
  void readBody(request).then((body) => {
    received.push({
      method: request.method ?? '',
      path: request.url ?? '',
      authorization: request.headers.authorization ?? '',
      contentType: request.headers['content-type'] ?? '',
      form: new URLSearchParams(body),
    });
    reply.setHeader('content-type', 'application/json');
    if (refuseNext) {
      refuseNext = false;
      reply.statusCode = 400;
      reply.end(JSON.stringify({ code: 21211, message: "The 'To' number is not a valid phone number.", status: 400 }));
      return;
    }
    const form = new URLSearchParams(body);
    reply.statusCode = 201;
    reply.end(
      JSON.stringify({
        sid: 'SM00000000000000000000000000000001',
        account_sid: ACCOUNT_SID,
        to: form.get('To'),
        from: form.get('From'),
        body: form.get('Body'),
        status: 'queued',
      }),
    );
  });
});

let settings: Extract<SmsConfig, { provider: 'twilio' }>;

beforeAll(async () => {
  await new Promise<void>((resolve) => standIn.listen(0, '127.0.0.1', resolve));
  const address = standIn.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  settings = {
    provider: 'twilio',
    accountSid: ACCOUNT_SID,
    authToken: AUTH_TOKEN,
    from: '+15005550006',
    countryCode: '81',
    apiBase: `http://127.0.0.1:${port}`,
  };
});
afterAll(async () => {
  await new Promise((resolve) => standIn.close(resolve));
});
beforeEach(() => {
  received.length = 0;
});

describe('internationalNumber', () => {
  it('keeps a number given with + and puts the country code in place of a national 0', () => {
    expect(internationalNumber('+447700900123', '81')).toBe('+447700900123');
    expect(internationalNumber('09012345678', '81')).toBe('+819012345678');
    expect(internationalNumber('5551234567', '1')).toBe('+15551234567');
  });
});

describe('TwilioTransport', () => {
  it("sends an SMS as Twilio's Messages API expects: the account's path, the form fields and basic authentication", async () => {
    await new TwilioTransport(settings).deliver({ channel: 'sms', to: '09012345678', subject: '', text: 'Your Warden code is 123456.' });
    expect(received).toHaveLength(1);
    const [request] = received;
    expect(request?.method).toBe('POST');
    expect(request?.path).toBe(`/2010-04-01/Accounts/${ACCOUNT_SID}/Messages.json`);
    expect(request?.authorization).toBe(`Basic ${Buffer.from(`${ACCOUNT_SID}:${AUTH_TOKEN}`).toString('base64')}`);
    expect(request?.contentType).toContain('application/x-www-form-urlencoded');
    expect(Object.fromEntries(request?.form ?? [])).toEqual({ To: '+819012345678', From: '+15005550006', Body: 'Your Warden code is 123456.' });
  });

  it("fails with Twilio's reason when Twilio refuses the message", async () => {
    refuseNext = true;
    await expect(new TwilioTransport(settings).deliver({ channel: 'sms', to: '+1', subject: '', text: 'x' })).rejects.toThrow(
      "The 'To' number is not a valid phone number.",
    );
  });
});

describe('a server with SMS_PROVIDER=twilio', () => {
  it('sends the phone code through Twilio, and the code it sent verifies the number', async () => {
    const started = await startTestServer({ sms: settings });
    try {
      const { app } = started;
      const guest = await signUp(app);
      await succeed(
        app,
        '/guest/requestPhoneCode',
        { api: apiBlock(), guest: { ...credentials(guest), phone: '09011112222' } },
        { remoteAddress: guest.address },
      );
      await expect.poll(() => received.length).toBe(1);
      const form = received[0]?.form;
      expect(form?.get('To')).toBe('+819011112222');
      const code = /\b(\d{6})\b/.exec(form?.get('Body') ?? '')?.[1];
      expect(code).toBeDefined();
      const answer = await succeed(app, '/guest/update', { api: apiBlock(), guest: { ...credentials(guest), phone: '09011112222', phoneCode: code } });
      expect((answer.guest as { phone: string }).phone).toBe('09011112222');
    } finally {
      await started.close();
    }
  }, 60_000);
});

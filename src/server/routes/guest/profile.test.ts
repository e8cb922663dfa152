import { describe, expect, it } from 'vitest';
import { PHONE_CODE_RESEND_WAIT_MS } from '../../../shared/api/guest.ts';
import {
  apiBlock,
  call,
  credentials,
  fail,
  givePhone,
  lastMessageTo,
  linkTokenMailedTo,
  outbox,
  signUp,
  useTestServer,
  succeed,
  verifyEmail,
  type TestGuest,
} from '../../test/harness.ts';

const server = useTestServer();

const MINUTE = 60_000;

function update(guest: TestGuest, fields: Record<string, unknown>, language: 'en' | 'ja' = 'en') {
  return { api: apiBlock(language), guest: { ...credentials(guest), ...fields } };
}

async function requestCode(guest: TestGuest, phone: string): Promise<{ requestId: string; code: string }> {
  const answer = await succeed(server.app, '/guest/requestPhoneCode', update(guest, { phone }), { remoteAddress: guest.address });
  const sms = await lastMessageTo(server.app, phone.replace(/[^0-9+]/g, ''));
  const code = /\b(\d{6})\b/.exec(sms.text)?.[1] ?? '';
  return { requestId: String(answer.phoneCode), code };
}

describe('/guest/update', () => {
  it('changes the title, language, timezone and collaboration settings of the own account', async () => {
    const guest = await signUp(server.app);
    const changes = {
      title: 'Renamed',
      language: 'ja',
      timezone: 0,
      webhookEnabled: true,
      triggerEnabled: true,
      triggerMethod: 'GET',
      triggerUrl: 'https://example.com/hook',
      triggerBody: '{"a":1}',
    };
    const answer = await succeed(server.app, '/guest/update', update(guest, changes));
    expect(answer.guest).toMatchObject(changes);
    const cleared = await succeed(server.app, '/guest/update', update(guest, { triggerUrl: '', triggerBody: null }));
    expect(cleared.guest).toMatchObject({ triggerUrl: null, triggerBody: null, title: 'Renamed' });
  });

  it('takes the whole guest object the client holds, ignoring what may not change', async () => {
    const guest = await signUp(server.app);
    const current = (await succeed(server.app, '/guest/read', update(guest, {}))).guest as Record<string, unknown>;
    const answer = await succeed(
      server.app,
      '/guest/update',
      update(guest, {
        ...current,
        id: guest.id,
        token: guest.token,
        isVerified: true,
        subscriptionPlan: 3,
        isLimMember: true,
        password: 'hijacked!!',
        phone: null,
      }),
    );
    expect(answer.guest).toEqual(current);
    await succeed(server.app, '/guest/authenticate', { api: apiBlock(), guest: { title: guest.title, password: guest.password } });
  });

  it('refuses a title or e-mail another guest has', async () => {
    const guest = await signUp(server.app);
    const other = await signUp(server.app);
    expect(await fail(server.app, '/guest/update', update(guest, { title: other.title.toUpperCase() }))).toBe('This username is already taken.');
    expect(await fail(server.app, '/guest/update', update(guest, { email: other.email, currentPassword: guest.password }, 'ja'))).toBe(
      'このメールアドレスはすでに登録されています。',
    );
    // Its own title in another case is no conflict.
    await succeed(server.app, '/guest/update', update(guest, { title: guest.title.toUpperCase() }));
  });

  it('a new e-mail address waits until the link sent to it is opened; the account keeps its address until then', async () => {
    const guest = await signUp(server.app);
    await verifyEmail(server.app, guest);
    const oldLinkToken = await linkTokenMailedTo(server.app, guest.email, 'verifyEmail');
    const changed = await succeed(server.app, '/guest/update', update(guest, { email: `New-${guest.email}`, currentPassword: guest.password }));
    expect(changed.guest).toMatchObject({ email: guest.email, pendingEmail: `new-${guest.email}`, isVerified: true });
    // A link sent to the former address cannot verify the new one.
    expect(await fail(server.app, '/guest/verifyEmail', { api: apiBlock(), guest: { token: oldLinkToken } })).toBe('This link is invalid or has expired.');
    const token = await linkTokenMailedTo(server.app, `new-${guest.email}`, 'verifyEmail');
    await succeed(server.app, '/guest/verifyEmail', { api: apiBlock(), guest: { token } });
    expect((await succeed(server.app, '/guest/read', update(guest, {}))).guest).toMatchObject({
      email: `new-${guest.email}`,
      pendingEmail: null,
      isVerified: true,
    });
  });

  it('unchanged values change nothing and need no code', async () => {
    const guest = await signUp(server.app);
    await verifyEmail(server.app, guest);
    const phone = await givePhone(server.app, guest);
    const answer = await succeed(server.app, '/guest/update', update(guest, { title: guest.title, email: guest.email, phone }));
    expect(answer.guest).toMatchObject({ isVerified: true, phone });
  });
});

describe('phone codes', () => {
  it('sends a 6-digit code by SMS that the answer never holds, and saves the number with it', async () => {
    const guest = await signUp(server.app);
    const answer = await succeed(server.app, '/guest/requestPhoneCode', update(guest, { phone: '090-1111-2222' }));
    const sms = await lastMessageTo(server.app, '09011112222');
    expect(sms).toMatchObject({ channel: 'sms', subject: '' });
    const code = /\b(\d{6})\b/.exec(sms.text)?.[1] ?? '';
    expect(code).toMatch(/^\d{6}$/);
    expect(JSON.stringify(answer)).not.toContain(code);
    expect(answer.phoneCode).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const saved = await succeed(server.app, '/guest/update', update(guest, { phone: '090 1111 2222', phoneCode: code }));
    expect(saved.guest).toMatchObject({ phone: '09011112222' });
    // The code is used up: going back to the number later needs a new one.
    const next = await requestCode(guest, '09011113333');
    await succeed(server.app, '/guest/update', update(guest, { phone: '09011113333', phoneCode: next.code }));
    expect(await fail(server.app, '/guest/update', update(guest, { phone: '09011112222', phoneCode: code }))).toBe('Your code is wrong');
  });

  it('refuses a new number without the right code, in the product’s words', async () => {
    const guest = await signUp(server.app);
    expect(await fail(server.app, '/guest/update', update(guest, { phone: '09022223333' }))).toBe('Your code is wrong');
    const { code } = await requestCode(guest, '09022223333');
    const wrong = code === '000000' ? '000001' : '000000';
    expect(await fail(server.app, '/guest/update', update(guest, { phone: '09022223333', phoneCode: wrong }))).toBe('Your code is wrong');
    expect(await fail(server.app, '/guest/update', update(guest, { phone: '09022223333', phoneCode: wrong }, 'ja'))).toBe('認証コードが違います');
    // The code is for that number only.
    expect(await fail(server.app, '/guest/update', update(guest, { phone: '09022224444', phoneCode: code }))).toBe('Your code is wrong');
    // Nor does another guest's code do.
    const other = await signUp(server.app);
    expect(await fail(server.app, '/guest/update', update(other, { phone: '09022223333', phoneCode: code }))).toBe('Your code is wrong');
    await succeed(server.app, '/guest/update', update(guest, { phone: '09022223333', phoneCode: code }));
  });

  it('allows 5 tries of a code', async () => {
    const guest = await signUp(server.app);
    const { code } = await requestCode(guest, '09033334444');
    const wrong = code === '111111' ? '222222' : '111111';
    for (let i = 0; i < 5; i += 1) {
      expect(await fail(server.app, '/guest/update', update(guest, { phone: '09033334444', phoneCode: wrong }))).toBe('Your code is wrong');
    }
    expect(await fail(server.app, '/guest/update', update(guest, { phone: '09033334444', phoneCode: code }))).toBe(
      'Your code has expired. Please request a new one.',
    );
  });

  it('a code lives 10 minutes', async () => {
    const guest = await signUp(server.app);
    const { code } = await requestCode(guest, '09044445555');
    server.clock.offsetMs += 10 * MINUTE;
    expect(await fail(server.app, '/guest/update', update(guest, { phone: '09044445555', phoneCode: code }))).toBe(
      'Your code has expired. Please request a new one.',
    );
  });

  it('sends another code to a number only a minute after the last, whoever asks, and a request too soon uses up no other limit', async () => {
    const first = await signUp(server.app);
    const second = await signUp(server.app);
    const phone = '09055557777';
    await requestCode(first, phone);
    const tooSoon = 'A code was just sent to this number. Please wait a minute before asking for another.';
    server.clock.offsetMs += PHONE_CODE_RESEND_WAIT_MS - 1000;
    expect(await fail(server.app, '/guest/requestPhoneCode', update(first, { phone }), { remoteAddress: first.address })).toBe(tooSoon);
    expect(await fail(server.app, '/guest/requestPhoneCode', update(second, { phone }, 'ja'), { remoteAddress: second.address })).toBe(
      'この番号には認証コードを送ったばかりです。次のコードは1分待ってから請求してください。',
    );
    expect((await outbox(server.app)).filter((message) => message.to === phone)).toHaveLength(1);
    server.clock.offsetMs += 1000;
    await requestCode(first, phone);
    server.clock.offsetMs += PHONE_CODE_RESEND_WAIT_MS;
    await requestCode(second, phone);
  });

  it('sends at most 3 codes to a number in 10 minutes, whoever asks', async () => {
    const first = await signUp(server.app);
    const second = await signUp(server.app);
    const phone = '09055556666';
    await requestCode(first, phone);
    server.clock.offsetMs += PHONE_CODE_RESEND_WAIT_MS;
    await requestCode(first, phone);
    server.clock.offsetMs += PHONE_CODE_RESEND_WAIT_MS;
    await requestCode(second, phone);
    server.clock.offsetMs += PHONE_CODE_RESEND_WAIT_MS;
    expect(await fail(server.app, '/guest/requestPhoneCode', update(second, { phone }), { remoteAddress: second.address })).toBe(
      'Too many codes were sent to this number. Please wait 10 minutes.',
    );
    const smsCount = (await outbox(server.app)).filter((message) => message.to === phone).length;
    expect(smsCount).toBe(3);
    server.clock.offsetMs += 10 * MINUTE;
    await requestCode(second, phone);
  });

  it('rejects a malformed number', async () => {
    const guest = await signUp(server.app);
    expect(await fail(server.app, '/guest/requestPhoneCode', update(guest, { phone: 'call me' }))).toBe('The phone number is not valid.');
    expect(await fail(server.app, '/guest/requestPhoneCode', update(guest, { phone: '123' }, 'ja'))).toBe('電話番号が正しくありません。');
    const result = await call(server.app, '/guest/requestPhoneCode', update(guest, { phone: 9012345678 }));
    expect(result.body.api.status).toBe('failed');
  });
});

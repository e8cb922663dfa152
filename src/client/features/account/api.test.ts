import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeStore } from '../../app/store.ts';
import { api } from '../../app/api.ts';
import { settle } from '../../test/fake-server.ts';
import { accountApi } from './api.ts';

/** The account calls through the real store: the bodies sent and what the shell keeps of the answers. */
function stubServer(answer: Record<string, unknown>) {
  const bodies: { url: string; body: unknown }[] = [];
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    bodies.push({ url: String(url), body: JSON.parse(String(init?.body)) });
    return new Response(JSON.stringify({ api: { status: 'success' }, ...answer }), { status: 200 });
  });
  return bodies;
}

const guest = {
  id: 5,
  title: 'alice',
  email: 'alice@example.com',
  isVerified: false,
  language: 'en',
  timezone: -540,
  phone: null,
  token: 'session-token',
};

afterEach(() => vi.unstubAllGlobals());

describe('account calls', () => {
  it('signs up with the timezone and language, and the session starts', async () => {
    const bodies = stubServer({ guest });
    const store = makeStore();
    await store.dispatch(
      api.endpoints.guestCreate.initiate({ title: 'alice', email: 'alice@example.com', password: 'long password', timezone: -540, language: 'en' }),
    );
    expect(bodies[0]?.url).toBe('/api/guest/create');
    expect(bodies[0]?.body).toMatchObject({ guest: { timezone: -540, language: 'en' }, api: { language: 'en' } });
    expect(store.getState().session.auth).toEqual({ id: 5, token: 'session-token' });
  });

  it('keeps the phone code request id, and sends the typed digits with the new number', async () => {
    const store = makeStore({ preloadedState: { session: { auth: { id: 5, token: 'tok' }, authChecked: true } } });
    let bodies = stubServer({ phoneCode: 'request-id' });
    const requested = await store.dispatch(accountApi.endpoints.guestRequestPhoneCode.initiate({ phone: '090-1234-5678' }));
    expect(bodies[0]?.body).toMatchObject({ guest: { id: 5, token: 'tok', phone: '090-1234-5678' } });
    expect(requested.data?.phoneCode).toBe('request-id');

    bodies = stubServer({ guest: { ...guest, phone: '09012345678', token: undefined } });
    await store.dispatch(accountApi.endpoints.guestUpdate.initiate({ phone: '090-1234-5678', phoneCode: '123456' }));
    expect(bodies[0]?.url).toBe('/api/guest/update');
    expect(bodies[0]?.body).toMatchObject({ guest: { id: 5, token: 'tok', phone: '090-1234-5678', phoneCode: '123456' } });
    await settle();
    expect(api.endpoints.guestRead.select()(store.getState()).data?.guest.phone).toBe('09012345678');
    expect(store.getState().session.auth?.token).toBe('tok');
  });

  it('sends the link tokens of verification and password reset without a session', async () => {
    const bodies = stubServer({});
    const store = makeStore();
    await store.dispatch(accountApi.endpoints.guestVerifyEmail.initiate({ token: 'v-token' }));
    await store.dispatch(accountApi.endpoints.guestUpdatePasswordEmail.initiate({ email: 'a@example.com' }));
    await store.dispatch(accountApi.endpoints.guestUpdatePassword.initiate({ token: 'r-token', password: 'new password' }));
    expect(bodies.map((sent) => sent.url)).toEqual(['/api/guest/verifyEmail', '/api/guest/updatePasswordEmail', '/api/guest/updatePassword']);
    expect(bodies[0]?.body).toEqual({ guest: { token: 'v-token' }, api: { language: 'en' } });
    expect(bodies[1]?.body).toEqual({ guest: { email: 'a@example.com' }, api: { language: 'en' } });
    expect(bodies[2]?.body).toEqual({ guest: { token: 'r-token', password: 'new password' }, api: { language: 'en' } });
  });
});

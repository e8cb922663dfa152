import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { errorLogs } from '../../db/schema/index.ts';
import { apiBlock, call, credentials, givePhone, outbox, readyGuest, signUp, succeed, useTestServer, type TestGuest } from '../../test/harness.ts';

/**
 * The two-guest matrix: every guest call that names a guest, sent with one
 * guest's id and the other's token (and the other way round), fails and
 * changes neither account; each guest reads only their own record.
 */

const server = useTestServer();
let alice: TestGuest;
let bob: TestGuest;

beforeAll(async () => {
  alice = await readyGuest(server.app);
  bob = await signUp(server.app);
  await givePhone(server.app, bob);
});

const SIGNED_OUT = { api: { status: 'failed', errorMessage: 'You are signed out. Please sign in again.', errorCode: 'authentication_failed' } };

/** The body of each authenticated guest call for `guest` block fields. */
const CALLS: Record<string, (guest: Record<string, unknown>) => Record<string, unknown>> = {
  '/guest/read': (guest) => ({ api: apiBlock(), guest }),
  '/guest/update': (guest) => ({ api: apiBlock(), guest: { ...guest, title: 'Hijacked', email: 'hijacked@example.com', language: 'ja', timezone: 600 } }),
  '/guest/requestPhoneCode': (guest) => ({ api: apiBlock(), guest: { ...guest, phone: '09077778888' } }),
  '/guest/resendVerifyEmail': (guest) => ({ api: apiBlock(), guest }),
  '/guest/logout': (guest) => ({ api: apiBlock(), guest }),
};

async function snapshot(guest: TestGuest): Promise<unknown> {
  return (await succeed(server.app, '/guest/read', { api: apiBlock(), guest: credentials(guest) })).guest;
}

describe('two guests', () => {
  it('each reads only their own record', async () => {
    expect(await snapshot(alice)).toMatchObject({ id: alice.id, email: alice.email });
    expect(await snapshot(bob)).toMatchObject({ id: bob.id, email: bob.email });
  });

  it.each(Object.keys(CALLS))('%s with one guest’s id and the other’s token fails and changes nothing', async (path) => {
    const body = CALLS[path];
    if (body === undefined) throw new Error(path);
    const aliceBefore = await snapshot(alice);
    const bobBefore = await snapshot(bob);
    const mailsBefore = (await outbox(server.app)).length;
    for (const [owner, intruder] of [
      [alice, bob],
      [bob, alice],
    ] as const) {
      const result = await call(server.app, path, body({ id: owner.id, token: intruder.token }));
      expect(result.statusCode).toBe(200);
      expect(result.body).toEqual(SIGNED_OUT);
    }
    expect(await snapshot(alice)).toEqual(aliceBefore);
    expect(await snapshot(bob)).toEqual(bobBefore);
    expect((await outbox(server.app)).length).toBe(mailsBefore);
  });

  it('an error report with mixed credentials is kept without a guest', async () => {
    await succeed(server.app, '/errorLog/create', { api: apiBlock(), guest: { id: alice.id, token: bob.token }, errorLog: 'mixed credentials report' });
    const [row] = await server.app.db.select().from(errorLogs).where(eq(errorLogs.text, 'mixed credentials report'));
    expect(row?.guestId).toBeNull();
  });

  it('one guest’s SMS code does not prove a number for the other', async () => {
    await succeed(
      server.app,
      '/guest/requestPhoneCode',
      { api: apiBlock(), guest: { ...credentials(alice), phone: '09066667777' } },
      { remoteAddress: alice.address },
    );
    const code = /\b(\d{6})\b/.exec((await outbox(server.app)).findLast((message) => message.to === '09066667777')?.text ?? '')?.[1];
    const result = await call(server.app, '/guest/update', { api: apiBlock(), guest: { ...credentials(bob), phone: '09066667777', phoneCode: code } });
    expect(result.body.api).toEqual({ status: 'failed', errorMessage: 'Your code is wrong', errorCode: 'phone_code_wrong' });
  });
});

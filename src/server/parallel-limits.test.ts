import { describe, expect, it } from 'vitest';
import { runAdmin } from './admin.ts';
import { RATE_RULES } from './lib/rate-limiter.ts';
import { apiBlock, call, credentials, signUp, useTestServer, type CallResult } from './test/harness.ts';
import { tally } from './test/tally.ts';

/**
 * Every limit holds under parallel requests: each request is counted before
 * the work it limits, in one atomic statement, so a burst sent at once gets
 * exactly the limit through and the rest the limit's refusal.
 */

const server = useTestServer();

const TOO_MANY = 'Too many attempts. Please wait a few minutes and try again.';
const PARALLEL = 20;

/** `count` copies of a call at once; each answer's error message, or 'success'. */
async function burst(count: number, send: (index: number) => Promise<CallResult>): Promise<string[]> {
  const answers = await Promise.all(Array.from({ length: count }, (_, index) => send(index)));
  return answers.map(({ body }) => (body.api.status === 'success' ? 'success' : (body.api.errorMessage ?? '')));
}

describe('failed sign-ins of one account, in parallel', () => {
  const limit = RATE_RULES.signInFailuresPerAccount.limit;

  it(`checks at most ${limit} wrong passwords of a guest; the rest wait, and so does the right one`, async () => {
    const guest = await signUp(server.app);
    const outcomes = await burst(PARALLEL, (index) =>
      call(
        server.app,
        '/guest/authenticate',
        { api: apiBlock(), guest: { title: guest.title, password: `wrong ${index}` } },
        { remoteAddress: `10.31.0.${index}` },
      ),
    );
    expect(tally(outcomes)).toEqual({ 'The username or password is wrong.': limit, [TOO_MANY]: PARALLEL - limit });
    const right = await call(server.app, '/guest/authenticate', { api: apiBlock(), guest: { title: guest.title, password: guest.password } });
    expect(right.body.api.errorMessage).toBe(TOO_MANY);
  });

  it('gives a sign-in with the right password its count back: only failures use up the account', async () => {
    const guest = await signUp(server.app);
    const signIn = (password: string, index: number) =>
      call(server.app, '/guest/authenticate', { api: apiBlock(), guest: { title: guest.title, password } }, { remoteAddress: `10.31.1.${index}` });
    expect(tally(await burst(limit, (index) => signIn(guest.password, index)))).toEqual({ success: limit });
    const outcomes = await burst(PARALLEL, (index) => signIn(`wrong ${index}`, index));
    expect(tally(outcomes)).toEqual({ 'The username or password is wrong.': limit, [TOO_MANY]: PARALLEL - limit });
  });

  it(`checks at most ${limit} wrong passwords of an unknown name`, async () => {
    const outcomes = await burst(PARALLEL, (index) =>
      call(
        server.app,
        '/guest/authenticate',
        { api: apiBlock(), guest: { title: 'nobody-by-this-name', password: `guess ${index}` } },
        {
          remoteAddress: `10.31.2.${index}`,
        },
      ),
    );
    expect(tally(outcomes)).toEqual({ 'The username or password is wrong.': limit, [TOO_MANY]: PARALLEL - limit });
  });

  it(`checks at most ${limit} wrong passwords of a warden`, async () => {
    const email = 'parallel-warden@example.com';
    await runAdmin(['create-warden', '--title', 'Parallel Warden', '--email', email], server.app.db, server.clock, server.app.config);
    const outcomes = await burst(PARALLEL, (index) =>
      call(server.app, '/warden/authenticate', { api: apiBlock(), warden: { email, password: `wrong ${index}` } }, { remoteAddress: `10.31.3.${index}` }),
    );
    expect(tally(outcomes)).toEqual({ 'The e-mail address or password is wrong.': limit, [TOO_MANY]: PARALLEL - limit });
  });

  it(`checks at most ${limit} wrong current passwords (deleting the account), which count with the sign-ins`, async () => {
    const guest = await signUp(server.app);
    const outcomes = await burst(PARALLEL, (index) =>
      call(server.app, '/guest/delete', { api: apiBlock(), guest: credentials(guest), password: `wrong ${index}` }),
    );
    expect(tally(outcomes)).toEqual({ 'The current password is wrong. Enter the password of your account.': limit, [TOO_MANY]: PARALLEL - limit });
  });
});

describe('the other limits, in parallel', () => {
  it('lets exactly the limit of sign-ups from one address through', async () => {
    const { limit } = RATE_RULES.signUpPerAddress;
    const outcomes = await burst(limit + 5, (index) =>
      call(
        server.app,
        '/guest/create',
        { api: apiBlock(), guest: { title: `burst${index}`, email: `burst${index}@example.com`, password: 'a long password', timezone: 0, language: 'en' } },
        { remoteAddress: '10.31.4.1' },
      ),
    );
    expect(tally(outcomes)).toEqual({ success: limit, [TOO_MANY]: 5 });
  });

  it('sends one SMS code of a burst to one number (the wait before another)', async () => {
    const guest = await signUp(server.app);
    const { limit } = RATE_RULES.phoneCodesPerNumber;
    const outcomes = await burst(limit + 3, () =>
      call(
        server.app,
        '/guest/requestPhoneCode',
        { api: apiBlock(), guest: { ...credentials(guest), phone: '09031310000' } },
        { remoteAddress: guest.address },
      ),
    );
    expect(tally(outcomes)).toEqual({ success: 1, 'A code was just sent to this number. Please wait a minute before asking for another.': limit + 2 });
  });

  it('mails exactly the limit of reset links about one address', async () => {
    const guest = await signUp(server.app);
    const { limit } = RATE_RULES.mailsPerAccount;
    const outcomes = await burst(limit + 3, (index) =>
      call(server.app, '/guest/updatePasswordEmail', { api: apiBlock(), guest: { email: guest.email } }, { remoteAddress: `10.31.5.${index}` }),
    );
    expect(tally(outcomes)).toEqual({ success: limit, [TOO_MANY]: 3 });
  });

  it('tokenises exactly the limit of cards for one guest', async () => {
    const guest = await signUp(server.app);
    const { limit } = RATE_RULES.cardTokensPerGuest;
    const card = { number: '4242 4242 4242 4242', expMonth: 12, expYear: 2040, cvc: '123' };
    const outcomes = await burst(limit + 5, () => call(server.app, '/payments/local/token', { api: apiBlock(), guest: credentials(guest), card }));
    expect(tally(outcomes)).toEqual({ success: limit, [TOO_MANY]: 5 });
  });

  it('exports exactly the limit of archives for one guest', async () => {
    const guest = await signUp(server.app);
    const { limit } = RATE_RULES.exportsPerGuest;
    const answers = await Promise.all(
      Array.from({ length: limit + 3 }, () =>
        server.app.inject({ method: 'POST', url: '/api/guest/export', payload: { api: apiBlock(), guest: credentials(guest) } }),
      ),
    );
    const outcomes = answers.map((answer) =>
      answer.headers['content-type'] === 'application/zip' ? 'archive' : (answer.json<{ api: { errorMessage: string } }>().api.errorMessage ?? ''),
    );
    expect(tally(outcomes)).toEqual({ archive: limit, [TOO_MANY]: 3 });
  });
});

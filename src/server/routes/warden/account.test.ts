import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { WARDEN_IDLE_TIMEOUT_MS } from '../../../shared/api/warden.ts';
import { message } from '../../../shared/messages.ts';
import { runAdmin } from '../../admin.ts';
import { wardens } from '../../db/schema/index.ts';
import { matchingStep, SIGN_IN_TICKET_MS } from '../../services/second-factor.ts';
import { createWarden, injectedCalls, signedInWarden, type TestWarden } from '../../test/console.ts';
import { apiBlock, call, fail, signUp, succeed, useListeningTestServer } from '../../test/harness.ts';
import { disconnected, RelayClient } from '../../test/relay-client.ts';
import { signInWarden, totpCode } from '../../test/wardens.ts';

/**
 * A human warden's account at ASVS level 2 (docs/sessions.md, Console
 * sessions): the second factor, a new password, the operator's commands,
 * and the idle time, over HTTP and on the relay's sockets.
 */

const server = useListeningTestServer();
const clients: RelayClient[] = [];

afterEach(() => {
  for (const client of clients.splice(0)) client.close();
  server.clock.offsetMs = 0;
});

const MINUTE = 60_000;
const STEP_MS = 30_000;
const SIGNED_OUT = message('en', 'warden_signed_out');
const CODE_WRONG = message('en', 'second_factor_code_wrong');
const TICKET_ENDED = message('en', 'warden_sign_in_expired');

let addressCount = 0;
/** Each test from its own network address: the per-address sign-in limit stays out of the way. */
const nextAddress = (): string => `10.31.${Math.floor((addressCount += 1) / 250)}.${addressCount % 250}`;

function admin(...args: string[]): Promise<string[]> {
  return runAdmin(args, server.app.db, server.clock, server.app.config, server.app.endSessionSockets);
}

/** The first step: the password, answered with a ticket (and an enrolment for a warden without a second factor). */
async function ticketOf(warden: Pick<TestWarden, 'email' | 'password'>) {
  const answer = await succeed(
    server.app,
    '/warden/authenticate',
    { api: apiBlock(), warden: { email: warden.email, password: warden.password } },
    { remoteAddress: nextAddress() },
  );
  return answer.signIn as { ticket: string; enrolment: { secret: string; uri: string; qrSvg: string } | null };
}

function confirm(ticket: string, code: string, language: 'en' | 'ja' = 'en') {
  return call(server.app, '/warden/confirmCode', { api: apiBlock(language), warden: { ticket, code } }, { remoteAddress: nextAddress() });
}

const read = (token: string) => call(server.app, '/warden/read', { api: apiBlock(), warden: { token } });

async function console_(token: string): Promise<RelayClient> {
  const client = await RelayClient.connect(server.url, { warden: { token, language: 'en' } });
  clients.push(client);
  return client;
}

describe('the second factor', () => {
  it('is enrolled at the first sign-in: no session before a right code, the secret shown that once, its code asked at every sign-in after', async () => {
    const warden = await createWarden(server);
    const first = await ticketOf(warden);
    const secret = first.enrolment?.secret ?? '';
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(first.enrolment?.uri).toBe(
      `otpauth://totp/Warden:${encodeURIComponent(warden.email)}?issuer=Warden&secret=${secret}&algorithm=SHA1&digits=6&period=30`,
    );
    expect(first.enrolment?.qrSvg).toMatch(/^<svg [^>]*viewBox/);
    // The ticket is no session, and a code of another time opens none.
    expect((await read(first.ticket)).body.api.errorMessage).toBe(SIGNED_OUT);
    expect((await confirm(first.ticket, totpCode(secret, Date.now() - 5 * MINUTE))).body.api.errorMessage).toBe(CODE_WRONG);
    const list = await admin('list-wardens');
    expect(list.find((line) => line.startsWith(`${warden.id}\t`))).toContain('no second factor yet');

    const opened = await confirm(first.ticket, totpCode(secret, Date.now()));
    expect(opened.body).toMatchObject({ api: { status: 'success' }, warden: { id: warden.id, title: warden.title } });
    const { token } = opened.body.warden as { token: string };
    expect((await read(token)).body.api.status).toBe('success');
    // A ticket opens one session.
    expect((await confirm(first.ticket, totpCode(secret, Date.now() + STEP_MS))).body.api.errorMessage).toBe(TICKET_ENDED);
    expect((await admin('list-wardens')).find((line) => line.startsWith(`${warden.id}\t`))).toMatch(/\tsecond factor\t$/);

    // Enrolled: the next sign-in asks for the code and never shows the secret again.
    const second = await ticketOf(warden);
    expect(second.enrolment).toBeNull();
    expect(JSON.stringify(second)).not.toContain(secret);
    expect((await confirm(second.ticket, totpCode(secret, Date.now() + STEP_MS))).body.api.status).toBe('success');
  });

  it('takes a code once: a replay, a code outside the window and the same code sent twice at once are refused', async () => {
    const warden = await createWarden(server);
    const enrolment = await ticketOf(warden);
    const secret = enrolment.enrolment?.secret ?? '';
    const used = totpCode(secret, Date.now());
    expect((await confirm(enrolment.ticket, used)).body.api.status).toBe('success');

    const replay = await ticketOf(warden);
    // Still within the window: refused because it was used, not because it is old.
    expect(matchingStep(secret, used, Date.now())).not.toBeNull();
    expect((await confirm(replay.ticket, used)).body.api.errorMessage).toBe(CODE_WRONG);
    expect((await confirm(replay.ticket, totpCode(secret, Date.now() - 3 * STEP_MS))).body.api.errorMessage).toBe(CODE_WRONG);
    expect((await confirm(replay.ticket, totpCode(secret, Date.now() + 3 * STEP_MS))).body.api.errorMessage).toBe(CODE_WRONG);

    const other = await ticketOf(warden);
    const next = totpCode(secret, Date.now() + STEP_MS);
    const answers = await Promise.all([confirm(replay.ticket, next), confirm(other.ticket, next)]);
    expect(answers.map((answer) => answer.body.api.status).sort()).toEqual(['failed', 'success']);
  });

  it('waits after 5 wrong codes of a warden, even for the right one, whatever the ticket', async () => {
    const warden = await signedInWarden(server, nextAddress());
    const wrong = totpCode(warden.secret, Date.now() - 10 * MINUTE);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect((await confirm((await ticketOf(warden)).ticket, wrong)).body.api.errorMessage).toBe(CODE_WRONG);
    }
    const { ticket } = await ticketOf(warden);
    expect((await confirm(ticket, totpCode(warden.secret, Date.now() + STEP_MS))).body.api.errorMessage).toBe(message('en', 'too_many_requests'));
  });

  it('gives a ticket 10 minutes, reads a code that is not 6 digits as a wrong one, and answers in the language asked', async () => {
    const warden = await signedInWarden(server, nextAddress());
    const { ticket } = await ticketOf(warden);
    expect((await confirm(ticket, 'abc')).body.api.errorMessage).toBe(CODE_WRONG);
    expect((await confirm(ticket, '1234567', 'ja')).body.api.errorMessage).toBe(message('ja', 'second_factor_code_wrong'));
    expect(await fail(server.app, '/warden/confirmCode', { api: apiBlock(), warden: { code: '123456' } })).toBe('The request is invalid: warden.ticket.');
    server.clock.offsetMs = SIGN_IN_TICKET_MS;
    expect((await confirm(ticket, totpCode(warden.secret, Date.now() + STEP_MS), 'ja')).body.api.errorMessage).toBe(message('ja', 'warden_sign_in_expired'));
  });
});

describe('/warden/updatePassword', () => {
  it("takes the current password, refuses a weak new one, and ends the warden's other sessions and their sockets, not this one", async () => {
    const warden = await signedInWarden(server, nextAddress());
    const other = await signInWarden(injectedCalls(server.app, nextAddress()), warden);
    const otherConsole = await console_(other.token);
    const update = (currentPassword: string, password: string) =>
      call(server.app, '/warden/updatePassword', { api: apiBlock(), warden: { token: warden.token, currentPassword, password } });

    expect((await update('not the password', 'a new long passphrase')).body.api.errorMessage).toBe(message('en', 'current_password_wrong'));
    expect((await update(warden.password, 'short')).body.api.errorMessage).toBe(message('en', 'password_invalid'));
    expect((await update(warden.password, 'password123')).body.api.errorMessage).toBe(message('en', 'password_common'));
    expect((await read(other.token)).body.api.status).toBe('success');

    const ended = disconnected(otherConsole);
    expect((await update(warden.password, 'a new long passphrase')).body).toEqual({ api: { status: 'success' } });
    expect(await ended).toBe('io server disconnect');
    expect((await read(other.token)).body.api.errorMessage).toBe(SIGNED_OUT);
    expect((await read(warden.token)).body.api.status).toBe('success');
    expect(await fail(server.app, '/warden/authenticate', { api: apiBlock(), warden: { email: warden.email, password: warden.password } })).toBe(
      message('en', 'warden_sign_in_failed'),
    );
    expect((await ticketOf({ email: warden.email, password: 'a new long passphrase' })).enrolment).toBeNull();
  });
});

describe('the operator', () => {
  it('disables a warden: every session and socket ends, sign-in and waiting tickets are refused, no facilitator link; enabling lets them back', async () => {
    const warden = await signedInWarden(server, nextAddress());
    const watching = await console_(warden.token);
    const waiting = await ticketOf(warden);
    const ended = disconnected(watching);
    // Signed in as a guest with a facilitator link, and holding another.
    const guest = await signUp(server.app);
    const link = async () => (await admin('facilitator-token', '--warden', warden.email, '--guest', String(guest.id)))[1] ?? '';
    const facilitating = await succeed(server.app, '/guest/authenticateAsLimFacilitator', {
      api: apiBlock(),
      guest: { id: guest.id },
      facilitator: { token: await link() },
    });
    const unused = await link();

    expect(await admin('disable-warden', '--warden', warden.email)).toEqual([
      `warden ${warden.id} (${warden.title}) is disabled; 1 console session(s) and 1 facilitator session(s) ended`,
    ]);
    expect(await ended).toBe('io server disconnect');
    expect(await fail(server.app, '/guest/read', { api: apiBlock(), guest: facilitating.guest })).toBe(message('en', 'authentication_failed'));
    expect(await fail(server.app, '/guest/authenticateAsLimFacilitator', { api: apiBlock(), guest: { id: guest.id }, facilitator: { token: unused } })).toBe(
      message('en', 'facilitator_failed'),
    );
    // The guest's own sessions stay.
    await succeed(server.app, '/guest/read', { api: apiBlock(), guest: { id: guest.id, token: guest.token } });
    expect((await read(warden.token)).body.api.errorMessage).toBe(SIGNED_OUT);
    expect((await confirm(waiting.ticket, totpCode(warden.secret, Date.now() + STEP_MS))).body.api.errorMessage).toBe(TICKET_ENDED);
    const signIn = (password: string) => fail(server.app, '/warden/authenticate', { api: apiBlock(), warden: { email: warden.email, password } });
    expect(await signIn(warden.password)).toBe(message('en', 'warden_disabled'));
    // Only the right password learns that the account is disabled.
    expect(await signIn('not the password')).toBe(message('en', 'warden_sign_in_failed'));
    expect((await admin('list-wardens')).find((line) => line.startsWith(`${warden.id}\t`))).toMatch(/\tdisabled since \d{4}-/);
    await expect(admin('facilitator-token', '--warden', warden.email, '--guest', '1')).rejects.toThrow(`warden ${warden.id} (${warden.title}) is disabled`);

    expect(await admin('enable-warden', '--warden', warden.email)).toEqual([`warden ${warden.id} (${warden.title}) may sign in again`]);
    expect((await ticketOf(warden)).enrolment).toBeNull();
  });

  it('ends the sockets of a warden disabled without a running server in the next minute sweep', async () => {
    const warden = await signedInWarden(server, nextAddress());
    const watching = await console_(warden.token);
    // As `npm run admin` on the database itself: no sockets at hand.
    await runAdmin(['disable-warden', '--warden', warden.email], server.app.db, server.clock, server.app.config);
    expect(watching.socket.connected).toBe(true);
    const ended = disconnected(watching);
    await server.app.endExpiredSessions();
    expect(await ended).toBe('io server disconnect');
  });

  it('resets a second factor: the sessions end and the next sign-in enrols a new authenticator', async () => {
    const warden = await signedInWarden(server, nextAddress());
    expect(await admin('reset-second-factor', '--warden', warden.email)).toEqual([
      `warden ${warden.id} (${warden.title}) has no second factor now; 1 console session(s) ended`,
      'the next sign-in enrols a new authenticator app',
    ]);
    expect((await read(warden.token)).body.api.errorMessage).toBe(SIGNED_OUT);
    const again = await ticketOf(warden);
    expect(again.enrolment?.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(again.enrolment?.secret).not.toBe(warden.secret);
    const [row] = await server.app.db.select({ secret: wardens.secondFactorSecret }).from(wardens).where(eq(wardens.id, warden.id));
    expect(row?.secret).toBeNull();
  });

  it('names an unknown warden as a usage error', async () => {
    for (const command of ['disable-warden', 'enable-warden', 'reset-second-factor']) {
      await expect(admin(command, '--warden', 'nobody@example.com')).rejects.toThrow('no warden has the address nobody@example.com');
      await expect(admin(command)).rejects.toThrow('--warden is required');
    }
  });
});

describe('the idle time', () => {
  it('ends a console session 20 minutes after its last call or console event, and its sockets with it', async () => {
    const warden = await signedInWarden(server, nextAddress());
    const watching = await console_(warden.token);
    const justIdle = WARDEN_IDLE_TIMEOUT_MS - MINUTE;

    // A call renews it, and so does an event of the console.
    server.clock.offsetMs += justIdle;
    expect((await read(warden.token)).body.api.status).toBe('success');
    server.clock.offsetMs += justIdle;
    expect(await watching.send('close_jail_from_warden', { reservationId: 1 })).toEqual({ ok: true });
    server.clock.offsetMs += justIdle;
    await server.app.endExpiredSessions();
    expect(watching.socket.connected).toBe(true);
    expect((await read(warden.token)).body.api.status).toBe('success');

    // Then nothing for the idle time: the sweep ends the socket, and the session reads as signed out.
    server.clock.offsetMs += WARDEN_IDLE_TIMEOUT_MS;
    const ended = disconnected(watching);
    await server.app.endExpiredSessions();
    expect(await ended).toBe('io server disconnect');
    expect((await read(warden.token)).body.api.errorMessage).toBe(SIGNED_OUT);
  });

  it('refuses an event of an idle console and ends its socket', async () => {
    const warden = await signedInWarden(server, nextAddress());
    const watching = await console_(warden.token);
    server.clock.offsetMs += WARDEN_IDLE_TIMEOUT_MS;
    const ended = disconnected(watching);
    expect(await watching.send('close_jail_from_warden', { reservationId: 1 })).toEqual({ ok: false, error: SIGNED_OUT });
    expect(await ended).toBe('io server disconnect');
  });
});

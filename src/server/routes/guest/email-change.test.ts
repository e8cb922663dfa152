import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { guests, pushDevices } from '../../db/schema/index.ts';
import {
  apiBlock,
  call,
  credentials,
  fail,
  lastMessageTo,
  linkTokenMailedTo,
  outbox,
  signIn,
  signUp,
  succeed,
  useTestServer,
  verifyEmail,
  type TestGuest,
} from '../../test/harness.ts';

/**
 * The account's e-mail address (docs/sessions.md, "Changing the e-mail
 * address"): a new address waits for its link and the old one stays in
 * force; a reset link works only for the account's address; the former
 * address gets a way back that takes the account back; every password set
 * by a link is told to the account's address.
 */

const server = useTestServer();

const DAY = 24 * 60 * 60 * 1000;
const LINK_INVALID = 'This link is invalid or has expired.';
const SIGNED_OUT = 'You are signed out. Please sign in again.';
const EMAIL_TAKEN = 'This e-mail address is already registered.';

/** Each guest calls from an address of its own, for the per-address limits. */
function from(guest: TestGuest) {
  return { remoteAddress: guest.address };
}

function asGuest(guest: TestGuest, fields: Record<string, unknown> = {}, language: 'en' | 'ja' = 'en') {
  return { api: apiBlock(language), guest: { ...credentials(guest), ...fields } };
}

async function verifiedGuest(): Promise<TestGuest> {
  const guest = await signUp(server.app);
  await verifyEmail(server.app, guest);
  return guest;
}

async function askFor(guest: TestGuest, email: string): Promise<Record<string, unknown>> {
  const answer = await succeed(server.app, '/guest/update', asGuest(guest, { email, currentPassword: guest.password }), from(guest));
  return answer.guest as Record<string, unknown>;
}

/** Opens the newest verification link mailed to `email`. */
async function confirm(guest: TestGuest, email: string): Promise<void> {
  const token = await linkTokenMailedTo(server.app, email, 'verifyEmail');
  await succeed(server.app, '/guest/verifyEmail', { api: apiBlock(), guest: { token } }, from(guest));
}

async function read(guest: TestGuest): Promise<Record<string, unknown>> {
  return (await succeed(server.app, '/guest/read', asGuest(guest))).guest as Record<string, unknown>;
}

/** Whether `title` (a username or an address) and `password` sign in. */
async function signsIn(guest: TestGuest, title: string, password: string): Promise<boolean> {
  const result = await call(server.app, '/guest/authenticate', { api: apiBlock(), guest: { title, password } }, from(guest));
  return result.body.api.status === 'success';
}

async function resetLinkFor(guest: TestGuest, email: string): Promise<string> {
  await succeed(server.app, '/guest/updatePasswordEmail', { api: apiBlock(), guest: { email } }, from(guest));
  return linkTokenMailedTo(server.app, email, 'updatePassword');
}

/** Sets the password with a reset link mailed to the guest's address. */
async function resetPassword(guest: TestGuest, password: string): Promise<void> {
  const token = await resetLinkFor(guest, guest.email);
  await succeed(server.app, '/guest/updatePassword', { api: apiBlock(), guest: { token, password } }, from(guest));
}

function takeBack(guest: TestGuest, token: string, password: string) {
  return call(server.app, '/guest/takeBack', { api: apiBlock(), guest: { token, password } }, from(guest));
}

describe('a new e-mail address', () => {
  it('waits for its link, the account’s address signing in and getting the mails until then; then the new one does, and the old is told with the way back', async () => {
    const guest = await verifiedGuest();
    const next = `next-${guest.email}`;
    const before = (await outbox(server.app)).length;
    expect(await askFor(guest, next)).toMatchObject({ email: guest.email, pendingEmail: next, isVerified: true });
    const asked = (await outbox(server.app)).slice(before);
    expect(asked.map((mail) => [mail.to, mail.subject])).toEqual([[next, 'Warden: confirm your new e-mail address']]);

    // Meanwhile the account's address is the old one.
    expect(await signsIn(guest, guest.email, guest.password)).toBe(true);
    expect(await signsIn(guest, next, guest.password)).toBe(false);
    await resetLinkFor(guest, guest.email);
    const quiet = (await outbox(server.app)).length;
    await succeed(server.app, '/guest/updatePasswordEmail', { api: apiBlock(), guest: { email: next } }, from(guest));
    expect((await outbox(server.app)).length).toBe(quiet);

    await confirm(guest, next);
    expect(await read(guest)).toMatchObject({ email: next, pendingEmail: null, isVerified: true });
    expect(await signsIn(guest, next, guest.password)).toBe(true);
    expect(await signsIn(guest, guest.email, guest.password)).toBe(false);
    const notice = await lastMessageTo(server.app, guest.email);
    expect(notice.subject).toBe('Warden: your e-mail address was changed');
    expect(notice.text).toContain(next);
    expect(notice.text).toContain('within 7 days');
    expect(notice.text).toMatch(/http:\/\/localhost:8080\/guest\/takeBack\/[A-Za-z0-9_-]{43}/);
  });

  it('is dropped by cancel, and its link then fails; a resend goes to the address waiting', async () => {
    const guest = await verifiedGuest();
    const next = `next-${guest.email}`;
    await askFor(guest, next);
    const first = await linkTokenMailedTo(server.app, next, 'verifyEmail');
    await succeed(server.app, '/guest/resendVerifyEmail', asGuest(guest), from(guest));
    expect(await linkTokenMailedTo(server.app, next, 'verifyEmail')).not.toBe(first);

    const cancelled = await succeed(server.app, '/guest/cancelEmailChange', asGuest(guest), from(guest));
    expect(cancelled.guest).toMatchObject({ email: guest.email, pendingEmail: null, isVerified: true });
    expect(await fail(server.app, '/guest/verifyEmail', { api: apiBlock(), guest: { token: first } }, from(guest))).toBe(LINK_INVALID);
    expect(await fail(server.app, '/guest/resendVerifyEmail', asGuest(guest), from(guest))).toBe('Your e-mail address is already verified.');
    expect(await read(guest)).toMatchObject({ email: guest.email, pendingEmail: null });
  });

  it('cannot be another account’s address; of two accounts waiting for one address, the first to verify it has it', async () => {
    const guest = await verifiedGuest();
    const other = await verifiedGuest();
    expect(await fail(server.app, '/guest/update', asGuest(guest, { email: other.email, currentPassword: guest.password }), from(guest))).toBe(EMAIL_TAKEN);

    const shared = `shared-${guest.email}`;
    await askFor(guest, shared);
    const guestsLink = await linkTokenMailedTo(server.app, shared, 'verifyEmail');
    await askFor(other, shared);
    await confirm(other, shared);
    expect(await fail(server.app, '/guest/verifyEmail', { api: apiBlock(), guest: { token: guestsLink } }, from(guest))).toBe(EMAIL_TAKEN);
    expect(await read(guest)).toMatchObject({ email: guest.email, isVerified: true });
  });

  it('mails nothing to a former address that was never verified: a mistyped address gets no way into the account', async () => {
    const guest = await signUp(server.app);
    const next = `fixed-${guest.email}`;
    await askFor(guest, next);
    await confirm(guest, next);
    expect(await read(guest)).toMatchObject({ email: next, isVerified: true });
    expect((await outbox(server.app)).filter((mail) => mail.to === guest.email).map((mail) => mail.subject)).toEqual([
      'Warden: please verify your e-mail address',
    ]);
  });
});

describe('password reset', () => {
  it('a link mailed to the old address works while the change waits, and no longer once the new address is verified', async () => {
    const guest = await verifiedGuest();
    const next = `next-${guest.email}`;
    const early = await resetLinkFor(guest, guest.email);
    await askFor(guest, next);
    await succeed(server.app, '/guest/updatePassword', { api: apiBlock(), guest: { token: early, password: 'a reset while waiting' } }, from(guest));
    const signedIn = { ...(await signIn(server.app, { ...guest, password: 'a reset while waiting' })), password: 'a reset while waiting' };

    const late = await resetLinkFor(signedIn, guest.email);
    await confirm(signedIn, next);
    expect(await fail(server.app, '/guest/updatePassword', { api: apiBlock(), guest: { token: late, password: 'an intruder’s password' } }, from(guest))).toBe(
      LINK_INVALID,
    );
    expect(await signsIn(guest, next, 'a reset while waiting')).toBe(true);
  });

  it('tells the account’s address that the password was changed, with what to do if it was not the guest, in the guest’s language', async () => {
    const guest = await verifiedGuest();
    await resetPassword(guest, 'a brand new password');
    const notice = await lastMessageTo(server.app, guest.email);
    expect(notice.subject).toBe('Warden: your password was changed');
    expect(notice.text).toContain('If you did not do this, someone else can read the mail of this address.');
    expect(notice.text).toContain('http://localhost:8080/guest/resetPasswordEmail');

    const japanese = await verifiedGuest();
    await succeed(server.app, '/guest/update', asGuest(japanese, { language: 'ja' }));
    await resetPassword(japanese, 'a brand new password');
    const japaneseNotice = await lastMessageTo(server.app, japanese.email);
    expect(japaneseNotice.subject).toBe('Warden: パスワードが変更されました');
    expect(japaneseNotice.text).toContain('心当たりのない場合は、第三者がこのアドレスのメールを読める状態にあります。');
  });
});

describe('taking the account back', () => {
  /** A verified guest whose address an intruder (with the session and the password) moved to `intruder@…`; the way back's token. */
  async function hijacked(): Promise<{ owner: TestGuest; intruder: TestGuest; wayBack: string }> {
    const owner = await verifiedGuest();
    const intruder = { ...(await signIn(server.app, owner)), email: `intruder-${owner.email}` };
    await askFor(intruder, intruder.email);
    await confirm(intruder, intruder.email);
    return { owner, intruder, wayBack: await linkTokenMailedTo(server.app, owner.email, 'takeBack') };
  }

  it('gives the former address the account again: its address, a new password, every session ended, every credential the intruder may have made revoked', async () => {
    const { owner, intruder, wayBack } = await hijacked();
    await succeed(server.app, '/guest/regenerateWebhookToken', asGuest(intruder), from(intruder));
    await succeed(server.app, '/guest/regenerateCalendarFeed', asGuest(intruder), from(intruder));
    await succeed(server.app, '/guest/readTriggerSecret', asGuest(intruder), from(intruder));
    await server.app.db.insert(pushDevices).values({
      guestId: owner.id,
      endpoint: `https://fcm.googleapis.com/fcm/send/${owner.id}`,
      p256dh: 'key',
      auth: 'secret',
      label: 'The intruder’s browser',
      createdAt: server.clock.now(),
    });
    const intrudersReset = await resetLinkFor(intruder, intruder.email);

    const answer = await takeBack(owner, wayBack, 'my account again');
    expect(answer.body.api).toEqual({ status: 'success' });

    expect(await fail(server.app, '/guest/read', asGuest(intruder))).toBe(SIGNED_OUT);
    expect(await fail(server.app, '/guest/read', asGuest(owner))).toBe(SIGNED_OUT);
    expect(await signsIn(owner, intruder.email, owner.password)).toBe(false);
    expect(await signsIn(owner, owner.email, owner.password)).toBe(false);
    const back = await signIn(server.app, { ...owner, title: owner.email, password: 'my account again' });
    expect(await read(back)).toMatchObject({ email: owner.email, pendingEmail: null, isVerified: true, webhookTokenHint: null, calendarFeedHint: null });
    const [row] = await server.app.db.select().from(guests).where(eq(guests.id, owner.id));
    expect(row?.triggerSecret).toBeNull();
    expect(await server.app.db.select().from(pushDevices).where(eq(pushDevices.guestId, owner.id))).toEqual([]);
    // Links mailed before stop working: the intruder's reset, the way back itself.
    expect(
      await fail(server.app, '/guest/updatePassword', { api: apiBlock(), guest: { token: intrudersReset, password: 'the intruder again' } }, from(intruder)),
    ).toBe(LINK_INVALID);
    expect((await takeBack(owner, wayBack, 'once more please')).body.api.errorMessage).toBe(LINK_INVALID);
    expect((await lastMessageTo(server.app, owner.email)).subject).toBe('Warden: your password was changed');
  });

  it('refuses a password too easy to guess and keeps the link for another try', async () => {
    const { owner, wayBack } = await hijacked();
    expect((await takeBack(owner, wayBack, 'password123')).body.api.errorMessage).toMatch(/^This password is too easy to guess/);
    expect((await takeBack(owner, wayBack, 'a sturdier password')).body.api).toEqual({ status: 'success' });
  });

  it('the first owner’s way back outlives the intruder’s own: a later change cannot cancel it', async () => {
    const { owner, intruder, wayBack } = await hijacked();
    // The intruder moves the address once more and uses the way back that move mailed to the intruder.
    const intruderAgain = { ...intruder, email: `again-${owner.email}` };
    await askFor(intruder, intruderAgain.email);
    await confirm(intruder, intruderAgain.email);
    const intrudersWayBack = await linkTokenMailedTo(server.app, intruder.email, 'takeBack');
    expect((await takeBack(intruder, intrudersWayBack, 'the intruder keeps it')).body.api).toEqual({ status: 'success' });

    expect((await takeBack(owner, wayBack, 'my account again')).body.api).toEqual({ status: 'success' });
    expect(await signsIn(owner, owner.email, 'my account again')).toBe(true);
    expect(await signsIn(owner, intruder.email, 'the intruder keeps it')).toBe(false);
  });

  it('holds the former address from every other account while the way back is open, for 7 days', async () => {
    const { owner, wayBack } = await hijacked();
    const squatter = `squatter${owner.id}`;
    const signUpWith = (email: string) =>
      call(
        server.app,
        '/guest/create',
        { api: apiBlock(), guest: { title: squatter, email, password: 'a long password 1', timezone: -540, language: 'en' } },
        from(owner),
      );
    expect((await signUpWith(owner.email)).body.api.errorMessage).toBe(EMAIL_TAKEN);
    const other = await verifiedGuest();
    expect(await fail(server.app, '/guest/update', asGuest(other, { email: owner.email, currentPassword: other.password }), from(other))).toBe(EMAIL_TAKEN);

    server.clock.offsetMs += 7 * DAY;
    expect((await takeBack(owner, wayBack, 'too late now')).body.api.errorMessage).toBe(LINK_INVALID);
    expect((await signUpWith(owner.email)).body.api).toEqual({ status: 'success' });
  });
});

import type { FastifyPluginAsync } from 'fastify';
import { authenticatedRequestSchema } from '../../../shared/api/envelope.ts';
import { guestUpdatePasswordEmailRequestSchema, guestUpdatePasswordRequestSchema, guestVerifyEmailRequestSchema } from '../../../shared/api/guest.ts';
import { ApiFailure, apiPost, clientAddress } from '../../lib/api.ts';
import { RATE_RULES } from '../../lib/rate-limiter.ts';
import { assertPasswordNotGuessable } from '../../lib/password-policy.ts';
import { guestByEmail } from '../../services/guests.ts';
import { resendVerificationLink, resetPasswordByLink, takeBackAccount, verifyMailedAddress } from '../../services/email-change.ts';
import { sendMailLink, sendPasswordChangedNotice } from '../../services/mail-links.ts';

/**
 * E-mail verification, password reset and taking the account back after an
 * e-mail change, each by a single-use mailed link.
 */
const mailLinks: FastifyPluginAsync = async (app) => {
  apiPost(app, '/verifyEmail', {
    access: 'public',
    body: guestVerifyEmailRequestSchema,
    payload: {},
    async handler({ guest: { token } }, _caller, request) {
      await app.rateLimiter.enforce(`link:address:${clientAddress(request)}`, RATE_RULES.linksPerAddress);
      // Writes by a mailed token, not by a guest's session: the read cache drops the guest here (plugins/read-cache-hooks.ts).
      await app.invalidateReadCache(await verifyMailedAddress(app, token));
      return {};
    },
  });

  apiPost(app, '/resendVerifyEmail', {
    access: 'guest',
    body: authenticatedRequestSchema,
    payload: {},
    async handler(_body, { guest }, request) {
      if (guest.isVerified && guest.pendingEmail === null) throw new ApiFailure('already_verified');
      await app.rateLimiter.enforce(`mail:address:${clientAddress(request)}`, RATE_RULES.mailsPerAddress);
      await app.rateLimiter.enforce(`mail:verify:${guest.id}`, RATE_RULES.mailsPerAccount);
      await resendVerificationLink(app, guest);
      return {};
    },
  });

  apiPost(app, '/updatePasswordEmail', {
    access: 'public',
    body: guestUpdatePasswordEmailRequestSchema,
    payload: {},
    async handler({ guest: { email } }, _caller, request) {
      // The same answer whether or not the address belongs to a guest.
      await app.rateLimiter.enforce(`mail:address:${clientAddress(request)}`, RATE_RULES.mailsPerAddress);
      await app.rateLimiter.enforce(`mail:reset:${email}`, RATE_RULES.mailsPerAccount);
      const guest = await guestByEmail(app.db, email);
      if (guest !== undefined) await sendMailLink(app, guest, 'reset_password');
      return {};
    },
  });

  // Both set the password with a mailed link: a reset, or the way back after an address change.
  for (const [path, setPassword] of [
    ['/updatePassword', resetPasswordByLink],
    ['/takeBack', takeBackAccount],
  ] as const) {
    apiPost(app, path, {
      access: 'public',
      body: guestUpdatePasswordRequestSchema,
      payload: {},
      async handler({ guest: { token, password } }, _caller, request) {
        await app.rateLimiter.enforce(`link:address:${clientAddress(request)}`, RATE_RULES.linksPerAddress);
        // Before the link is used up, so that the guest can try another password with the same link.
        assertPasswordNotGuessable(password);
        const { guest, ended } = await setPassword(app, token, password);
        await app.invalidateReadCache(guest.id);
        app.endSessionSockets('guest', ended);
        sendPasswordChangedNotice(app, guest);
        return {};
      },
    });
  }
};

export default mailLinks;

import { and, eq } from 'drizzle-orm';
import type { FastifyPluginAsync } from 'fastify';
import { authenticatedRequestSchema } from '../../../shared/api/envelope.ts';
import { guestUpdatePasswordEmailRequestSchema, guestUpdatePasswordRequestSchema, guestVerifyEmailRequestSchema } from '../../../shared/api/guest.ts';
import { guests } from '../../db/schema/index.ts';
import { ApiFailure, apiPost, clientAddress } from '../../lib/api.ts';
import { RATE_RULES } from '../../lib/rate-limiter.ts';
import { assertPasswordNotGuessable } from '../../lib/password-policy.ts';
import { hashPassword } from '../../lib/secrets.ts';
import { guestByEmail } from '../../services/guests.ts';
import { resendVerificationLink, takeBackAccount, verifyMailedAddress } from '../../services/email-change.ts';
import { consumeAllMailLinks, consumeMailLink, sendMailLink, sendPasswordChangedNotice } from '../../services/mail-links.ts';
import { endGuestSessions } from '../../services/sessions.ts';

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
      await verifyMailedAddress(app, token);
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

  apiPost(app, '/updatePassword', {
    access: 'public',
    body: guestUpdatePasswordRequestSchema,
    payload: {},
    async handler({ guest: { token, password } }, _caller, request) {
      await app.rateLimiter.enforce(`link:address:${clientAddress(request)}`, RATE_RULES.linksPerAddress);
      // Before the link is used up, so that the guest can try another password with the same link.
      assertPasswordNotGuessable(password);
      const link = await consumeMailLink(app, token, 'reset_password');
      if (link === null) throw new ApiFailure('link_invalid');
      const passwordHash = await hashPassword(password);
      const now = app.clock.now();
      // A link works only while the address it was mailed to is the account's.
      const [guest] = await app.db
        .update(guests)
        .set({ passwordHash, updatedAt: now })
        .where(and(eq(guests.id, link.guestId), eq(guests.email, link.email)))
        .returning();
      if (guest === undefined) throw new ApiFailure('link_invalid');
      app.endSessionSockets('guest', await endGuestSessions(app.db, guest.id, null));
      await consumeAllMailLinks(app.db, guest.id, ['reset_password'], now);
      sendPasswordChangedNotice(app, guest);
      return {};
    },
  });

  apiPost(app, '/takeBack', {
    access: 'public',
    body: guestUpdatePasswordRequestSchema,
    payload: {},
    async handler({ guest: { token, password } }, _caller, request) {
      await app.rateLimiter.enforce(`link:address:${clientAddress(request)}`, RATE_RULES.linksPerAddress);
      // Before the link is used up, so that the owner can try another password with the same link.
      assertPasswordNotGuessable(password);
      const { guest, ended } = await takeBackAccount(app, token, password);
      app.endSessionSockets('guest', ended);
      sendPasswordChangedNotice(app, guest);
      return {};
    },
  });
};

export default mailLinks;

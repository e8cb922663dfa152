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
import { consumeAllMailLinks, consumeMailLink, sendMailLink } from '../../services/mail-links.ts';
import { endGuestSessions } from '../../services/sessions.ts';

/** E-mail verification and password reset, each by a single-use mailed link. */
const mailLinks: FastifyPluginAsync = async (app) => {
  apiPost(app, '/verifyEmail', {
    access: 'public',
    body: guestVerifyEmailRequestSchema,
    payload: {},
    async handler({ guest: { token } }, _caller, request) {
      await app.rateLimiter.enforce(`link:address:${clientAddress(request)}`, RATE_RULES.linksPerAddress);
      const link = await consumeMailLink(app, token, 'verify_email');
      if (link === null) throw new ApiFailure('link_invalid');
      // A link proves only the address it was sent to.
      const [verified] = await app.db
        .update(guests)
        .set({ isVerified: true, updatedAt: app.clock.now() })
        .where(and(eq(guests.id, link.guestId), eq(guests.email, link.email)))
        .returning({ id: guests.id });
      if (verified === undefined) throw new ApiFailure('link_invalid');
      return {};
    },
  });

  apiPost(app, '/resendVerifyEmail', {
    access: 'guest',
    body: authenticatedRequestSchema,
    payload: {},
    async handler(_body, { guest }, request) {
      if (guest.isVerified) throw new ApiFailure('already_verified');
      await app.rateLimiter.enforce(`mail:address:${clientAddress(request)}`, RATE_RULES.mailsPerAddress);
      await app.rateLimiter.enforce(`mail:verify:${guest.id}`, RATE_RULES.mailsPerAccount);
      await sendMailLink(app, guest, 'verify_email');
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
      await app.db.update(guests).set({ passwordHash, updatedAt: app.clock.now() }).where(eq(guests.id, link.guestId));
      app.endSessionSockets('guest', await endGuestSessions(app.db, link.guestId, null));
      await consumeAllMailLinks(app, link.guestId, 'reset_password');
      return {};
    },
  });
};

export default mailLinks;

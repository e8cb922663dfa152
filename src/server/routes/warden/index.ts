import { eq } from 'drizzle-orm';
import type { FastifyPluginAsync } from 'fastify';
import {
  signedInWardenSchema,
  wardenAuthenticateRequestSchema,
  wardenConfirmCodeRequestSchema,
  wardenSchema,
  wardenSessionRequestSchema,
  wardenSignInTicketSchema,
  wardenUpdatePasswordRequestSchema,
} from '../../../shared/api/warden.ts';
import { wardens } from '../../db/schema/index.ts';
import { ApiFailure, apiPost, clientAddress } from '../../lib/api.ts';
import { RATE_RULES } from '../../lib/rate-limiter.ts';
import { assertPasswordNotGuessable } from '../../lib/password-policy.ts';
import { hashPassword, verifyDecoyPassword, verifyPassword } from '../../lib/secrets.ts';
import { beginSignIn, confirmSignIn } from '../../services/second-factor.ts';
import { endWardenSession, endWardenSessions } from '../../services/wardens.ts';

/**
 * The human wardens' console (docs/api.md, "Warden console"): sign-in by
 * e-mail and password then the code of the second factor (enrolled at the
 * first sign-in), the session, a new password, and sign-out. Sign-in is limited like
 * the guests' (per address, and failures per account) and spends the same
 * time on an unknown address as on a wrong password, so neither the answer
 * nor its timing tells which it was. The ICE servers of the live video come
 * through the relay, each call's own (docs/jail.md, Live video).
 */
const warden: FastifyPluginAsync = async (app) => {
  apiPost(app, '/authenticate', {
    access: 'public',
    body: wardenAuthenticateRequestSchema,
    payload: { signIn: wardenSignInTicketSchema },
    async handler({ warden: form }, _caller, request) {
      await app.rateLimiter.enforce(`warden-sign-in:address:${clientAddress(request)}`, RATE_RULES.signInPerAddress);
      const email = form.email.toLowerCase();
      const [found] = await app.db
        .select({
          id: wardens.id,
          email: wardens.email,
          passwordHash: wardens.passwordHash,
          secondFactorSecret: wardens.secondFactorSecret,
          disabledAt: wardens.disabledAt,
        })
        .from(wardens)
        .where(eq(wardens.email, email));
      const accountKey = `warden-sign-in:account:${found?.id ?? email}`;
      const matches = await app.rateLimiter.attempt(accountKey, RATE_RULES.signInFailuresPerAccount, () =>
        found === undefined ? verifyDecoyPassword(form.password) : verifyPassword(found.passwordHash, form.password),
      );
      if (found === undefined || !matches) throw new ApiFailure('warden_sign_in_failed');
      // Said only to whoever has the password: the warden learns why, a guesser learns nothing.
      if (found.disabledAt !== null) throw new ApiFailure('warden_disabled');
      return { signIn: await beginSignIn(app.db, found, app.clock.now()) };
    },
  });

  apiPost(app, '/confirmCode', {
    access: 'public',
    body: wardenConfirmCodeRequestSchema,
    payload: { warden: signedInWardenSchema },
    async handler({ warden: form }, _caller, request) {
      await app.rateLimiter.enforce(`warden-sign-in:address:${clientAddress(request)}`, RATE_RULES.signInPerAddress);
      // The authenticator app counts the world's time, whatever the development clock says.
      return { warden: await confirmSignIn(app.db, app.rateLimiter, form, app.clock.now(), Date.now()) };
    },
  });

  apiPost(app, '/read', {
    access: 'warden',
    body: wardenSessionRequestSchema,
    payload: { warden: wardenSchema },
    async handler(_body, { warden: found }) {
      return { warden: { id: found.id, title: found.title } };
    },
  });

  apiPost(app, '/logout', {
    access: 'warden',
    body: wardenSessionRequestSchema,
    payload: {},
    async handler({ warden: credentials }) {
      app.endSessionSockets('warden', await endWardenSession(app.db, credentials.token));
      return {};
    },
  });

  apiPost(app, '/updatePassword', {
    access: 'warden',
    body: wardenUpdatePasswordRequestSchema,
    payload: {},
    async handler({ warden: form }, session) {
      const wardenId = session.warden.id;
      const [found] = await app.db
        .select({ title: wardens.title, email: wardens.email, passwordHash: wardens.passwordHash })
        .from(wardens)
        .where(eq(wardens.id, wardenId));
      if (found === undefined) throw new ApiFailure('warden_signed_out');
      const matches = await app.rateLimiter.attempt(`warden-sign-in:account:${wardenId}`, RATE_RULES.signInFailuresPerAccount, () =>
        verifyPassword(found.passwordHash, form.currentPassword),
      );
      if (!matches) throw new ApiFailure('current_password_wrong');
      assertPasswordNotGuessable(form.password, [found.title, found.email]);
      await app.db
        .update(wardens)
        .set({ passwordHash: await hashPassword(form.password) })
        .where(eq(wardens.id, wardenId));
      // Whoever else had the old password and a session is out; this console stays.
      app.endSessionSockets('warden', await endWardenSessions(app.db, wardenId, session.tokenHash));
      return {};
    },
  });
};

export default warden;

import { eq } from 'drizzle-orm';
import type { FastifyPluginAsync } from 'fastify';
import { signedInWardenSchema, wardenAuthenticateRequestSchema, wardenSchema, wardenSessionRequestSchema } from '../../../shared/api/warden.ts';
import { wardens } from '../../db/schema/index.ts';
import { ApiFailure, apiPost, clientAddress } from '../../lib/api.ts';
import { RATE_RULES } from '../../lib/rate-limiter.ts';
import { verifyDecoyPassword, verifyPassword } from '../../lib/secrets.ts';
import { endWardenSession, startWardenSession } from '../../services/wardens.ts';

/**
 * The human wardens' console (docs/api.md, "Warden console"): sign-in by
 * e-mail and password, the session, and sign-out. Sign-in is limited like
 * the guests' (per address, and failures per account) and spends the same
 * time on an unknown address as on a wrong password, so neither the answer
 * nor its timing tells which it was. The ICE servers of the live video come
 * through the relay, each call's own (docs/jail.md, Live video).
 */
const warden: FastifyPluginAsync = async (app) => {
  apiPost(app, '/authenticate', {
    access: 'public',
    body: wardenAuthenticateRequestSchema,
    payload: { warden: signedInWardenSchema },
    async handler({ warden: form }, _caller, request) {
      await app.rateLimiter.enforce(`warden-sign-in:address:${clientAddress(request)}`, RATE_RULES.signInPerAddress);
      const email = form.email.toLowerCase();
      const [found] = await app.db
        .select({ id: wardens.id, title: wardens.title, passwordHash: wardens.passwordHash })
        .from(wardens)
        .where(eq(wardens.email, email));
      const accountKey = `warden-sign-in:account:${found?.id ?? email}`;
      const matches = await app.rateLimiter.attempt(accountKey, RATE_RULES.signInFailuresPerAccount, () =>
        found === undefined ? verifyDecoyPassword(form.password) : verifyPassword(found.passwordHash, form.password),
      );
      if (found === undefined || !matches) throw new ApiFailure('warden_sign_in_failed');
      const token = await startWardenSession(app.db, found.id, app.clock.now());
      return { warden: { id: found.id, title: found.title, token } };
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
};

export default warden;

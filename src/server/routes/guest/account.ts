import { and, eq, gt, isNull } from 'drizzle-orm';
import type { FastifyPluginAsync } from 'fastify';
import { authenticatedRequestSchema } from '../../../shared/api/envelope.ts';
import {
  guestAuthenticateAsFacilitatorRequestSchema,
  guestAuthenticateRequestSchema,
  guestCreateRequestSchema,
  guestSchema,
} from '../../../shared/api/guest.ts';
import { facilitatorTokens, guests } from '../../db/schema/index.ts';
import { ApiFailure, apiPost, clientAddress } from '../../lib/api.ts';
import { RATE_RULES } from '../../lib/rate-limiter.ts';
import { assertPasswordNotGuessable } from '../../lib/password-policy.ts';
import { hashPassword, hashToken, newToken, verifyDecoyPassword, verifyPassword } from '../../lib/secrets.ts';
import { deviceOf } from '../../lib/user-agent.ts';
import { addressContactHash, carryOverFromDeletedAccount } from '../../services/contacts.ts';
import { assertAddressNotHeldForTakeBack } from '../../services/email-change.ts';
import { tokenHint } from '../../services/triggers/webhook-token.ts';
import { assertTitleAndEmailFree, explainUniqueViolation, guestByEmail, guestByTitle, publicGuest, startSession } from '../../services/guests.ts';
import { sendMailLink } from '../../services/mail-links.ts';
import { endSession } from '../../services/sessions.ts';

/** Sign-up, sign-in (also as a facilitator), reading the account, and sign-out. */
const account: FastifyPluginAsync = async (app) => {
  apiPost(app, '/create', {
    access: 'public',
    body: guestCreateRequestSchema,
    payload: { guest: guestSchema },
    async handler({ guest: form }, _caller, request) {
      await app.rateLimiter.enforce(`sign-up:address:${clientAddress(request)}`, RATE_RULES.signUpPerAddress);
      await assertTitleAndEmailFree(app.db, form, null);
      await assertAddressNotHeldForTakeBack(app.db, form.email, null, app.clock.now());
      assertPasswordNotGuessable(form.password, [form.title, form.email]);
      const now = app.clock.now();
      const passwordHash = await hashPassword(form.password);
      // The webhook token is kept only as its hash; the guest makes one to see in the Webhook tab.
      const webhookToken = newToken();
      const [created] = await app.db
        .insert(guests)
        .values({
          title: form.title,
          email: form.email,
          passwordHash,
          language: form.language,
          timezone: form.timezone,
          webhookToken: hashToken(webhookToken),
          webhookTokenHint: tokenHint(webhookToken),
          subscriptionCreatedAt: now,
          createdAt: now,
          updatedAt: now,
        })
        .returning()
        .catch(explainUniqueViolation);
      if (created === undefined) throw new Error('insert returned no guest');
      // An address a deleted account verified gets back a suspension or block still running, and no open trial.
      const guest = (await carryOverFromDeletedAccount(app.db, created.id, addressContactHash(form.email), now)) ?? created;
      const token = await startSession(app.db, guest.id, now, null, deviceOf(request.headers['user-agent']));
      await sendMailLink(app, guest, 'verify_email');
      return { guest: await publicGuest(app.db, guest, token) };
    },
  });

  apiPost(app, '/authenticate', {
    access: 'public',
    body: guestAuthenticateRequestSchema,
    payload: { guest: guestSchema },
    async handler({ guest: form }, _caller, request) {
      await app.rateLimiter.enforce(`sign-in:address:${clientAddress(request)}`, RATE_RULES.signInPerAddress);
      const found = form.title.includes('@') ? await guestByEmail(app.db, form.title.toLowerCase()) : await guestByTitle(app.db, form.title);
      const accountKey = `sign-in:account:${found?.id ?? form.title.toLowerCase()}`;
      const matches = await app.rateLimiter.attempt(accountKey, RATE_RULES.signInFailuresPerAccount, () =>
        found === undefined ? verifyDecoyPassword(form.password) : verifyPassword(found.passwordHash, form.password),
      );
      if (found === undefined || !matches) throw new ApiFailure('sign_in_failed');
      const token = await startSession(app.db, found.id, app.clock.now(), null, deviceOf(request.headers['user-agent']));
      return { guest: await publicGuest(app.db, found, token) };
    },
  });

  apiPost(app, '/authenticateAsLimFacilitator', {
    access: 'public',
    body: guestAuthenticateAsFacilitatorRequestSchema,
    payload: { guest: guestSchema },
    async handler({ guest: { id }, facilitator }, _caller, request) {
      await app.rateLimiter.enforce(`sign-in:address:${clientAddress(request)}`, RATE_RULES.signInPerAddress);
      const now = app.clock.now();
      // A token works once: the first sign-in marks it used, and a second finds nothing.
      const [used] = await app.db
        .update(facilitatorTokens)
        .set({ usedAt: now })
        .where(
          and(
            eq(facilitatorTokens.tokenHash, hashToken(facilitator.token)),
            eq(facilitatorTokens.guestId, id),
            gt(facilitatorTokens.expiresAt, now),
            isNull(facilitatorTokens.usedAt),
          ),
        )
        .returning({ wardenId: facilitatorTokens.wardenId });
      if (used === undefined) throw new ApiFailure('facilitator_failed');
      // The guest sees this in the account menu.
      const [guest] = await app.db.update(guests).set({ facilitatorSignedInAt: now }).where(eq(guests.id, id)).returning();
      if (guest === undefined) throw new ApiFailure('facilitator_failed');
      // A write by the facilitator's token, not by a guest's session: the read cache drops the guest here (plugins/read-cache-hooks.ts).
      await app.invalidateReadCache(guest.id);
      const token = await startSession(app.db, guest.id, now, used.wardenId, deviceOf(request.headers['user-agent']));
      return { guest: await publicGuest(app.db, guest, token) };
    },
  });

  apiPost(app, '/read', {
    access: 'guest',
    body: authenticatedRequestSchema,
    payload: { guest: guestSchema },
    async handler(_body, { guest }) {
      return { guest: await publicGuest(app.db, guest) };
    },
  });

  apiPost(app, '/logout', {
    access: 'guest',
    body: authenticatedRequestSchema,
    payload: {},
    async handler({ guest: credentials }, { guest }) {
      app.endSessionSockets('guest', await endSession(app.db, guest.id, credentials.token));
      return {};
    },
  });
};

export default account;

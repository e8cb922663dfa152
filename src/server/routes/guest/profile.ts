import { eq } from 'drizzle-orm';
import type { FastifyPluginAsync } from 'fastify';
import { authenticatedRequestSchema } from '../../../shared/api/envelope.ts';
import { guestRequestPhoneCodeRequestSchema, guestSchema, guestUpdateRequestSchema, phoneCodeSchema } from '../../../shared/api/guest.ts';
import { guests } from '../../db/schema/index.ts';
import { ApiFailure, apiPost, clientAddress } from '../../lib/api.ts';
import { RATE_RULES } from '../../lib/rate-limiter.ts';
import { contactVerified, phoneContactHash } from '../../services/contacts.ts';
import { askForNewAddress, assertAddressNotHeldForTakeBack, cancelNewAddress } from '../../services/email-change.ts';
import { assertCurrentPassword, assertTitleAndEmailFree, explainUniqueViolation, publicGuest } from '../../services/guests.ts';
import { endGuestSessions, refuseFacilitator } from '../../services/sessions.ts';
import { checkPhoneCode, sendPhoneCode } from '../../services/phone-codes.ts';
import { assertTriggerUrlAllowed } from '../../services/triggers/plugin.ts';

/** The value when it is given and differs from the current one, else undefined. */
function changed<Value>(next: Value | null | undefined | '', current: Value | null): Value | undefined {
  return next === null || next === undefined || next === '' || next === current ? undefined : next;
}

/** Editing the own account, the SMS code that proves a new phone number, and dropping a new address not yet verified. */
const profile: FastifyPluginAsync = async (app) => {
  apiPost(app, '/update', {
    access: 'guest',
    body: guestUpdateRequestSchema,
    payload: { guest: guestSchema },
    async handler({ guest: form }, { guest, session }, request) {
      const title = changed(form.title, guest.title);
      const email = changed(form.email, guest.email);
      const phone = changed(form.phone, guest.phone);
      if (email !== undefined || phone !== undefined) refuseFacilitator(session);
      if (email !== undefined) {
        await assertCurrentPassword(app.rateLimiter, guest, form.currentPassword);
        await app.rateLimiter.enforce(`mail:address:${clientAddress(request)}`, RATE_RULES.mailsPerAddress);
        await app.rateLimiter.enforce(`mail:verify:${guest.id}`, RATE_RULES.mailsPerAccount);
      }
      const now = app.clock.now();
      await assertTitleAndEmailFree(app.db, { title, email }, guest.id);
      if (email !== undefined) await assertAddressNotHeldForTakeBack(app.db, email, guest.id, now);
      if (phone !== undefined) {
        if (form.phoneCode === null || form.phoneCode === undefined || form.phoneCode === '') {
          throw new ApiFailure('phone_code_wrong');
        }
        await checkPhoneCode(app, guest.id, phone, form.phoneCode);
      }
      if (form.triggerUrl) await assertTriggerUrlAllowed(form.triggerUrl, app.triggerGuard);
      const [updated] = await app.db
        .update(guests)
        .set({
          title,
          phone,
          language: form.language ?? undefined,
          timezone: form.timezone ?? undefined,
          webhookEnabled: form.webhookEnabled ?? undefined,
          triggerEnabled: form.triggerEnabled ?? undefined,
          triggerMethod: form.triggerMethod ?? undefined,
          triggerUrl: form.triggerUrl === undefined ? undefined : form.triggerUrl || null,
          triggerBody: form.triggerBody,
          updatedAt: now,
        })
        .where(eq(guests.id, guest.id))
        .returning()
        .catch(explainUniqueViolation);
      if (updated === undefined) throw new ApiFailure('authentication_failed');
      let answer = updated;
      // A phone number a deleted account verified gets back a suspension or block still running, and no open trial.
      if (phone !== undefined) answer = (await contactVerified(app.db, guest.id, phoneContactHash(phone, app.config.sms), now)) ?? answer;
      if (email !== undefined) {
        // The account's address stays until the new one is verified by its link.
        answer = await askForNewAddress(app, answer, email);
        // The address that resets the password is changing: only this device stays signed in.
        app.endSessionSockets('guest', await endGuestSessions(app.db, guest.id, session.tokenHash));
      }
      return { guest: await publicGuest(app.db, answer) };
    },
  });

  apiPost(app, '/cancelEmailChange', {
    access: 'guest-not-facilitator',
    body: authenticatedRequestSchema,
    payload: { guest: guestSchema },
    async handler(_body, { guest }) {
      return { guest: await publicGuest(app.db, await cancelNewAddress(app.db, guest.id, app.clock.now())) };
    },
  });

  apiPost(app, '/requestPhoneCode', {
    access: 'guest-not-facilitator',
    body: guestRequestPhoneCodeRequestSchema,
    payload: { phoneCode: phoneCodeSchema },
    async handler({ guest: form }, { guest }, request) {
      return { phoneCode: await sendPhoneCode(app, request, guest, form.phone) };
    },
  });
};

export default profile;

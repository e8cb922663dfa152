import { eq } from 'drizzle-orm';
import type { FastifyPluginAsync } from 'fastify';
import { guestRequestPhoneCodeRequestSchema, guestSchema, guestUpdateRequestSchema, phoneCodeSchema } from '../../../shared/api/guest.ts';
import { guests } from '../../db/schema/index.ts';
import { ApiFailure, apiPost } from '../../lib/api.ts';
import { assertCurrentPassword, assertTitleAndEmailFree, explainUniqueViolation, publicGuest } from '../../services/guests.ts';
import { sendEmailChangedNotice, sendMailLink } from '../../services/mail-links.ts';
import { endGuestSessions, refuseFacilitator } from '../../services/sessions.ts';
import { checkPhoneCode, sendPhoneCode } from '../../services/phone-codes.ts';
import { assertTriggerUrlAllowed } from '../../services/triggers/plugin.ts';

/** The value when it is given and differs from the current one, else undefined. */
function changed<Value>(next: Value | null | undefined | '', current: Value | null): Value | undefined {
  return next === null || next === undefined || next === '' || next === current ? undefined : next;
}

/** Editing the own account, and the SMS code that proves a new phone number. */
const profile: FastifyPluginAsync = async (app) => {
  apiPost(app, '/update', {
    access: 'guest',
    body: guestUpdateRequestSchema,
    payload: { guest: guestSchema },
    async handler({ guest: form }, { guest, session }) {
      const title = changed(form.title, guest.title);
      const email = changed(form.email, guest.email);
      const phone = changed(form.phone, guest.phone);
      if (email !== undefined || phone !== undefined) refuseFacilitator(session);
      if (email !== undefined) await assertCurrentPassword(app.rateLimiter, guest, form.currentPassword);
      await assertTitleAndEmailFree(app.db, { title, email }, guest.id);
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
          email,
          ...(email === undefined ? {} : { isVerified: false }),
          phone,
          language: form.language ?? undefined,
          timezone: form.timezone ?? undefined,
          webhookEnabled: form.webhookEnabled ?? undefined,
          triggerEnabled: form.triggerEnabled ?? undefined,
          triggerMethod: form.triggerMethod ?? undefined,
          triggerUrl: form.triggerUrl === undefined ? undefined : form.triggerUrl || null,
          triggerBody: form.triggerBody,
          updatedAt: app.clock.now(),
        })
        .where(eq(guests.id, guest.id))
        .returning()
        .catch(explainUniqueViolation);
      if (updated === undefined) throw new ApiFailure('authentication_failed');
      if (email !== undefined) {
        await sendMailLink(app, updated, 'verify_email');
        sendEmailChangedNotice(app, updated, guest.email);
        // The address that resets the password has changed: only this device stays signed in.
        app.endSessionSockets('guest', await endGuestSessions(app.db, guest.id, session.tokenHash));
      }
      return { guest: await publicGuest(app.db, updated) };
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

import type { FastifyPluginAsync } from 'fastify';
import { guestDeleteRequestSchema } from '../../../shared/api/guest.ts';
import { apiPost } from '../../lib/api.ts';
import { deleteAccount } from '../../services/account-deletion.ts';
import { assertCurrentPassword } from '../../services/guests.ts';

/**
 * `/guest/delete` (docs/privacy.md, Deletion): with the account's password,
 * never from a facilitator's session; `passwordCheckOnly` checks the
 * password alone, so that the form can say it is wrong before it asks once more. The read cache forgets the guest by
 * the `/api` hook (plugins/read-cache-hooks.ts: the guest whose session
 * made the call, here and on every other server).
 */
const deletion: FastifyPluginAsync = async (app) => {
  apiPost(app, '/delete', {
    access: 'guest-not-facilitator',
    body: guestDeleteRequestSchema,
    payload: {},
    async handler({ password, passwordCheckOnly }, { guest }) {
      await assertCurrentPassword(app.rateLimiter, guest, password);
      if (passwordCheckOnly === true) return {};
      const ended = await deleteAccount(
        { db: app.db, clock: app.clock, provider: app.paymentProvider, jails: app.jailEngine.guests, sms: app.config.sms },
        guest.id,
      );
      // Signed out everywhere: every device's socket ends.
      app.endSessionSockets('guest', ended);
      return {};
    },
  });
};

export default deletion;

import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { logoutEverywhereRequestSchema, logoutSessionRequestSchema, readSessionsRequestSchema, signedInDeviceSchema } from '../../../shared/api/sessions.ts';
import { apiPost } from '../../lib/api.ts';
import { endGuestSessions, endListedSession, signedInDevices } from '../../services/sessions.ts';

/**
 * The guest's signed-in devices under /api/guest (docs/sessions.md,
 * "Signed-in devices"): the list, signing out one, and signing out
 * everywhere. Each ends the sessions' relay sockets at once. Reading or
 * ending sessions is the guest's alone, never a facilitator's.
 */
const sessionRoutes: FastifyPluginAsync = async (app) => {
  const devicesOf = (guestId: number, currentTokenHash: string) =>
    signedInDevices(app.db, guestId, currentTokenHash, app.clock.now(), app.config.guestSessions);

  apiPost(app, '/readSessions', {
    access: 'guest-not-facilitator',
    body: readSessionsRequestSchema,
    payload: { sessions: z.array(signedInDeviceSchema) },
    async handler(_body, { guest, session }) {
      return { sessions: await devicesOf(guest.id, session.tokenHash) };
    },
  });

  /** One device, this one too; a session already gone changes nothing. Answers the list as it now is. */
  apiPost(app, '/logoutSession', {
    access: 'guest-not-facilitator',
    body: logoutSessionRequestSchema,
    payload: { sessions: z.array(signedInDeviceSchema) },
    async handler({ session: { id } }, { guest, session }) {
      app.endSessionSockets('guest', await endListedSession(app.db, guest.id, id));
      return { sessions: await devicesOf(guest.id, session.tokenHash) };
    },
  });

  /** Every session of the guest, this one too. */
  apiPost(app, '/logoutEverywhere', {
    access: 'guest-not-facilitator',
    body: logoutEverywhereRequestSchema,
    payload: {},
    async handler(_body, { guest }) {
      app.endSessionSockets('guest', await endGuestSessions(app.db, guest.id, null));
      return {};
    },
  });
};

export default sessionRoutes;

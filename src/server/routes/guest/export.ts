import type { FastifyPluginAsync } from 'fastify';
import type { z } from 'zod';
import { authenticatedRequestSchema, failedResponseSchema } from '../../../shared/api/envelope.ts';
import { RATE_RULES } from '../../lib/rate-limiter.ts';
import { archiveName, guestArchive } from '../../services/data-export.ts';
import { refuseFacilitator } from '../../services/sessions.ts';

/**
 * `POST /guest/export` (docs/privacy.md, Export): the guest's data as a ZIP,
 * streamed as it is read. A failure (signed out, a facilitator's session,
 * too many exports) is the usual failed envelope; success is the archive
 * itself, which the envelope's schema does not describe.
 */
const dataExport: FastifyPluginAsync = async (app) => {
  app.post('/export', { schema: { body: authenticatedRequestSchema, response: { 200: failedResponseSchema } } }, async (request, reply) => {
    const { guest: credentials } = request.body as z.output<typeof authenticatedRequestSchema>;
    const { guest, session } = await app.authenticatedSession(credentials);
    refuseFacilitator(session);
    await app.rateLimiter.enforce(`export:guest:${guest.id}`, RATE_RULES.exportsPerGuest);
    const now = app.clock.now();
    return reply
      .type('application/zip')
      .header('content-disposition', `attachment; filename="${archiveName(guest, now)}"`)
      .header('cache-control', 'no-store')
      .send(await guestArchive(app.db, guest, now));
  });
};

export default dataExport;

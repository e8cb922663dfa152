import type { FastifyPluginAsync } from 'fastify';
import { authenticatedRequestSchema, failedResponseSchema } from '../../../shared/api/envelope.ts';
import { callerOf } from '../../lib/api.ts';
import { RATE_RULES } from '../../lib/rate-limiter.ts';
import { archiveName, guestArchive } from '../../services/data-export.ts';

/**
 * `POST /guest/export` (docs/privacy.md, Export): the guest's data as a ZIP,
 * streamed as it is read. A failure (signed out, a facilitator's session,
 * too many exports) is the usual failed envelope; success is the archive
 * itself, which the envelope's schema does not describe.
 */
const dataExport: FastifyPluginAsync = async (app) => {
  const schema = { body: authenticatedRequestSchema, response: { 200: failedResponseSchema } };
  app.post('/export', { schema, config: { access: 'guest-not-facilitator' } }, async (request, reply) => {
    const { guest } = callerOf(request, 'guest-not-facilitator');
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

import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { authenticatedRequestSchema } from '../../../shared/api/envelope.ts';
import { pauseCreateRequestSchema, pauseEndRequestSchema, pauseSchema } from '../../../shared/api/pause.ts';
import { apiPost } from '../../lib/api.ts';
import { createPause, endPause, pausesAhead, toPause } from '../../services/pauses.ts';

/**
 * The pause calls (docs/api.md, Pauses), under /api/pause. Each acts only on
 * the authenticated guest's pauses: another guest's id fails as an unknown
 * id does. Access is `guest`, as for `/reservation/skip`: a pause is a run
 * of skips, and the six-hour rule guards it the same way.
 */
const pause: FastifyPluginAsync = async (app) => {
  apiPost(app, '/create', {
    access: 'guest',
    body: pauseCreateRequestSchema,
    payload: { pause: pauseSchema },
    async handler({ pause: { firstDay, lastDay } }, { guest }) {
      return { pause: toPause(await createPause(app.db, guest, firstDay, lastDay, app.clock.now())) };
    },
  });

  apiPost(app, '/end', {
    access: 'guest',
    body: pauseEndRequestSchema,
    payload: { pause: pauseSchema.nullable() },
    async handler({ pause: { id } }, { guest }) {
      const ended = await endPause(app.db, guest.id, id, app.clock.now());
      return { pause: ended === null ? null : toPause(ended) };
    },
  });

  apiPost(app, '/read_list', {
    access: 'guest',
    body: authenticatedRequestSchema,
    payload: { pauses: z.array(pauseSchema) },
    async handler(_body, { guest }) {
      return { pauses: (await pausesAhead(app.db, guest.id, app.clock.now())).map(toPause) };
    },
  });
};

export default pause;

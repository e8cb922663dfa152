import type { FastifyPluginAsync } from 'fastify';
import { progressRequestSchema, progressSchema } from '../../../shared/api/progress.ts';
import { apiPost } from '../../lib/api.ts';
import { readProgress } from '../../services/progress.ts';
import { guestTimeZone } from '../../services/reservations.ts';

/** `/api/progress/read` (docs/progress.md): the guest's figures, computed in one SQL statement. */
const progress: FastifyPluginAsync = async (app) => {
  apiPost(app, '/read', {
    access: 'guest',
    body: progressRequestSchema,
    payload: { progress: progressSchema },
    async handler(_body, { guest }) {
      return { progress: await readProgress(app.queryNamed, guest.id, guestTimeZone(guest), app.clock.now()) };
    },
  });
};

export default progress;

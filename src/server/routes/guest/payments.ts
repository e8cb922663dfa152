import type { FastifyPluginAsync } from 'fastify';
import { bareRequestSchema } from '../../../shared/api/envelope.ts';
import { ApiFailure, apiPost } from '../../lib/api.ts';

/**
 * `/guest/subscribe`, `/guest/unsubscribe` and `/guest/updateCard` belong to
 * the payments work; until then they answer a clear 'not available yet'.
 */
const payments: FastifyPluginAsync = async (app) => {
  for (const path of ['/subscribe', '/unsubscribe', '/updateCard']) {
    apiPost(app, path, {
      body: bareRequestSchema,
      payload: {},
      async handler() {
        throw new ApiFailure('not_available_yet');
      },
    });
  }
};

export default payments;

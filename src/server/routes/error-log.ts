import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { apiRequestSchema, idSchema, tokenSchema } from '../../shared/api/envelope.ts';
import { errorLogs } from '../db/schema/index.ts';
import { ApiFailure, apiPost, clientAddress } from '../lib/api.ts';
import { maskTokens } from '../lib/log-privacy.ts';
import { RATE_RULES } from '../lib/rate-limiter.ts';

/** The longest error report kept, in characters. */
export const ERROR_LOG_MAX_LENGTH = 10_000;

const errorLogTextSchema = z.string().min(1).max(ERROR_LOG_MAX_LENGTH);

/**
 * `errorLog` is the text, or an object with the text in `text`. The guest
 * block is optional: a signed-out client reports too.
 */
export const errorLogCreateRequestSchema = z.object({
  api: apiRequestSchema,
  guest: z.object({ id: idSchema.nullish(), token: tokenSchema.nullish() }).nullish(),
  errorLog: z.union([errorLogTextSchema, z.object({ text: errorLogTextSchema }).transform(({ text }) => text)]),
});

/** `/errorLog/create`: keeps a client error report, with its guest when the credentials hold. */
const errorLog: FastifyPluginAsync = async (app) => {
  apiPost(app, '/create', {
    access: 'public',
    body: errorLogCreateRequestSchema,
    payload: {},
    async handler({ guest: credentials, errorLog: text }, _caller, request) {
      await app.rateLimiter.enforce(`error-log:address:${clientAddress(request)}`, RATE_RULES.errorLogsPerAddress);
      let guestId: number | null = null;
      if (credentials?.id != null && credentials.token != null) {
        guestId = await app
          .authenticatedGuest({ id: credentials.id, token: credentials.token })
          .then((guest) => guest.id)
          .catch((error: unknown) => {
            if (error instanceof ApiFailure) return null;
            throw error;
          });
      }
      // A report names the page it came from, which may be a link with a token.
      await app.db.insert(errorLogs).values({ guestId, text: maskTokens(text), createdAt: app.clock.now() });
      return {};
    },
  });
};

export default errorLog;

import type { FastifyPluginAsync } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

/** Up to ten years either way. */
const MAX_OFFSET_MS = 10 * 366 * 24 * 60 * 60 * 1000;

const clockRequestSchema = z.object({ offsetMs: z.number().int().min(-MAX_OFFSET_MS).max(MAX_OFFSET_MS) });
const clockResponseSchema = z.object({ offsetMs: z.number(), now: z.number() });

const outboxResponseSchema = z.object({
  messages: z.array(
    z.object({
      channel: z.enum(['email', 'sms']),
      to: z.string(),
      subject: z.string(),
      text: z.string(),
      createdAt: z.number(),
    }),
  ),
});

/**
 * Development routes, registered only outside production:
 * `GET /dev/outbox` lists the e-mail and SMS sent, oldest first;
 * `GET /dev/clock` and `POST /dev/clock {offsetMs}` read and set how far the
 * server's clock runs ahead of (or behind) real time.
 */
const dev: FastifyPluginAsync = async (app) => {
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.get('/outbox', { schema: { response: { 200: outboxResponseSchema } } }, async () => ({
    messages: [...app.outbox.messages()],
  }));

  const clockNow = () => ({ offsetMs: app.clock.offsetMs, now: app.clock.now() });

  app.get('/clock', { schema: { response: { 200: clockResponseSchema } } }, async () => clockNow());

  app.post(
    '/clock',
    { schema: { body: clockRequestSchema, response: { 200: clockResponseSchema } } },
    async (request) => {
      app.clock.offsetMs = clockRequestSchema.parse(request.body).offsetMs;
      // Cached answers hold for a time window; moving time drops them all.
      await app.invalidateReadCache('*');
      return clockNow();
    },
  );
};

export default dev;

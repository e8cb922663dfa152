import { eq } from 'drizzle-orm';
import type { FastifyError, FastifyPluginAsync, FastifyReply } from 'fastify';
import { webhookReservationRequestSchema, WEBHOOK_TOKEN_INVALID, type WebhookAnswer } from '../../../shared/api/hooks.ts';
import { DEFAULT_DAILY_REPEAT_WEEKDAYS } from '../../../shared/constants.ts';
import { isMessageKey, message } from '../../../shared/messages.ts';
import { defaultStartTime, type BookingRequest } from '../../../shared/reservations.ts';
import { fromLocal } from '../../../shared/time-zone.ts';
import { guests } from '../../db/schema/index.ts';
import { ApiFailure, clientAddress } from '../../lib/api.ts';
import type { RateRule } from '../../lib/rate-limiter.ts';
import { hashToken } from '../../lib/secrets.ts';
import { bookReservation, guestTimeZone } from '../../services/reservations.ts';

const MINUTE = 60_000;
/** Calls from one address, whatever the token: a guesser of tokens is slowed down before any lookup. */
export const WEBHOOK_CALLS_PER_ADDRESS = { limit: 60, windowMs: 10 * MINUTE } as const satisfies RateRule;
/** Calls with one token: far more than any automation books. */
export const WEBHOOK_CALLS_PER_TOKEN = { limit: 30, windowMs: 10 * MINUTE } as const satisfies RateRule;
/** A token is 43 characters; anything much longer is no token. */
const TOKEN_MAX_LENGTH = 200;

const HTTP_UNAUTHORIZED = 401;
const HTTP_UNPROCESSABLE = 422;
const HTTP_TOO_MANY = 429;

function failed(reply: FastifyReply, statusCode: number, error: string): WebhookAnswer {
  void reply.code(statusCode);
  return { status: 'failed', error };
}

/**
 * `POST /hooks/reservation/:webhookToken` (docs/webhook.md): another
 * program books a jail for the guest whose token it holds, under every rule
 * of `/api/reservation/create`. It answers `{status, error}` with an HTTP
 * status that says what happened: 200, 401 (token), 422 (a rule), 429.
 */
const hooks: FastifyPluginAsync = async (app) => {
  // A body that is not JSON, or too large, answers in this shape too (English: the guest is not known yet).
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const statusCode = error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    if (statusCode === 500) {
      request.log.error({ err: error }, 'webhook failed');
      return reply.code(500).send({ status: 'failed', error: message('en', 'server_error') });
    }
    const key = statusCode === 413 ? 'request_too_large' : 'unreadable_request';
    return reply.code(statusCode).send({ status: 'failed', error: message('en', key) });
  });

  // A wildcard rather than `:webhookToken`: the router refuses a long
  // parameter with its own 414, and a wrong token of any length must get
  // the same answer as any other wrong token.
  app.post<{ Params: { '*': string } }>('/reservation/*', async (request, reply): Promise<WebhookAnswer> => {
    if (!(await app.rateLimiter.hit(`webhook-address:${clientAddress(request)}`, WEBHOOK_CALLS_PER_ADDRESS))) {
      return failed(reply, HTTP_TOO_MANY, message('en', 'too_many_requests'));
    }
    const token = request.params['*'];
    const tokenHash = hashToken(token);
    const [guest] = token.length > TOKEN_MAX_LENGTH ? [] : await app.db.select().from(guests).where(eq(guests.webhookToken, tokenHash));
    if (guest === undefined || !guest.webhookEnabled) return failed(reply, HTTP_UNAUTHORIZED, WEBHOOK_TOKEN_INVALID);
    const language = guest.language;
    if (!(await app.rateLimiter.hit(`webhook-token:${tokenHash}`, WEBHOOK_CALLS_PER_TOKEN))) {
      return failed(reply, HTTP_TOO_MANY, message(language, 'too_many_requests'));
    }

    const parsed = webhookReservationRequestSchema.safeParse(request.body);
    if (!parsed.success) {
      const key = parsed.error.issues.map((issue) => issue.message).find(isMessageKey) ?? 'webhook_body_invalid';
      return failed(reply, HTTP_UNPROCESSABLE, message(language, key));
    }
    const { start, duration, repeatType, work } = parsed.data;
    const now = app.clock.now();
    const timeZone = guestTimeZone(guest);
    // Without a date and time the jail starts at the next quarter hour: its
    // entry opens 15 minutes before the start, so it can be entered at once,
    // and every rule of a booking (the 15-minute step included) holds.
    const startTime = start === null ? defaultStartTime(now, timeZone) : fromLocal(start.date, start.minutes, timeZone);
    const form: BookingRequest = {
      work,
      duration: duration / 60,
      startTime,
      repeatType,
      dailyRepeatSettings: DEFAULT_DAILY_REPEAT_WEEKDAYS,
      schedules: [],
    };
    try {
      const created = await bookReservation(app.db, guest, form, now, language);
      await app.invalidateReadCache(guest.id);
      return { status: 'success', error: null, reservationId: created.id };
    } catch (error) {
      if (!(error instanceof ApiFailure)) throw error;
      return failed(reply, HTTP_UNPROCESSABLE, message(language, error.key, error.params));
    }
  });
};

export default hooks;

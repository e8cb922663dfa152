import type { FastifyPluginAsync } from 'fastify';
import { appUrl } from '../../config.ts';
import { clientAddress } from '../../lib/api.ts';
import type { RateRule } from '../../lib/rate-limiter.ts';
import { guestCalendar, guestOfCalendarToken } from '../../services/calendar-feed.ts';

const MINUTE = 60_000;
/** Reads from one address, whatever the token: calendars poll every few hours, a guesser of tokens far more. */
export const CALENDAR_READS_PER_ADDRESS = { limit: 60, windowMs: 10 * MINUTE } as const satisfies RateRule;
/** A token is 43 characters; anything much longer is no token. */
const TOKEN_MAX_LENGTH = 200;

/**
 * `GET /calendar/:token.ics` (docs/calendar.md): the guest's jails as an
 * iCalendar feed that calendar apps subscribe to. The secret address is the
 * only credential; a wrong or withdrawn one answers 404, as any unknown path.
 */
const calendar: FastifyPluginAsync = async (app) => {
  // A wildcard: a long parameter would get the router's own 414, and a wrong token of any length the same answer.
  app.get<{ Params: { '*': string } }>('/*', async (request, reply) => {
    if (!(await app.rateLimiter.hit(`calendar-address:${clientAddress(request)}`, CALENDAR_READS_PER_ADDRESS))) {
      return reply.code(429).type('text/plain; charset=utf-8').send('Too many requests');
    }
    const path = request.params['*'];
    const token = path.endsWith('.ics') ? path.slice(0, -'.ics'.length) : '';
    const guest = token === '' || token.length > TOKEN_MAX_LENGTH ? null : await guestOfCalendarToken(app.db, token);
    if (guest === null) return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
    const text = await guestCalendar(app.db, guest, appUrl(app.config), app.clock.now());
    return (
      reply
        .type('text/calendar; charset=utf-8')
        .header('content-disposition', 'inline; filename="warden.ics"')
        // Private to the one who holds the address; a calendar reads it again within minutes.
        .header('cache-control', 'private, max-age=300')
        .send(text)
    );
  });
};

export default calendar;

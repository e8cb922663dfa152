import type { FastifyRequest, FastifyInstance } from 'fastify';
import fastifyPlugin from 'fastify-plugin';

/**
 * The guest calls that write nothing the read cache holds (sessions, guest
 * rows, reservations and their logs): every other call a guest's session
 * makes invalidates that guest's cached reads when it succeeds. Add a call
 * here only when it writes none of those; a read that may write
 * (reservation/read rolls occurrences forward) is safe only because no
 * cached answer outlives the end of an occurrence (see
 * `reservationListForCache`).
 */
export const CACHE_NEUTRAL_CALLS: ReadonlySet<string> = new Set([
  '/api/guest/read',
  '/api/reservation/read',
  '/api/reservation/read_list',
  '/api/pause/read_list',
  '/api/progress/read',
  // Reads, and writes of what the cache does not hold (forum messages, approved scenes' list, card tokens).
  '/api/forum/read',
  '/api/forum/create',
  '/api/featureImage/read',
  '/api/guest/triggerDeliveries',
  '/api/guest/readReminders',
  // Push devices are not held in the cache.
  '/api/guest/addPushDevice',
  '/api/guest/removePushDevice',
  '/api/payments/subscription',
  '/api/payments/local/token',
]);

/**
 * What a call that succeeded must drop from the read cache: the cached
 * reads of the guest whose session it authenticated (plugins/access.ts),
 * unless it is a pure read; null for nothing. A call without a guest's
 * session (sign-up, sign-in, a mailed link, a console's call) drops nothing
 * here: one that writes a guest by other proof (a mailed or a
 * facilitator's token) drops that guest itself, after the write.
 */
function invalidationOf(request: FastifyRequest): number | null {
  if (CACHE_NEUTRAL_CALLS.has(request.routeOptions.url ?? '')) return null;
  const caller = request.callers?.guest ?? request.callers?.['guest-not-facilitator'];
  return caller?.guest.id ?? null;
}

/** Whether an answer is the success envelope `{api: {status: 'success'}}`. */
function isSuccess(payload: unknown): boolean {
  if (typeof payload !== 'object' || payload === null || !('api' in payload)) return false;
  const { api } = payload;
  return typeof api === 'object' && api !== null && 'status' in api && api.status === 'success';
}

/**
 * In the `/api` context: a call that succeeded drops the cached reads of
 * the guest whose session made it (`invalidationOf`), here and, on
 * PostgreSQL, on every server, before its answer leaves (so a caller that
 * has the answer never reads the state the call replaced). A call that
 * failed, a malformed one, or one nobody authenticated drops nothing: the
 * cache is never emptied by whoever can send a request. See
 * docs/server.md, "The read cache".
 */
async function readCacheHooksPlugin(app: FastifyInstance): Promise<void> {
  /** The guest each successful write dropped, to drop again once its answer has gone. */
  const dropped = new WeakMap<FastifyRequest, number>();
  const invalidate = async (request: FastifyRequest, guestId: number): Promise<void> => {
    try {
      await app.invalidateReadCache(guestId);
    } catch (error) {
      request.log.error({ err: error }, 'read cache: the invalidation could not be sent to other servers');
    }
  };
  app.addHook('preSerialization', async (request, _reply, payload) => {
    const target = isSuccess(payload) ? invalidationOf(request) : null;
    if (target !== null) {
      dropped.set(request, target);
      await invalidate(request, target);
    }
    return payload;
  });
  // Again once the answer has gone: a write still running when the answer
  // was sent (none should be) is covered too.
  app.addHook('onResponse', async (request) => {
    const target = dropped.get(request);
    if (target !== undefined) await invalidate(request, target);
  });
}

export default fastifyPlugin(readCacheHooksPlugin, { name: 'read-cache-hooks' });

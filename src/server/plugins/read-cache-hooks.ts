import type { FastifyRequest } from 'fastify';
import { CLEAR_ALL } from '../lib/read-cache-channel.ts';
import { unencapsulated } from './unencapsulated.ts';

/**
 * The calls that write nothing the read cache holds (sessions, guest rows,
 * reservations and their logs): every other call in the `/api` context
 * invalidates. Add a call here only when it writes none of those; a read
 * that may write (reservation/read rolls occurrences forward) is safe only
 * because no cached answer outlives the end of an occurrence (see
 * `reservationListForCache`).
 */
export const CACHE_NEUTRAL_CALLS: ReadonlySet<string> = new Set([
  '/api/guest/read',
  '/api/reservation/read',
  '/api/reservation/read_list',
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
  '/api/payments/config',
  '/api/payments/subscription',
  '/api/payments/local/token',
  // Wardens' console sessions are not guest sessions: the cache never holds them.
  '/api/warden/authenticate',
  '/api/warden/read',
  '/api/warden/logout',
  '/api/warden/confirmCode',
  '/api/warden/updatePassword',
]);

/**
 * Calls without a `guest.id` whose writes touch nothing cached: a new
 * guest has no entry yet; a new session does not change the others; a
 * mailed link or an error report changes no guest. Every other call without
 * a `guest.id` (a mailed token names the guest: verifyEmail, updatePassword)
 * clears the whole cache.
 */
export const NEW_ROWS_ONLY_CALLS: ReadonlySet<string> = new Set([
  '/api/guest/create',
  '/api/guest/authenticate',
  '/api/guest/updatePasswordEmail',
  '/api/errorLog/create',
]);

const DIGITS = /^[1-9][0-9]{0,15}$/;

/** `guest.id` of a body as sent or as validated (a number or a digit string), else null. */
export function guestIdOf(body: unknown): number | null {
  if (typeof body !== 'object' || body === null || !('guest' in body)) return null;
  const guest = body.guest;
  if (typeof guest !== 'object' || guest === null || !('id' in guest)) return null;
  const id = guest.id;
  const text = typeof id === 'number' ? String(id) : typeof id === 'string' ? id : '';
  if (!DIGITS.test(text)) return null;
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : null;
}

/** What a finished call must drop from the read cache: a guest, everything, or nothing. */
export function invalidationOf(request: FastifyRequest): number | typeof CLEAR_ALL | null {
  const path = request.routeOptions.url ?? request.url.split('?', 1)[0] ?? '';
  if (CACHE_NEUTRAL_CALLS.has(path)) return null;
  const guestId = guestIdOf(request.body);
  if (guestId !== null) return guestId;
  if (NEW_ROWS_ONLY_CALLS.has(path)) return null;
  return CLEAR_ALL;
}

/**
 * In the `/api` context: every call that is not a pure read invalidates the
 * cached reads of the guest its body names (`guest.id`), whether it
 * succeeded or failed, before its answer leaves (so a caller that has the
 * answer never reads the state the call replaced); a call that names no
 * guest clears everything. See docs/server.md, "The read cache".
 */
export default unencapsulated('read-cache-hooks', async (app) => {
  const invalidate = async (request: FastifyRequest): Promise<void> => {
    const target = invalidationOf(request);
    if (target === null) return;
    try {
      await app.invalidateReadCache(target);
    } catch (error) {
      request.log.error({ err: error }, 'read cache: the invalidation could not be sent to other servers');
    }
  };
  app.addHook('onSend', async (request) => {
    await invalidate(request);
  });
  // Again once the answer has gone: a write still running when the answer
  // was sent (none should be) is covered too.
  app.addHook('onResponse', async (request) => {
    await invalidate(request);
  });
});

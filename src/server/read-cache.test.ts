import { describe, expect, it, vi } from 'vitest';
import type { Reservation } from '../shared/api/reservation.ts';
import { buildApp } from './app.ts';
import { runAdmin } from './admin.ts';
import { CACHE_NEUTRAL_CALLS } from './plugins/read-cache-hooks.ts';
import { apiBlock, call, credentials, fail, linkTokenMailedTo, readyGuest, signUp, succeed, useTestServer, type TestGuest } from './test/harness.ts';
import { apiPostRoutes } from './test/routes.ts';

/**
 * The read cache (lib/read-cache.ts): a hit does no database query, and no
 * write, clock move or other server ever leaves a stale answer behind.
 */

const server = useTestServer();

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const AUTH_FAILED = 'You are signed out. Please sign in again.';

function body(guest: TestGuest, extra: object = {}) {
  return { api: apiBlock(), guest: credentials(guest), ...extra };
}

async function list(guest: TestGuest): Promise<Reservation[]> {
  return (await succeed(server.app, '/reservation/read_list', body(guest))).reservations as Reservation[];
}

/** Counts what the cache answered while `action` ran. */
async function hitsDuring(action: () => Promise<unknown>): Promise<{ session: number; list: number }> {
  const before = { ...server.app.readCache.stats };
  await action();
  const after = server.app.readCache.stats;
  return { session: after.sessionHits - before.sessionHits, list: after.listHits - before.listHits };
}

/** A booking two days ahead, on the hour (always more than 6 hours away). */
function booking(hoursAhead = 48) {
  const startTime = Math.ceil((server.clock.now() + hoursAhead * HOUR) / HOUR) * HOUR;
  return { work: 'Cached work', duration: 1, startTime, repeatType: 'none', dailyRepeatSettings: [0, 1, 2, 3, 4, 5, 6], schedules: [] };
}

describe('the read cache', () => {
  it('answers a repeated read_list from memory with the same body, and guest/read reuses the session', async () => {
    const guest = await readyGuest(server.app);
    await succeed(server.app, '/reservation/create', body(guest, { reservation: booking() }));
    const first = await call(server.app, '/reservation/read_list', body(guest));
    let second = first;
    expect(await hitsDuring(async () => (second = await call(server.app, '/reservation/read_list', body(guest))))).toEqual({ session: 1, list: 1 });
    expect(second.body).toEqual(first.body);
    expect(second.body.reservations).toHaveLength(1);
    expect(await hitsDuring(() => succeed(server.app, '/guest/read', body(guest)))).toEqual({ session: 1, list: 0 });
  });

  it('never serves a logged-out token', async () => {
    const guest = await readyGuest(server.app);
    await list(guest);
    await list(guest);
    await succeed(server.app, '/guest/logout', body(guest));
    expect(await fail(server.app, '/reservation/read_list', body(guest))).toBe(AUTH_FAILED);
    expect(await fail(server.app, '/guest/read', body(guest))).toBe(AUTH_FAILED);
  });

  it('never serves the old session after a password reset (a call that names the guest by a mailed token)', async () => {
    const guest = await signUp(server.app);
    await list(guest);
    await succeed(server.app, '/guest/updatePasswordEmail', { api: apiBlock(), guest: { email: guest.email } });
    const token = await linkTokenMailedTo(server.app, guest.email, 'updatePassword');
    await succeed(server.app, '/guest/updatePassword', { api: apiBlock(), guest: { token, password: 'a-new-password-1' } });
    expect(await fail(server.app, '/reservation/read_list', body(guest))).toBe(AUTH_FAILED);
  });

  it('serves the changed guest after an update and after verifying the e-mail address', async () => {
    const guest = await signUp(server.app);
    const read = async () => (await succeed(server.app, '/guest/read', body(guest))).guest as { language: string; isVerified: boolean };
    expect(await read()).toMatchObject({ language: 'en', isVerified: false });
    await succeed(server.app, '/guest/update', body(guest, { guest: { ...credentials(guest), language: 'ja' } }));
    expect(await read()).toMatchObject({ language: 'ja' });
    const token = await linkTokenMailedTo(server.app, guest.email, 'verifyEmail');
    await succeed(server.app, '/guest/verifyEmail', { api: apiBlock(), guest: { token } });
    expect(await read()).toMatchObject({ isVerified: true });
  });

  it('serves the changed list after create, update, skip and destroy, and keeps it when a write fails (nothing changed)', async () => {
    const guest = await readyGuest(server.app);
    expect(await list(guest)).toEqual([]);
    const created = (await succeed(server.app, '/reservation/create', body(guest, { reservation: booking() }))).reservation as Reservation;
    expect((await list(guest)).map((item) => item.id)).toEqual([created.id]);
    await succeed(server.app, '/reservation/update', body(guest, { reservation: { id: created.id, work: 'Renamed' } }));
    expect((await list(guest)).map((item) => item.work)).toEqual(['Renamed']);
    const repeating = (await succeed(server.app, '/reservation/create', body(guest, { reservation: { ...booking(96), repeatType: 'daily' } })))
      .reservation as Reservation;
    expect(await list(guest)).toHaveLength(2);
    await succeed(server.app, '/reservation/skip', body(guest, { reservation: { id: repeating.id } }));
    expect((await list(guest)).map((item) => item.status)).toEqual(['upcoming', 'skipped', 'upcoming']);
    await succeed(server.app, '/reservation/destroy', body(guest, { reservation: { id: created.id } }));
    expect(await list(guest)).toHaveLength(2);

    const before = server.app.readCache.stats.invalidations;
    await fail(server.app, '/reservation/destroy', body(guest, { reservation: { id: 999_999_999 } }));
    expect(server.app.readCache.stats.invalidations).toBe(before);
    expect(await hitsDuring(() => list(guest))).toMatchObject({ list: 1 });
  });

  it('drops nothing for a call nobody authenticated, a malformed one, or one that failed; other guests keep theirs after a write', async () => {
    const guest = await readyGuest(server.app);
    const other = await readyGuest(server.app);
    await list(guest);
    await list(other);
    const before = { ...server.app.readCache.stats };
    const junk = [
      // Malformed: no guest, a guest id but no token, the wrong types.
      ['/reservation/destroy', {}],
      ['/reservation/destroy', { api: apiBlock(), guest: { id: guest.id } }],
      ['/guest/update', { api: apiBlock(), guest: { id: String(guest.id), token: 42 } }],
      // Well formed, but not this guest's session.
      ['/reservation/destroy', { api: apiBlock(), guest: { id: guest.id, token: 'not-the-token' }, reservation: { id: 1 } }],
      ['/guest/logout', { api: apiBlock(), guest: { id: guest.id, token: other.token } }],
      // Public calls that fail, or write nothing a guest has cached.
      ['/guest/verifyEmail', { api: apiBlock(), guest: { token: 'no-such-link' } }],
      ['/guest/updatePassword', { api: apiBlock(), guest: { token: 'no-such-link', password: 'a-new-password-1' } }],
      ['/guest/authenticate', { api: apiBlock(), guest: { title: guest.title, password: 'wrong' } }],
      ['/errorLog/create', { api: apiBlock(), errorLog: 'a report' }],
      ['/nothing/here', { api: apiBlock(), guest: credentials(guest) }],
    ] as const;
    for (const [path, sent] of junk) await call(server.app, path, sent, { remoteAddress: '10.44.0.1' });
    expect(server.app.readCache.stats).toMatchObject({ invalidations: before.invalidations, clears: before.clears });
    expect(await hitsDuring(() => list(guest))).toEqual({ session: 1, list: 1 });
    // A write drops only its own guest.
    await succeed(server.app, '/guest/update', body(other, { guest: { ...credentials(other), language: 'ja' } }));
    expect(server.app.readCache.stats.invalidations).toBeGreaterThan(before.invalidations);
    expect(await hitsDuring(() => list(guest))).toEqual({ session: 1, list: 1 });
    expect(await hitsDuring(() => list(other))).toMatchObject({ list: 0 });
  });

  it("serves the guest as a facilitator's sign-in left it (a write by the facilitator's token)", async () => {
    const guest = await signUp(server.app);
    const read = async () => (await succeed(server.app, '/guest/read', body(guest))).guest as { facilitatorSignedInAt: number | null };
    expect((await read()).facilitatorSignedInAt).toBeNull();
    const email = `cache-warden-${guest.id}@example.com`;
    await runAdmin(['create-warden', '--title', `Cache Warden ${guest.id}`, '--email', email], server.app.db, server.clock, server.app.config);
    const [, token] = await runAdmin(['facilitator-token', '--warden', email, '--guest', String(guest.id)], server.app.db, server.clock, server.app.config);
    await succeed(server.app, '/guest/authenticateAsLimFacilitator', { api: apiBlock(), guest: { id: guest.id }, facilitator: { token } });
    expect((await read()).facilitatorSignedInAt).toEqual(expect.any(Number));
  });

  it('follows the clock: statuses change at the jail entry and the end, and a list read before a move back is not served', async () => {
    const guest = await readyGuest(server.app);
    const created = (await succeed(server.app, '/reservation/create', body(guest, { reservation: booking() }))).reservation as Reservation;
    const start = created.startTime;
    const statusAt = async (instant: number) => {
      // The clock is moved directly, not through POST /dev/clock: the cache must notice by itself.
      server.clock.offsetMs = instant - Date.now();
      return (await list(guest)).map((item) => item.status);
    };
    expect(await statusAt(start - 20 * MINUTE)).toEqual(['upcoming']);
    expect(await hitsDuring(() => list(guest))).toMatchObject({ list: 1 });
    expect(await statusAt(start - 14 * MINUTE)).toEqual(['ready']);
    expect(await statusAt(start + 61 * MINUTE)).toEqual(['finished']);
    expect(await statusAt(start - 20 * MINUTE)).toEqual(['finished']);
  });

  it('drops everything when POST /dev/clock moves time', async () => {
    const guest = await readyGuest(server.app);
    await list(guest);
    const response = await server.app.inject({ method: 'POST', url: '/dev/clock', payload: { offsetMs: server.clock.offsetMs } });
    expect(response.statusCode).toBe(200);
    expect(await hitsDuring(() => list(guest))).toEqual({ session: 0, list: 0 });
  });

  it('does not cache the answer of a read that rolled occurrences forward', async () => {
    const guest = await readyGuest(server.app);
    const created = (await succeed(server.app, '/reservation/create', body(guest, { reservation: { ...booking(), repeatType: 'daily' } })))
      .reservation as Reservation;
    server.clock.offsetMs = created.endTime + 10 * MINUTE - Date.now();
    expect((await list(guest)).map((item) => item.status)).toEqual(['finished', 'upcoming']);
    expect(await hitsDuring(() => list(guest))).toMatchObject({ list: 0 });
    expect(await hitsDuring(() => list(guest))).toMatchObject({ list: 1 });
  });

  it('knows every API call: the pure reads are real routes', () => {
    const routes = apiPostRoutes(server.app);
    for (const path of CACHE_NEUTRAL_CALLS) expect(routes).toContain(path);
  });
});

const postgresUrl = process.env.WARDEN_TEST_DATABASE_URL;

describe.runIf(postgresUrl !== undefined && postgresUrl !== '')('the read cache across servers on one PostgreSQL database', () => {
  it('a logout through one server is refused by the other as soon as its notification arrives', async () => {
    const other = await buildApp(server.app.config, { logger: false });
    try {
      await other.ready();
      const listener = other.readCacheListener;
      if (listener === null) throw new Error('no LISTEN connection on PostgreSQL');
      const guest = await readyGuest(server.app);
      const readThroughOther = () =>
        other
          .inject({ method: 'POST', url: '/api/reservation/read_list', payload: body(guest) })
          .then((response) => response.json<{ api: { status: string } }>());
      // The sign-up's own notifications may still arrive and empty the cache: read until a read is served from it.
      await vi.waitFor(
        async () => {
          expect((await readThroughOther()).api.status).toBe('success');
          expect(other.readCache.stats.listHits).toBeGreaterThan(0);
        },
        { timeout: 10_000, interval: 100 },
      );

      const notified = listener.nextNotification();
      await succeed(server.app, '/guest/logout', body(guest));
      expect(await notified).toBe(String(guest.id));
      expect(await readThroughOther()).toMatchObject({ api: { status: 'failed', errorMessage: AUTH_FAILED } });
    } finally {
      await other.close();
    }
  });
});

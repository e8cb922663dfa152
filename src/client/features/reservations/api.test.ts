import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Reservation } from '../../../shared/api/reservation.ts';
import { logout } from '../../app/session.ts';
import { authRestored } from '../../app/slices/session.ts';
import { makeStore } from '../../app/store.ts';
import { fakeServer, settle } from '../../test/fake-server.ts';
import { reservationApi } from './api.ts';
import { bookingApi } from './bookingApi.ts';

/**
 * The data rules on the reservation list (docs/client.md, State), which is the
 * `reservationReadList` cache entry: a real store against a fake server.
 * Every write also invalidates the list, so the server's re-read is held
 * until the test has looked at what the write's own answer did.
 */

const LIST = '/reservation/read_list';

const reservation = (id: number, changes: Partial<Reservation> = {}): Reservation => ({
  id,
  work: `work ${id}`,
  startTime: id * 1000,
  endTime: id * 1000 + 3_600_000,
  duration: 1,
  isFinished: false,
  repeatType: 'none',
  dailyRepeatSettings: [0, 1, 2, 3, 4, 5, 6],
  schedules: [],
  activityLogs: [],
  logsPending: false,
  jail: null,
  status: 'upcoming',
  pausedUntil: null,
  ...changes,
});

afterEach(() => vi.unstubAllGlobals());

/** A signed-in store whose screen reads the list (subscribed, as a screen is), the server answering `first`. */
async function listOnScreen(first: Reservation[]) {
  const server = fakeServer();
  server.hold(LIST);
  const store = makeStore();
  store.dispatch(authRestored({ id: 1, token: 'tok' }));
  const screen = store.dispatch(reservationApi.endpoints.reservationReadList.initiate());
  await vi.waitFor(() => expect(server.waitingOn(LIST)).toBe(1));
  server.release(LIST, { reservations: first });
  await screen;
  const ids = () =>
    reservationApi.endpoints.reservationReadList
      .select()(store.getState())
      .data?.reservations.map((item) => item.id);
  const list = () => reservationApi.endpoints.reservationReadList.select()(store.getState()).data?.reservations ?? [];
  /** The write invalidated the list: it is read again, and the server's answer replaces it. */
  const reread = async (reservations: Reservation[]) => {
    await vi.waitFor(() => expect(server.waitingOn(LIST)).toBe(1));
    server.release(LIST, { reservations });
    await vi.waitFor(() => expect(ids()).toEqual(reservations.map((item) => item.id)));
  };
  return { server, store, screen, ids, list, reread };
}

describe('the reservation list in the API cache', () => {
  it('read list replaces the list', async () => {
    const { ids, reread, store } = await listOnScreen([reservation(1), reservation(2)]);
    expect(ids()).toEqual([1, 2]);
    store.dispatch(reservationApi.util.invalidateTags(['Reservation']));
    await reread([reservation(3)]);
  });

  it('create appends', async () => {
    const { server, store, ids, reread } = await listOnScreen([reservation(1)]);
    server.answer('/reservation/create', { reservation: reservation(2) });
    await store.dispatch(bookingApi.endpoints.reservationCreate.initiate({ work: 'w', startTime: 2000, duration: 1, repeatType: 'none' }));
    await settle();
    expect(ids()).toEqual([1, 2]);
    await reread([reservation(1), reservation(2)]);
  });

  for (const endpoint of ['reservationRead', 'reservationUpdate'] as const) {
    it(`${endpoint} replaces by id or adds`, async () => {
      const { server, store, ids, list } = await listOnScreen([reservation(1), reservation(2)]);
      const path = endpoint === 'reservationRead' ? '/reservation/read' : '/reservation/update';
      server.answer(path, { reservation: reservation(2, { work: 'changed' }) });
      await store.dispatch(bookingApi.endpoints[endpoint].initiate({ id: 2 }));
      await settle();
      expect(ids()).toEqual([1, 2]);
      expect(list()[1]?.work).toBe('changed');
      server.answer(path, { reservation: reservation(5) });
      await store.dispatch(bookingApi.endpoints[endpoint].initiate({ id: 5 }));
      await settle();
      expect(ids()).toEqual([1, 2, 5]);
    });
  }

  it('skip replaces the skipped one and adds the next', async () => {
    const { server, store, ids, list } = await listOnScreen([reservation(1)]);
    server.answer('/reservation/skip', { reservation: reservation(1, { isFinished: true, status: 'skipped' }), nextReservation: reservation(2) });
    await store.dispatch(bookingApi.endpoints.reservationSkip.initiate({ id: 1 }));
    await settle();
    expect(ids()).toEqual([1, 2]);
    expect(list()[0]?.status).toBe('skipped');
  });

  it('destroy removes', async () => {
    const { server, store, ids, reread } = await listOnScreen([reservation(1), reservation(2)]);
    server.answer('/reservation/destroy', { reservation: reservation(1) });
    await store.dispatch(bookingApi.endpoints.reservationDestroy.initiate({ id: 1 }));
    await settle();
    expect(ids()).toEqual([2]);
    await reread([reservation(2)]);
  });

  it('a failed write leaves the list as it is', async () => {
    const { store, ids } = await listOnScreen([reservation(1)]);
    vi.stubGlobal('fetch', async () => new Response(JSON.stringify({ api: { status: 'failed', errorMessage: 'No.' } }), { status: 200 }));
    await store.dispatch(bookingApi.endpoints.reservationDestroy.initiate({ id: 1 }));
    await settle();
    expect(ids()).toEqual([1]);
    expect(store.getState().network.errorMessage).toBe('No.');
  });

  it('empties at logout', async () => {
    const { store, ids, screen } = await listOnScreen([reservation(1)]);
    logout(store);
    screen.unsubscribe();
    expect(ids()).toBeUndefined();
  });
});

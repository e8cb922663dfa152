import { describe, expect, it } from 'vitest';
import type { LiveJail } from '../../shared/relay.ts';
import {
  compareLiveJails,
  earlierLogsReceived,
  seatOf,
  jailClosed,
  jailLogReceived,
  jailOpened,
  jailOpening,
  liveJailsReceived,
  liveJailUpdated,
  sceneApproved,
  selectOpenLiveJail,
  selectSortedLiveJails,
  type JailLog,
} from './consoleSlice.ts';
import { initialSessionState, signedIn, signedOut } from './sessionSlice.ts';
import { makeConsoleStore } from './store.ts';

const START = Date.UTC(2030, 0, 10, 1, 0);

function liveJail(reservationId: number, overrides: Partial<LiveJail> = {}): LiveJail {
  return {
    reservationId,
    guest: { id: reservationId * 10, title: `guest ${reservationId}` },
    work: 'Write the report',
    startTime: START,
    endTime: START + 3_600_000,
    jailStatus: 'injail',
    statusSince: START,
    connected: true,
    enteredAt: START,
    latestPatrol: null,
    awaySince: null,
    alerts: [],
    commands: [1, 2, 3, 4],
    warden: null,
    ...overrides,
  };
}

function dialogLog(id: number, time: number, text = `line ${id}`): JailLog {
  return { id, type: 'dialog', time, dialog: { type: 0, text } };
}

describe('the live list', () => {
  it('replaces the list on every update, and knows how far the server clock is ahead', () => {
    const store = makeConsoleStore();
    store.dispatch(liveJailsReceived({ jails: [liveJail(1), liveJail(2)], serverTime: START, receivedAt: START - 60_000 }));
    expect(store.getState().console.liveJails.map((jail) => jail.reservationId)).toEqual([1, 2]);
    expect(store.getState().console.serverAheadMs).toBe(60_000);
    store.dispatch(
      liveJailsReceived({
        jails: [liveJail(2, { jailStatus: 'breaking', statusSince: START + 5_000 })],
        serverTime: START + 6_000,
        receivedAt: START + 10_000,
      }),
    );
    expect(store.getState().console.liveJails).toEqual([liveJail(2, { jailStatus: 'breaking', statusSince: START + 5_000 })]);
    // The browser's clock ahead of the server's.
    expect(store.getState().console.serverAheadMs).toBe(-4_000);
  });

  it('updates one jail in place, or adds it', () => {
    const store = makeConsoleStore();
    store.dispatch(liveJailsReceived({ jails: [liveJail(1), liveJail(2)], serverTime: START, receivedAt: START }));
    store.dispatch(liveJailUpdated({ jail: liveJail(1, { connected: false }), serverTime: START, receivedAt: START }));
    store.dispatch(liveJailUpdated({ jail: liveJail(3), serverTime: START, receivedAt: START - 5_000 }));
    expect(store.getState().console.liveJails.map((jail) => [jail.reservationId, jail.connected])).toEqual([
      [1, false],
      [2, true],
      [3, true],
    ]);
    expect(store.getState().console.serverAheadMs).toBe(5_000);
  });

  it('sorts jails with alerts first: more alerts, then the latest alert, then by start and id', () => {
    const quiet = liveJail(1, { startTime: START + 60_000 });
    const earlier = liveJail(2);
    const oneOld = liveJail(3, { alerts: [{ kind: 'no_motion', time: START + 1_000 }] });
    const oneNew = liveJail(4, { alerts: [{ kind: 'darkness', time: START + 2_000 }] });
    const two = liveJail(5, {
      alerts: [
        { kind: 'nodding', time: START },
        { kind: 'leave_overrun', time: START + 500 },
      ],
    });
    const store = makeConsoleStore();
    store.dispatch(liveJailsReceived({ jails: [quiet, earlier, oneOld, oneNew, two], serverTime: START, receivedAt: START }));
    expect(selectSortedLiveJails(store.getState()).map((jail) => jail.reservationId)).toEqual([5, 4, 3, 2, 1]);
    // The same input keeps the same order and the same array (no re-render).
    expect(selectSortedLiveJails(store.getState())).toBe(selectSortedLiveJails(store.getState()));
    expect(compareLiveJails(liveJail(7), liveJail(8))).toBeLessThan(0);
  });
});

describe("a card's seat", () => {
  it('is the jail status and since when, or away since the away event while the guest is in the jail', () => {
    expect(seatOf(liveJail(1))).toEqual({ state: 'injail', since: START });
    expect(seatOf(liveJail(1, { awaySince: START + 60_000 }))).toEqual({ state: 'away', since: START + 60_000 });
    // A leave or a break given on the device says more than the camera.
    expect(seatOf(liveJail(1, { jailStatus: 'leaving', statusSince: START + 120_000, awaySince: START + 60_000 }))).toEqual({
      state: 'leaving',
      since: START + 120_000,
    });
  });
});

describe('the open jail', () => {
  it('takes the logs of the ack, then appends streamed logs once each, in time order', () => {
    const store = makeConsoleStore();
    store.dispatch(jailOpening(1));
    expect(store.getState().console.openJail).toMatchObject({ reservationId: 1, phase: 'opening', logs: [] });
    store.dispatch(jailOpened({ jail: liveJail(1), logs: [dialogLog(10, START + 2_000), dialogLog(9, START + 1_000)], hasEarlier: false }));
    store.dispatch(jailLogReceived({ reservationId: 1, log: dialogLog(11, START + 3_000) }));
    store.dispatch(jailLogReceived({ reservationId: 1, log: dialogLog(11, START + 3_000) }));
    store.dispatch(jailLogReceived({ reservationId: 1, log: dialogLog(10, START + 2_000) }));
    // After a reconnect the ack repeats logs already shown.
    store.dispatch(jailOpened({ jail: liveJail(1), logs: [dialogLog(9, START + 1_000), dialogLog(12, START + 2_500)], hasEarlier: false }));
    const open = store.getState().console.openJail;
    expect(open?.phase).toBe('open');
    expect(open?.logs.map((log) => log.id)).toEqual([9, 10, 12, 11]);
  });

  it('reads earlier pages on demand, and keeps what it read through a reconnect', () => {
    const store = makeConsoleStore();
    const open = () => store.getState().console.openJail;
    store.dispatch(jailOpening(1));
    store.dispatch(jailOpened({ jail: liveJail(1), logs: [dialogLog(20, START + 20_000), dialogLog(21, START + 21_000)], hasEarlier: true }));
    expect(open()?.hasEarlier).toBe(true);
    store.dispatch(earlierLogsReceived({ reservationId: 1, logs: [dialogLog(18, START + 18_000), dialogLog(19, START + 19_000)], hasEarlier: false }));
    expect([open()?.logs.map((log) => log.id), open()?.hasEarlier]).toEqual([[18, 19, 20, 21], false]);
    // A reconnect's ack whose page reaches back into what is shown: merged, and the first log stays the first.
    store.dispatch(jailOpened({ jail: liveJail(1), logs: [dialogLog(21, START + 21_000), dialogLog(22, START + 22_000)], hasEarlier: true }));
    expect([open()?.logs.map((log) => log.id), open()?.hasEarlier]).toEqual([[18, 19, 20, 21, 22], false]);
    // More than a page came while the console was away: the timeline starts again from the page.
    store.dispatch(jailOpened({ jail: liveJail(1), logs: [dialogLog(40, START + 40_000), dialogLog(41, START + 41_000)], hasEarlier: true }));
    expect([open()?.logs.map((log) => log.id), open()?.hasEarlier]).toEqual([[40, 41], true]);
    // Another jail's page is not this one's.
    store.dispatch(earlierLogsReceived({ reservationId: 2, logs: [dialogLog(1, START)], hasEarlier: false }));
    expect(open()?.logs.map((log) => log.id)).toEqual([40, 41]);
  });

  it('ignores logs and acks of another jail', () => {
    const store = makeConsoleStore();
    store.dispatch(jailLogReceived({ reservationId: 1, log: dialogLog(1, START) }));
    expect(store.getState().console.openJail).toBeNull();
    store.dispatch(jailOpening(2));
    store.dispatch(jailOpened({ jail: liveJail(1), logs: [dialogLog(1, START)], hasEarlier: false }));
    store.dispatch(jailLogReceived({ reservationId: 1, log: dialogLog(2, START) }));
    expect(store.getState().console.openJail).toMatchObject({ reservationId: 2, phase: 'opening', logs: [] });
  });

  it('follows the live list, remembers approved scenes once, and closes', () => {
    const store = makeConsoleStore();
    store.dispatch(jailOpening(1));
    expect(selectOpenLiveJail(store.getState())).toBeNull();
    store.dispatch(liveJailsReceived({ jails: [liveJail(1, { connected: false })], serverTime: START, receivedAt: START }));
    expect(selectOpenLiveJail(store.getState())?.connected).toBe(false);
    store.dispatch(sceneApproved(5));
    store.dispatch(sceneApproved(5));
    expect(store.getState().console.openJail?.approvedPatrolLogIds).toEqual([5]);
    store.dispatch(jailClosed());
    expect(store.getState().console.openJail).toBeNull();
  });

  it('forgets everything at sign-out', () => {
    const store = makeConsoleStore(initialSessionState('ja', true));
    expect(store.getState().session).toMatchObject({ phase: 'checking', language: 'ja' });
    store.dispatch(signedIn({ warden: { id: 1, title: 'W' }, token: 't', at: START }));
    store.dispatch(liveJailsReceived({ jails: [liveJail(1)], serverTime: START, receivedAt: START }));
    store.dispatch(jailOpening(1));
    store.dispatch(signedOut({ reason: 'ended' }));
    expect(store.getState().session).toMatchObject({ phase: 'signedOut', token: null, signInError: 'ended', language: 'ja' });
    expect(store.getState().console).toMatchObject({ liveJails: [], openJail: null });
  });
});

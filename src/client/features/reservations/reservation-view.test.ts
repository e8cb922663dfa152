import { describe, expect, it } from 'vitest';
import {
  detailActions,
  historyOutcome,
  isAtMaximumPatrols,
  isSupportedEnvironment,
  lazyAlertBanner,
  listMode,
  platformOf,
  reportState,
  reservationTimeState,
  splitReservations,
  startsIn,
  trialBanner,
} from './reservation-view.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const NOW = Date.UTC(2026, 10, 21, 1, 0);

function item(startTime: number, hours = 1, extra: Partial<{ isFinished: boolean; repeatType: 'none' | 'weekly' | 'daily' }> = {}) {
  return { startTime, endTime: startTime + hours * HOUR, isFinished: false, repeatType: 'none' as const, ...extra };
}

describe('time states', () => {
  it('is upcoming before 15 minutes, ready from then to the end, over after or when finished', () => {
    const start = NOW + 15 * MINUTE;
    expect(reservationTimeState(item(start + 1), NOW)).toBe('upcoming');
    expect(reservationTimeState(item(start), NOW)).toBe('ready');
    expect(reservationTimeState(item(NOW - 30 * MINUTE), NOW)).toBe('ready');
    expect(reservationTimeState(item(NOW - HOUR), NOW)).toBe('over');
    expect(reservationTimeState(item(start, 1, { isFinished: true }), NOW)).toBe('over');
  });

  it('colours ready items JailMode, the rest ReservationMode', () => {
    expect(listMode(item(NOW + 10 * MINUTE), NOW)).toBe('jail');
    expect(listMode(item(NOW + DAY), NOW)).toBe('reservation');
    expect(listMode(item(NOW + 10 * MINUTE, 1, { isFinished: true }), NOW)).toBe('reservation');
    // Started, with the guest in a jail: the live jail to return to; not yet started, still one to enter.
    expect(listMode(item(NOW - 10 * MINUTE), NOW, true)).toBe('live');
    expect(listMode(item(NOW - 10 * MINUTE), NOW, false)).toBe('jail');
    expect(listMode(item(NOW + 10 * MINUTE), NOW, true)).toBe('jail');
    expect(listMode(item(NOW - 10 * MINUTE, 1, { isFinished: true }), NOW, true)).toBe('reservation');
  });

  it('splits future (soonest first) from history (latest first)', () => {
    const a = item(NOW + 2 * DAY);
    const b = item(NOW + DAY);
    const c = item(NOW - 3 * DAY);
    const d = item(NOW - 2 * DAY);
    const e = item(NOW + 3 * DAY, 1, { isFinished: true });
    const { future, history } = splitReservations([a, b, c, d, e], NOW);
    expect(future).toEqual([b, a]);
    expect(history).toEqual([e, d, c]);
  });
});

describe('detail actions', () => {
  it('before the window and more than 6 hours ahead: edit, cancel; skip only when repeating', () => {
    expect(detailActions(item(NOW + 7 * HOUR), NOW)).toMatchObject({ canEdit: true, canCancel: true, canSkip: false, showSkip: false });
    expect(detailActions(item(NOW + 7 * HOUR, 1, { repeatType: 'weekly' }), NOW)).toMatchObject({ canSkip: true, showSkip: true });
  });

  it('within 6 hours: no edit, cancel or skip', () => {
    const actions = detailActions(item(NOW + 6 * HOUR, 1, { repeatType: 'daily' }), NOW);
    expect(actions).toMatchObject({ state: 'upcoming', canEdit: false, canCancel: false, canSkip: false, showSkip: true });
  });

  it('in the window: enter jail; after: the report', () => {
    expect(detailActions(item(NOW + 5 * MINUTE), NOW)).toMatchObject({ state: 'ready', canEnterJail: true, canEdit: false, showReport: false });
    expect(detailActions(item(NOW - 2 * HOUR), NOW)).toMatchObject({ state: 'over', canEnterJail: false, showReport: true });
  });
});

describe('the report', () => {
  it('waits while reading, then says no logs', () => {
    expect(reportState(0, true, false)).toBe('waiting');
    expect(reportState(0, false, false)).toBe('none');
    expect(reportState(3, true, false)).toBe('logs');
    // The server still writes the report (a jail that just finished): wait, then read again.
    expect(reportState(0, false, true)).toBe('waiting');
    expect(reportState(2, false, true)).toBe('logs');
  });

  it('notes maximum patrols at exactly 30 patrol logs', () => {
    const patrols = (count: number) => Array.from({ length: count }, () => ({ type: 'patrol' }));
    expect(isAtMaximumPatrols(patrols(30))).toBe(true);
    expect(isAtMaximumPatrols(patrols(29))).toBe(false);
    expect(isAtMaximumPatrols([...patrols(29), { type: 'motion' }])).toBe(false);
  });
});

describe('banners', () => {
  it('trial: floor of remaining days, or expired; nothing off trial', () => {
    expect(trialBanner({ subscriptionPlan: 1, subscriptionExpiredAt: NOW + 3 * DAY - 1 }, NOW)).toEqual({ expired: false, daysLeft: 2 });
    expect(trialBanner({ subscriptionPlan: 1, subscriptionExpiredAt: NOW + 3 * DAY }, NOW)).toEqual({ expired: false, daysLeft: 3 });
    expect(trialBanner({ subscriptionPlan: 1, subscriptionExpiredAt: NOW }, NOW)).toEqual({ expired: true });
    expect(trialBanner({ subscriptionPlan: 3, subscriptionExpiredAt: NOW + DAY }, NOW)).toBeNull();
  });

  it('lazy alerts: one warns, two warn more, three in a week suspend until the oldest + 7 days', () => {
    expect(lazyAlertBanner({ lazyAlerts: [] }, NOW)).toBeNull();
    expect(lazyAlertBanner({ lazyAlerts: [{ created: NOW - DAY }] }, NOW)).toEqual({ kind: 'warning1' });
    expect(lazyAlertBanner({ lazyAlerts: [{ created: NOW - 2 * DAY }, { created: NOW - DAY }] }, NOW)).toEqual({ kind: 'warning2' });
    const three = [{ created: NOW - 3 * DAY }, { created: NOW - 2 * DAY }, { created: NOW - DAY }];
    expect(lazyAlertBanner({ lazyAlerts: three }, NOW)).toEqual({ kind: 'suspended', resumeAt: NOW + 4 * DAY });
    expect(lazyAlertBanner({ lazyAlerts: [], suspendedUntil: NOW + HOUR }, NOW)).toEqual({ kind: 'suspended', resumeAt: NOW + HOUR });
    expect(lazyAlertBanner({ lazyAlerts: [{ created: NOW - 8 * DAY }] }, NOW)).toBeNull();
  });

  it('platform and environment', () => {
    expect(platformOf('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)')).toBe('ios');
    expect(platformOf('Mozilla/5.0 (Linux; Android 14)')).toBe('android');
    expect(platformOf('Mozilla/5.0 (X11; Linux x86_64)')).toBe('other');
    expect(isSupportedEnvironment({ mediaDevices: { getUserMedia: () => undefined } })).toBe(true);
    expect(isSupportedEnvironment({})).toBe(false);
  });
});

describe('the cards', () => {
  const summary = { plannedMs: HOUR, heldMs: HOUR, focusedMs: HOUR, breakMs: 0, awayMs: 0, alerts: 0, patrols: 0, enteredAt: NOW, finishedAt: NOW };

  it('tell finished, finished early, ended for them, skipped and ignored apart', () => {
    expect(historyOutcome({ status: 'finished', jail: { ...summary, finish: 'ended' } })).toBe('finished');
    expect(historyOutcome({ status: 'finished', jail: { ...summary, finish: 'early' } })).toBe('early');
    expect(historyOutcome({ status: 'finished', jail: { ...summary, finish: 'forced' } })).toBe('forced');
    expect(historyOutcome({ status: 'finished', jail: { ...summary, finish: 'warden' } })).toBe('warden');
    expect(historyOutcome({ status: 'finished', jail: { ...summary, enteredAt: null, finish: 'ignored' } })).toBe('ignored');
    expect(historyOutcome({ status: 'finished', jail: null })).toBe('ignored');
    expect(historyOutcome({ status: 'skipped', jail: null })).toBe('skipped');
  });

  it('say how soon a jail starts: minutes within the hour, hours within the day', () => {
    expect(startsIn(NOW + 12 * MINUTE, NOW)).toEqual({ unit: 'minutes', count: 12 });
    expect(startsIn(NOW + 30_000, NOW)).toEqual({ unit: 'minutes', count: 1 });
    expect(startsIn(NOW + HOUR, NOW)).toEqual({ unit: 'hours', count: 1 });
    expect(startsIn(NOW + 5 * HOUR + 59 * MINUTE, NOW)).toEqual({ unit: 'hours', count: 5 });
    expect(startsIn(NOW + DAY, NOW)).toBeNull();
    expect(startsIn(NOW, NOW)).toBeNull();
  });
});

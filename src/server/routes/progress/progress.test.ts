import { eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Progress } from '../../../shared/api/progress.ts';
import type { Reservation } from '../../../shared/api/reservation.ts';
import { focusedMs } from '../../../shared/focused-time.ts';
import { jails } from '../../db/schema/index.ts';
import { fillFocusedTime } from '../../services/progress.ts';
import {
  apiBlock,
  bookJail,
  credentials,
  fail,
  moveClockTo,
  readyGuest,
  runJailWithBreak,
  signIn,
  signUp,
  succeed,
  useTestServer,
  type TestGuest,
} from '../../test/harness.ts';
import { insertPastJails, type PastJail } from '../../test/jail-history.ts';

const server = useTestServer();
const MINUTE = 60_000;
const TOKYO = '+09:00';

/** An instant `days` after Monday 7 January 2030 at `hour`:`minute` in Tokyo (the test guests' zone). */
function tokyo(days: number, hour: number, minute = 0): number {
  return Date.UTC(2030, 0, 7 + days, hour - 9, minute);
}

function setNow(instant: number): Promise<void> {
  return moveClockTo(server.app, instant);
}

async function progressOf(guest: TestGuest): Promise<Progress> {
  return (await succeed(server.app, '/progress/read', { api: apiBlock(), guest: credentials(guest) })).progress as Progress;
}

function held(days: number, minutes: number, extra: Partial<PastJail> = {}): PastJail {
  return { startTime: tokyo(days, 10), durationMinutes: 60, finish: 'ended', focusedMs: minutes * MINUTE, ...extra };
}

beforeEach(async () => {
  await setNow(tokyo(0, 9));
});

describe('POST /api/progress/read', () => {
  it('sums focused time by the guest’s weeks, counts streaks by the guest’s days, and scores attendance over the last 20 jails', async () => {
    const guest = await readyGuest(server.app);
    const other = await readyGuest(server.app);
    await insertPastJails(server.app.db, guest.id, TOKYO, [
      // Far back: outside the 12 weeks, but a day of its own for the best streak.
      held(-100, 60),
      // Ten ignored jails in November and December; the oldest two fall outside the last 20.
      ...Array.from({ length: 10 }, (_, index) => held(-50 + index, 0, { finish: 'ignored' })),
      // The best streak: five days in a row.
      ...[1, 2, 3, 4, 5].map((day) => held(day, 50, { work: `Chapter ${day}` })),
      // Sunday 23:00 and Monday 00:30 in Tokyo: both Sunday in UTC, two days and two weeks here.
      held(13, 45, { startTime: tokyo(13, 23) }),
      held(14, 30, { startTime: tokyo(14, 0, 30) }),
      held(16, 0, { finish: 'ignored' }),
      // Ended early: its focused time counts, but the day is not a day held to the end.
      held(17, 20, { finish: 'early' }),
      ...[18, 19, 20].map((day) => held(day, 50)),
      // Try-anyway jails count for nothing; only their number is given.
      held(19, 60, { startTime: tokyo(19, 15), isTrial: true }),
      held(20, 30, { startTime: tokyo(20, 15), finish: 'ignored', isTrial: true }),
    ]);
    await insertPastJails(server.app.db, other.id, TOKYO, [held(20, 55, { startTime: tokyo(20, 15) }), held(21, 55, { startTime: tokyo(21, 8) })]);

    // Monday 28 January at noon: the streak of the 25th to the 27th is still alive.
    await setNow(tokyo(21, 12));
    const progress = await progressOf(guest);
    expect(progress.weeks).toHaveLength(12);
    expect(progress.weeks.map((week) => week.start)).toEqual(Array.from({ length: 12 }, (_, index) => tokyo(21 - 7 * (11 - index), 0)));
    const minutesOfWeek = (monday: number) => (progress.weeks.find((week) => week.start === tokyo(monday, 0))?.focusedMs ?? -1) / MINUTE;
    expect(minutesOfWeek(0)).toBe(250);
    expect(minutesOfWeek(7)).toBe(45);
    expect(minutesOfWeek(14)).toBe(30 + 20 + 150);
    expect(minutesOfWeek(21)).toBe(0);
    expect(progress.weeks.reduce((sum, week) => sum + week.focusedMs, 0) / MINUTE).toBe(250 + 45 + 200);
    expect(progress.currentStreak).toBe(3);
    expect(progress.bestStreak).toBe(5);
    expect(progress.attendance).toEqual({ entered: 11, counted: 20 });
    expect(progress.trialJails).toBe(2);
    expect(progress.recentJails.map((jail) => jail.startTime)).toEqual([
      tokyo(20, 10),
      tokyo(19, 10),
      tokyo(18, 10),
      tokyo(17, 10),
      tokyo(16, 10),
      tokyo(14, 0, 30),
      tokyo(13, 23),
      tokyo(5, 10),
      tokyo(4, 10),
      tokyo(3, 10),
    ]);
    expect(progress.recentJails[7]).toMatchObject({ work: 'Chapter 5', focusedMs: 50 * MINUTE, finish: 'ended', endTime: tokyo(5, 11) });
    expect(progress.recentJails[3]).toMatchObject({ finish: 'early', focusedMs: 20 * MINUTE });
    expect(progress.recentJails[4]).toMatchObject({ finish: 'ignored', focusedMs: 0 });

    // On Tuesday the 29th, with no jail on the 28th, the streak is over; the best stays.
    await setNow(tokyo(22, 9));
    const later = await progressOf(await signIn(server.app, guest));
    expect(later).toMatchObject({ currentStreak: 0, bestStreak: 5 });
  });

  it('counts the focused time the jail kept when it finished, the same as its report', async () => {
    const guest = await readyGuest(server.app);
    const reservation = await runJailWithBreak(server.app, guest);
    // Booked but never entered: ignored.
    const ignored = await bookJail(server.app, guest, 1, 1, reservation.endTime + 10 * MINUTE);
    await setNow(ignored.startTime);
    await setNow(ignored.endTime + MINUTE);

    const [kept] = await server.app.db.select().from(jails).where(eq(jails.reservationId, reservation.id));
    // 40 minutes (the clock runs on by milliseconds between the test's steps).
    const keptMs = kept?.focusedMs ?? 0;
    expect(Math.round(keptMs / MINUTE)).toBe(40);
    const report = (await succeed(server.app, '/reservation/read', { api: apiBlock(), guest: credentials(guest), reservation: { id: reservation.id } }))
      .reservation as Reservation;
    expect(report.jail?.focusedMs).toBe(keptMs);
    const progress = await progressOf(guest);
    expect(progress.recentJails.map((jail) => [jail.id, jail.focusedMs, jail.finish])).toEqual([
      [ignored.id, 0, 'ignored'],
      [reservation.id, keptMs, 'ended'],
    ]);
    expect(progress.attendance).toEqual({ entered: 1, counted: 2 });
    expect(progress.weeks.at(-1)?.focusedMs).toBe(keptMs);
  });

  it('fills the focused time of jails that finished before it was kept, by the one rule', async () => {
    const guest = await readyGuest(server.app);
    const [id] = await insertPastJails(server.app.db, guest.id, TOKYO, [held(1, 0)]);
    if (id === undefined) throw new Error('no jail');
    // As a jail finished before the column existed: 50 minutes held, 5 of them on a break.
    await server.app.db
      .update(jails)
      .set({ focusedMs: null, enteredAt: tokyo(1, 10, 10), breakMs: 5 * MINUTE })
      .where(eq(jails.reservationId, id));
    expect(await fillFocusedTime(server.app.db)).toBeGreaterThanOrEqual(1);
    const [filled] = await server.app.db.select().from(jails).where(eq(jails.reservationId, id));
    if (filled === undefined) throw new Error('no jail');
    expect(filled.focusedMs).toBe(45 * MINUTE);
    expect(filled.focusedMs).toBe(focusedMs(filled, filled.finishedAt ?? 0));
    expect(await fillFocusedTime(server.app.db)).toBe(0);
  });

  it('answers a new guest with twelve empty weeks, and refuses a call without a session', async () => {
    const guest = await signUp(server.app);
    const progress = await progressOf(guest);
    expect(progress).toMatchObject({ currentStreak: 0, bestStreak: 0, attendance: { entered: 0, counted: 0 }, recentJails: [], trialJails: 0 });
    expect(progress.weeks.map((week) => week.focusedMs)).toEqual(Array(12).fill(0));
    expect(await fail(server.app, '/progress/read', { api: apiBlock(), guest: { id: guest.id, token: 'wrong' } })).toMatch(/sign in/i);
  });
});

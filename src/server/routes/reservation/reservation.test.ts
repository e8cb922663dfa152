import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ActivityLog, Reservation } from '../../../shared/api/reservation.ts';
import type { Language } from '../../../shared/constants.ts';
import { PLANS } from '../../../shared/plans.ts';
import { activityLogs, guests } from '../../db/schema/index.ts';
import {
  apiBlock,
  call,
  credentials,
  fail,
  readyGuest,
  signUp,
  startTestServer,
  succeed,
  verifyEmail,
  type TestGuest,
  type TestServer,
} from '../../test/harness.ts';

/** Monday 7 January 2030, 9:00 in Tokyo (the test guests' zone: offset -540). */
const T0 = Date.UTC(2030, 0, 7, 0, 0);

/** An instant `days` after T0's date at `hour`:`minute` in Tokyo. */
function tokyo(days: number, hour: number, minute = 0): number {
  return Date.UTC(2030, 0, 7 + days, hour - 9, minute);
}

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

/** Moves the server's clock to `instant` through `POST /dev/clock` (it runs on from there). */
async function setNow(instant: number): Promise<void> {
  const response = await server.app.inject({
    method: 'POST',
    url: '/dev/clock',
    payload: { offsetMs: Math.round(instant - Date.now()) },
  });
  expect(response.statusCode).toBe(200);
}

beforeEach(async () => {
  await setNow(T0);
});

interface BookingForm {
  work?: string;
  duration?: number;
  startTime?: number;
  repeatType?: 'none' | 'weekly' | 'daily';
  dailyRepeatSettings?: number[];
  schedules?: { minutes: number; title: string }[];
}

function bookingForm(overrides: BookingForm = {}): Required<BookingForm> {
  return {
    work: 'Thesis chapter 2',
    duration: 2,
    startTime: tokyo(1, 10),
    repeatType: 'none',
    dailyRepeatSettings: [0, 1, 2, 3, 4, 5, 6],
    schedules: [],
    ...overrides,
  };
}

function body(guest: TestGuest, reservation?: object, language: Language = 'en') {
  return { api: apiBlock(language), guest: credentials(guest), ...(reservation === undefined ? {} : { reservation }) };
}

async function create(guest: TestGuest, overrides: BookingForm = {}): Promise<Reservation> {
  const answer = await succeed(server.app, '/reservation/create', body(guest, bookingForm(overrides)));
  return answer.reservation as Reservation;
}

async function list(guest: TestGuest): Promise<Reservation[]> {
  return (await succeed(server.app, '/reservation/read_list', body(guest))).reservations as Reservation[];
}

async function read(guest: TestGuest, id: number): Promise<Reservation> {
  return (await succeed(server.app, '/reservation/read', body(guest, { id }))).reservation as Reservation;
}

async function setGuest(guest: TestGuest, values: Partial<typeof guests.$inferInsert>): Promise<void> {
  await server.app.db.update(guests).set(values).where(eq(guests.id, guest.id));
  // A write outside an /api call drops the guest's cached reads itself.
  await server.app.invalidateReadCache(guest.id);
}

describe('POST /api/reservation/create', () => {
  it('books and answers the reservation object of docs/api.md', async () => {
    const guest = await readyGuest(server.app);
    const created = await create(guest, {
      work: '  Thesis chapter 2 ',
      duration: 1.25,
      schedules: [
        { minutes: 5, title: 'Outline' },
        { minutes: 10, title: '' },
        { minutes: 70, title: 'Wrap up' },
      ],
    });
    expect(created).toEqual({
      id: expect.any(Number),
      work: 'Thesis chapter 2',
      startTime: tokyo(1, 10),
      endTime: tokyo(1, 11, 15),
      duration: 1.25,
      isFinished: false,
      repeatType: 'none',
      dailyRepeatSettings: [0, 1, 2, 3, 4, 5, 6],
      schedules: [
        { minutes: 5, title: 'Outline' },
        { minutes: 70, title: 'Wrap up' },
      ],
      activityLogs: [],
      logsPending: false,
      jail: null,
      status: 'upcoming',
      pausedUntil: null,
    });
    expect(await list(guest)).toEqual([created]);
    expect(await read(guest, created.id)).toEqual(created);
  });

  it('fills in the weekdays and the schedules when the form leaves them out', async () => {
    const guest = await readyGuest(server.app);
    const answer = await succeed(server.app, '/reservation/create', body(guest, { duration: 1, startTime: tokyo(0, 12), repeatType: 'daily' }));
    expect(answer.reservation).toMatchObject({ work: '', dailyRepeatSettings: [0, 1, 2, 3, 4, 5, 6], schedules: [] });
  });

  it('turns away a guest whose e-mail is not verified, in either language', async () => {
    const guest = await signUp(server.app);
    expect(await fail(server.app, '/reservation/create', body(guest, bookingForm()))).toBe(
      'To book a jail session, please first verify your account from the link previously sent to your email address.',
    );
    expect(await fail(server.app, '/reservation/create', body(guest, bookingForm(), 'ja'))).toBe(
      'ジェイルを予約するには、まずメールアドレスに送信されたリンクを開いて、メールアドレスの確認を済ませてください。',
    );
  });

  it('turns away a guest without a phone number', async () => {
    const guest = await signUp(server.app);
    await verifyEmail(server.app, guest);
    expect(await fail(server.app, '/reservation/create', body(guest, bookingForm()))).toBe('To book a jail session, please first register your phone number.');
    expect(await fail(server.app, '/reservation/create', body(guest, bookingForm(), 'ja'))).toBe('ジェイルを予約するには、まず電話番号を登録してください。');
  });

  it('turns away a suspended guest until the resume time, written in their zone and language', async () => {
    const guest = await readyGuest(server.app);
    await setGuest(guest, { suspendedUntil: tokyo(3, 9) });
    expect(await fail(server.app, '/reservation/create', body(guest, bookingForm()))).toMatch(
      /^Your account is temporarily suspended because of three ignored jail within a week\. Back to available at Jan 10, 2030, 09:00$/,
    );
    expect(await fail(server.app, '/reservation/create', body(guest, bookingForm(), 'ja'))).toBe(
      '1週間以内に3回ジェイルを欠席したため、アカウントは一時的に停止されています。2030/01/10 09:00から再びご利用いただけます。',
    );
    await setNow(tokyo(3, 9));
    await create(guest, { startTime: tokyo(4, 10) });
  });

  it('turns away a guest whose trial, free or university plan has run out; a plan without an end books', async () => {
    const guest = await readyGuest(server.app);
    await setGuest(guest, { subscriptionExpiredAt: tokyo(0, 9) });
    expect(await fail(server.app, '/reservation/create', body(guest, bookingForm()))).toBe(
      'Your plan has ended. Please choose a plan on the subscription page to book a jail.',
    );
    expect(await fail(server.app, '/reservation/create', body(guest, bookingForm(), 'ja'))).toBe(
      'プランの期間が終了しました。ジェイルを予約するには、プランのページでプランを選んでください。',
    );
    await setGuest(guest, { subscriptionExpiredAt: tokyo(30, 9) });
    await create(guest);
  });

  it('turns away a guest who ended a session early until its original end', async () => {
    const guest = await readyGuest(server.app);
    await setGuest(guest, { earlyFinishBlockUntil: tokyo(0, 11) });
    expect(await fail(server.app, '/reservation/create', body(guest, bookingForm()))).toMatch(
      /^You ended a jail session early, so you can book again only after it was due to end: Jan 7, 2030, 11:00\.$/,
    );
    await setNow(tokyo(0, 11));
    await create(guest);
  });

  it('holds a light-plan guest to 15 hours in the month the booking starts in', async () => {
    const guest = await readyGuest(server.app);
    await setGuest(guest, { subscriptionPlan: PLANS.light.code });
    await create(guest, { startTime: tokyo(1, 9), duration: 8 });
    await create(guest, { startTime: tokyo(2, 9), duration: 6 });
    expect(await fail(server.app, '/reservation/create', body(guest, bookingForm({ startTime: tokyo(3, 9), duration: 1.25 })))).toBe(
      'The light plan allows 15 hours of jail a month. January 2030 has 1 hours left, and this booking needs 1.25.',
    );
    expect(await fail(server.app, '/reservation/create', body(guest, bookingForm({ startTime: tokyo(3, 9), duration: 1.25 }), 'ja'))).toBe(
      'ライトプランで予約できるのは月15時間までです。2030年1月の残りは1時間で、この予約には1.25時間が必要です。',
    );
    // A weekly hour would add one for each Thursday left in January: 10, 17, 24 and 31.
    expect(await fail(server.app, '/reservation/create', body(guest, bookingForm({ startTime: tokyo(3, 9), duration: 1, repeatType: 'weekly' })))).toContain(
      'this booking needs 4.',
    );
    await create(guest, { startTime: tokyo(3, 9), duration: 1 });
  });

  it('places no monthly limit on the other plans', async () => {
    const guest = await readyGuest(server.app);
    await create(guest, { startTime: tokyo(1, 9), duration: 8 });
    await create(guest, { startTime: tokyo(2, 9), duration: 8 });
    await create(guest, { startTime: tokyo(3, 9), duration: 8 });
  });

  it('refuses a booking that overlaps another, including a later occurrence of a repeating one', async () => {
    const guest = await readyGuest(server.app);
    await create(guest, { startTime: tokyo(1, 10), duration: 2, repeatType: 'weekly' });
    expect(await fail(server.app, '/reservation/create', body(guest, bookingForm({ startTime: tokyo(8, 11), duration: 1 })))).toMatch(
      /^This time overlaps your jail of Jan 15, 2030, 10:00\.$/,
    );
    expect(await fail(server.app, '/reservation/create', body(guest, bookingForm({ startTime: tokyo(0, 11), duration: 1, repeatType: 'daily' }), 'ja'))).toBe(
      'この時間は2030/01/08 10:00のジェイルと重なっています。',
    );
    // Touching ends are no overlap.
    await create(guest, { startTime: tokyo(8, 12), duration: 1 });
    await create(guest, { startTime: tokyo(1, 9), duration: 1 });
  });

  it('checks every booking rule with its own message', async () => {
    const guest = await readyGuest(server.app);
    const refusals: [BookingForm, string][] = [
      [{ duration: 0.5 }, 'The duration must be 1 to 8 hours, in steps of 15 minutes.'],
      [{ duration: 8.25 }, 'The duration must be 1 to 8 hours, in steps of 15 minutes.'],
      [{ duration: 1.1 }, 'The duration must be 1 to 8 hours, in steps of 15 minutes.'],
      [{ startTime: tokyo(1, 10, 10) }, 'The start time must be on a 15-minute step (:00, :15, :30 or :45).'],
      [{ startTime: tokyo(0, 9) }, 'This start time has already passed.'],
      [{ startTime: tokyo(-1, 10) }, 'This start time has already passed.'],
      [{ startTime: tokyo(14, 0) }, 'The start date must be today or one of the next 13 days.'],
      [{ repeatType: 'daily', dailyRepeatSettings: [] }, 'Choose at least one weekday, from Sunday to Saturday, for a daily repeat.'],
      [{ dailyRepeatSettings: [7] }, 'Choose at least one weekday, from Sunday to Saturday, for a daily repeat.'],
      // tokyo(1, …) is a Tuesday.
      [{ repeatType: 'daily', dailyRepeatSettings: [1, 3] }, 'The start date must fall on one of the weekdays chosen for the repeat.'],
      [{ duration: 1, schedules: [{ minutes: 60, title: 'Too late' }] }, 'Each schedule entry must be at a 5-minute step within the session.'],
      [{ schedules: [{ minutes: 7, title: 'Off step' }] }, 'Each schedule entry must be at a 5-minute step within the session.'],
      [{ schedules: [{ minutes: 5.5, title: 'Fraction' }] }, 'Each schedule entry must be at a 5-minute step within the session.'],
      [{ work: 'w'.repeat(201) }, 'The work must be at most 200 characters.'],
      [{ schedules: [{ minutes: 5, title: 't'.repeat(101) }] }, 'Each schedule entry must be at most 100 characters.'],
    ];
    for (const [overrides, message] of refusals) {
      const result = await call(server.app, '/reservation/create', body(guest, bookingForm(overrides)));
      expect(result.body.api, JSON.stringify(overrides)).toMatchObject({ status: 'failed', errorMessage: message });
    }
    expect(await fail(server.app, '/reservation/create', body(guest, bookingForm({ startTime: tokyo(0, 9) }), 'ja'))).toBe(
      'この開始時刻はすでに過ぎています。',
    );
    // The last of the 14 dates, the earliest start after now, and a schedule entry just inside the session.
    await create(guest, { startTime: tokyo(13, 23, 45), duration: 1 });
    await create(guest, { startTime: tokyo(0, 9, 15), duration: 1, schedules: [{ minutes: 55, title: 'Wrap up' }] });
    expect(await list(guest)).toHaveLength(2);
  });

  it('names the fields of a body that is not a booking', async () => {
    const guest = await readyGuest(server.app);
    expect(await fail(server.app, '/reservation/create', body(guest))).toBe('The request is invalid: reservation.');
    const { startTime: _startTime, ...withoutStart } = bookingForm();
    expect(await fail(server.app, '/reservation/create', body(guest, withoutStart))).toBe('The request is invalid: reservation.startTime.');
    expect(await fail(server.app, '/reservation/create', body(guest, { ...bookingForm(), repeatType: 'monthly' }))).toBe(
      'The request is invalid: reservation.repeatType.',
    );
  });
});

describe('authentication', () => {
  it('fails every call for a wrong token or an unknown guest, in one message', async () => {
    const guest = await readyGuest(server.app);
    const reservation = await create(guest);
    const wrongToken = { ...guest, token: 'not-the-token' };
    const unknownGuest = { ...guest, id: 2_000_000_000 };
    const calls: [string, object | undefined][] = [
      ['/reservation/create', bookingForm({ startTime: tokyo(2, 10) })],
      ['/reservation/read', { id: reservation.id }],
      ['/reservation/read_list', undefined],
      ['/reservation/update', { id: reservation.id, work: 'Changed' }],
      ['/reservation/skip', { id: reservation.id }],
      ['/reservation/destroy', { id: reservation.id }],
    ];
    for (const [path, reservationBody] of calls) {
      for (const impostor of [wrongToken, unknownGuest]) {
        expect(await fail(server.app, path, body(impostor, reservationBody)), path).toBe('You are signed out. Please sign in again.');
      }
    }
    expect(await list(guest)).toEqual([reservation]);
  });
});

describe('POST /api/reservation/read', () => {
  it('fails for an unknown id', async () => {
    const guest = await readyGuest(server.app);
    expect(await fail(server.app, '/reservation/read', body(guest, { id: 2_000_000_000 }))).toBe('This reservation was not found.');
    expect(await fail(server.app, '/reservation/read', body(guest, { id: 2_000_000_000 }, 'ja'))).toBe('この予約は見つかりません。');
  });

  it('accepts the id as a string of digits, as a route segment gives it', async () => {
    const guest = await readyGuest(server.app);
    const created = await create(guest);
    expect(await read(guest, Number(String(created.id)))).toEqual(created);
    const answer = await succeed(server.app, '/reservation/read', body(guest, { id: String(created.id) }));
    expect(answer.reservation).toEqual(created);
  });
});

describe('time states', () => {
  it('is upcoming, ready from 15 minutes before the start, then finished at the end', async () => {
    const guest = await readyGuest(server.app);
    const created = await create(guest, { startTime: tokyo(0, 12), duration: 1 });
    expect(created.status).toBe('upcoming');
    await setNow(tokyo(0, 11, 44));
    expect((await read(guest, created.id)).status).toBe('upcoming');
    await setNow(tokyo(0, 11, 45));
    expect((await read(guest, created.id)).status).toBe('ready');
    await setNow(tokyo(0, 12, 59));
    expect((await read(guest, created.id)).status).toBe('ready');
    await setNow(tokyo(0, 13));
    expect(await read(guest, created.id)).toMatchObject({ status: 'finished', isFinished: true });
  });
});

describe('repeating reservations', () => {
  it('roll forward on read: every past occurrence stays as a finished item with its own logs', async () => {
    const guest = await readyGuest(server.app);
    const first = await create(guest, { startTime: tokyo(0, 12), duration: 1, repeatType: 'daily', dailyRepeatSettings: [1, 2, 4] });
    const dialog: ActivityLog = { type: 'dialog', time: tokyo(0, 12, 5), dialog: { type: 1, text: 'Back to work.' } };
    const motion: ActivityLog = { type: 'motion', time: tokyo(0, 12, 1), motion: { type: 0 } };
    await server.app.db.insert(activityLogs).values([
      { reservationId: first.id, time: dialog.time, entry: dialog },
      { reservationId: first.id, time: motion.time, entry: motion },
    ]);
    await server.app.invalidateReadCache(guest.id);

    // Monday 12:00-13:00, Tuesday, then Thursday; it is now Thursday 11:50,
    // inside the ready window but before the start (a started jail would
    // add its own greeting logs whenever the scheduler's tick comes round).
    await setNow(tokyo(3, 11, 50));
    const items = await list(guest);
    expect(items.map((item) => [item.startTime, item.status, item.isFinished])).toEqual([
      [tokyo(0, 12), 'finished', true],
      [tokyo(1, 12), 'finished', true],
      [tokyo(3, 12), 'ready', false],
    ]);
    expect(items[0]).toMatchObject({ id: first.id, activityLogs: [motion, dialog] });
    expect(items[1]?.activityLogs).toEqual([]);
    expect(new Set(items.map((item) => item.id)).size).toBe(3);
    for (const item of items) {
      expect(item).toMatchObject({ work: 'Thesis chapter 2', duration: 1, repeatType: 'daily', dailyRepeatSettings: [1, 2, 4] });
    }
    expect(await read(guest, first.id)).toEqual(items[0]);

    // A log of the current occurrence is its own, not its predecessors'.
    const patrol: ActivityLog = { type: 'patrol', time: tokyo(3, 12, 10), patrol: { data: 'data:image/jpeg;base64,AAAA' } };
    await server.app.db.insert(activityLogs).values({ reservationId: items[2]?.id ?? 0, time: patrol.time, entry: patrol });
    await server.app.invalidateReadCache(guest.id);
    expect((await list(guest)).map((item) => item.activityLogs)).toEqual([[motion, dialog], [], [patrol]]);

    // The next Monday, after Thursday's has ended.
    await setNow(tokyo(7, 9));
    const later = await list(guest);
    expect(later.map((item) => [item.startTime, item.status])).toEqual([
      [tokyo(0, 12), 'finished'],
      [tokyo(1, 12), 'finished'],
      [tokyo(3, 12), 'finished'],
      [tokyo(7, 12), 'upcoming'],
    ]);
  });

  it('roll forward once when two reads race', async () => {
    const guest = await readyGuest(server.app);
    await create(guest, { startTime: tokyo(0, 12), duration: 1, repeatType: 'weekly' });
    await setNow(tokyo(21, 13));
    const answers = await Promise.all([list(guest), list(guest), list(guest)]);
    for (const items of answers) {
      expect(items.map((item) => item.startTime)).toEqual([tokyo(0, 12), tokyo(7, 12), tokyo(14, 12), tokyo(21, 12), tokyo(28, 12)]);
    }
  });

  it('finish a one-off reservation at its end and add nothing', async () => {
    const guest = await readyGuest(server.app);
    await create(guest, { startTime: tokyo(0, 12), duration: 1 });
    await setNow(tokyo(30, 0));
    expect((await list(guest)).map((item) => item.status)).toEqual(['finished']);
  });
});

describe('POST /api/reservation/update', () => {
  it('changes the fields given and keeps the others', async () => {
    const guest = await readyGuest(server.app);
    const created = await create(guest, { schedules: [{ minutes: 30, title: 'Review' }] });
    const answer = await succeed(
      server.app,
      '/reservation/update',
      body(guest, { id: created.id, work: 'Thesis chapter 3', startTime: tokyo(2, 14), duration: 3 }),
    );
    const expected = { ...created, work: 'Thesis chapter 3', startTime: tokyo(2, 14), endTime: tokyo(2, 17), duration: 3 };
    expect(answer.reservation).toEqual(expected);
    expect(await list(guest)).toEqual([expected]);
  });

  it('accepts the whole reservation as the client holds it, and ignores it when nothing changed', async () => {
    const guest = await readyGuest(server.app);
    const created = await create(guest);
    // Even within the six hours: a form sent again unchanged is not an edit.
    await setNow(tokyo(1, 9));
    const answer = await succeed(server.app, '/reservation/update', body(guest, { ...created, work: ` ${created.work} ` }));
    expect(answer.reservation).toEqual(created);
    expect(await list(guest)).toEqual([created]);
  });

  it('is refused within 6 hours of the start', async () => {
    const guest = await readyGuest(server.app);
    const created = await create(guest, { startTime: tokyo(0, 16) });
    await setNow(tokyo(0, 10, 1));
    expect(await fail(server.app, '/reservation/update', body(guest, { id: created.id, work: 'Late change' }))).toBe('No change available within 6 hours.');
    expect(await fail(server.app, '/reservation/update', body(guest, { id: created.id, work: 'Late change' }, 'ja'))).toBe('開始6時間前からは変更できません。');
    await setNow(tokyo(0, 9, 59));
    await succeed(server.app, '/reservation/update', body(guest, { id: created.id, work: 'In time' }));
  });

  it('validates the changed booking as create does, against the other reservations only', async () => {
    const guest = await readyGuest(server.app);
    const first = await create(guest, { startTime: tokyo(1, 10), duration: 2 });
    await create(guest, { startTime: tokyo(1, 13), duration: 1 });
    // Moving over its own old slot is fine; onto the other one is not.
    await succeed(server.app, '/reservation/update', body(guest, { id: first.id, startTime: tokyo(1, 11) }));
    expect(await fail(server.app, '/reservation/update', body(guest, { id: first.id, duration: 2.25 }))).toMatch(
      /^This time overlaps your jail of Jan 8, 2030, 13:00\.$/,
    );
    expect(await fail(server.app, '/reservation/update', body(guest, { id: first.id, duration: 9 }))).toBe(
      'The duration must be 1 to 8 hours, in steps of 15 minutes.',
    );
    expect(await fail(server.app, '/reservation/update', body(guest, { id: first.id, startTime: tokyo(20, 10) }))).toBe(
      'The start date must be today or one of the next 13 days.',
    );
  });

  it('holds a light-plan guest to the month, not counting the reservation being changed', async () => {
    const guest = await readyGuest(server.app);
    await setGuest(guest, { subscriptionPlan: PLANS.light.code });
    const six = await create(guest, { startTime: tokyo(1, 9), duration: 6 });
    await create(guest, { startTime: tokyo(2, 9), duration: 8 });
    await succeed(server.app, '/reservation/update', body(guest, { id: six.id, duration: 7 }));
    expect(await fail(server.app, '/reservation/update', body(guest, { id: six.id, duration: 7.25 }))).toBe(
      'The light plan allows 15 hours of jail a month. January 2030 has 7 hours left, and this booking needs 7.25.',
    );
  });

  it('is refused for a finished reservation', async () => {
    const guest = await readyGuest(server.app);
    const created = await create(guest, { startTime: tokyo(0, 12), duration: 1 });
    await setNow(tokyo(1, 0));
    expect(await fail(server.app, '/reservation/update', body(guest, { id: created.id, work: 'Too late' }))).toBe('This reservation has already finished.');
  });
});

describe('POST /api/reservation/skip', () => {
  it('finishes the current occurrence as skipped and books the next one', async () => {
    const guest = await readyGuest(server.app);
    const weekly = await create(guest, { startTime: tokyo(1, 10), repeatType: 'weekly' });
    const answer = await succeed(server.app, '/reservation/skip', body(guest, { id: weekly.id }));
    expect(answer.reservation).toEqual({ ...weekly, isFinished: true, status: 'skipped' });
    const next = answer.nextReservation as Reservation;
    expect(next).toEqual({ ...weekly, id: next.id, startTime: tokyo(8, 10), endTime: tokyo(8, 12) });
    expect(next.id).not.toBe(weekly.id);
    expect(await list(guest)).toEqual([answer.reservation, next]);
  });

  it('moves a daily booking to its next allowed weekday', async () => {
    const guest = await readyGuest(server.app);
    // Tuesday, repeating on Tuesdays and Fridays.
    const daily = await create(guest, { startTime: tokyo(1, 10), repeatType: 'daily', dailyRepeatSettings: [2, 5] });
    const answer = await succeed(server.app, '/reservation/skip', body(guest, { id: daily.id }));
    expect((answer.nextReservation as Reservation).startTime).toBe(tokyo(4, 10));
  });

  it('is refused for a one-off booking, within 6 hours, and for a skipped occurrence', async () => {
    const guest = await readyGuest(server.app);
    const oneOff = await create(guest, { startTime: tokyo(1, 10) });
    expect(await fail(server.app, '/reservation/skip', body(guest, { id: oneOff.id }))).toBe('Only a repeating reservation can be skipped.');
    const weekly = await create(guest, { startTime: tokyo(0, 15), repeatType: 'weekly' });
    expect(await fail(server.app, '/reservation/skip', body(guest, { id: weekly.id }))).toBe('No change available within 6 hours.');
    const later = await create(guest, { startTime: tokyo(2, 10), repeatType: 'weekly' });
    await succeed(server.app, '/reservation/skip', body(guest, { id: later.id }));
    expect(await fail(server.app, '/reservation/skip', body(guest, { id: later.id }))).toBe('This reservation has already finished.');
    expect(await fail(server.app, '/reservation/update', body(guest, { id: later.id, work: 'Changed' }))).toBe('This reservation has already finished.');
    expect(await fail(server.app, '/reservation/destroy', body(guest, { id: later.id }))).toBe('This reservation has already finished.');
  });
});

describe('POST /api/reservation/destroy', () => {
  it('cancels the reservation and answers it as it was', async () => {
    const guest = await readyGuest(server.app);
    const created = await create(guest);
    const answer = await succeed(server.app, '/reservation/destroy', body(guest, { id: created.id }));
    expect(answer.reservation).toEqual(created);
    expect(await list(guest)).toEqual([]);
    expect(await fail(server.app, '/reservation/read', body(guest, { id: created.id }))).toBe('This reservation was not found.');
    // Its slot is free again.
    await create(guest);
  });

  it('is refused within 6 hours of the start', async () => {
    const guest = await readyGuest(server.app);
    const created = await create(guest, { startTime: tokyo(0, 15) });
    expect(await fail(server.app, '/reservation/destroy', body(guest, { id: created.id }))).toBe('No change available within 6 hours.');
    expect(await list(guest)).toEqual([created]);
  });

  it('cancels what is to come of a repeating booking and keeps its past occurrences', async () => {
    const guest = await readyGuest(server.app);
    await create(guest, { startTime: tokyo(0, 12), duration: 1, repeatType: 'weekly' });
    await setNow(tokyo(7, 0));
    const [past, next] = await list(guest);
    await succeed(server.app, '/reservation/destroy', body(guest, { id: next?.id }));
    expect(await list(guest)).toEqual([past]);
  });
});

describe('two guests', () => {
  it("never lets one guest's call reach the other's reservations", async () => {
    const owner = await readyGuest(server.app);
    const other = await readyGuest(server.app);
    const oneOff = await create(owner, { startTime: tokyo(1, 10) });
    const weekly = await create(owner, { startTime: tokyo(2, 10), repeatType: 'weekly' });
    const ownersView = await list(owner);
    const unknownId = 2_000_000_000;

    for (const target of [oneOff.id, weekly.id, unknownId]) {
      const attempts: [string, object][] = [
        ['/reservation/read', { id: target }],
        ['/reservation/update', { id: target, work: 'Hijacked', startTime: tokyo(3, 10) }],
        ['/reservation/skip', { id: target }],
        ['/reservation/destroy', { id: target }],
      ];
      for (const [path, reservation] of attempts) {
        const result = await call(server.app, path, body(other, reservation));
        expect(result.body, `${path} ${target}`).toEqual({
          api: { status: 'failed', errorMessage: 'This reservation was not found.', errorCode: 'reservation_not_found' },
        });
      }
    }
    expect(await list(other)).toEqual([]);
    expect(await list(owner)).toEqual(ownersView);

    // The other guest's own booking at the same time is no overlap of the owner's.
    await create(other, { startTime: tokyo(1, 10) });
    expect(await list(owner)).toEqual(ownersView);
    expect((await list(other)).map((item) => item.startTime)).toEqual([tokyo(1, 10)]);
  });
});

describe('concurrent bookings', () => {
  it('accept only one of two overlapping bookings sent at once', async () => {
    const guest = await readyGuest(server.app);
    const results = await Promise.all(
      [tokyo(1, 10), tokyo(1, 11)].map((startTime) => call(server.app, '/reservation/create', body(guest, bookingForm({ startTime })))),
    );
    expect(results.map((result) => result.body.api.status).sort()).toEqual(['failed', 'success']);
    expect(await list(guest)).toHaveLength(1);
  });
});

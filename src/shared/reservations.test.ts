import { describe, expect, it } from 'vitest';
import { PLANS } from './plans.ts';
import {
  bookingBlock,
  bookingProblem,
  defaultStartTime,
  exceedsAllowance,
  firstPausableDay,
  firstOverlap,
  hoursBookedInMonth,
  changeCutoff,
  isChangeAllowed,
  isSameBooking,
  isOnOfferedStartDate,
  isOnStartTimeStep,
  isSkipAllowed,
  monthlyHoursWith,
  nextOccurrenceStart,
  normalizedBooking,
  occurrenceStarts,
  repeatRuleOf,
  reservationStatus,
  rollForward,
  scheduleMinuteOptions,
  overlapStart,
  pauseProblem,
  startDateOptions,
  startTimeOptions,
  timeStateOf,
  titledSchedules,
  type BookedSlot,
  type BookingRequest,
  type RepeatRule,
} from './reservations.ts';
import { toLocal } from './time-zone.ts';

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
const TOKYO = 'Asia/Tokyo';
const NEW_YORK = 'America/New_York';

/** Sunday 22 November 2026, 05:07 in Tokyo (Saturday 20:07 UTC). */
const NOW = Date.UTC(2026, 10, 21, 20, 7);
/** Tuesday 24 November 2026, 10:00 in Tokyo. */
const TUESDAY_10 = Date.UTC(2026, 10, 24, 1);

function booking(overrides: Partial<BookingRequest> = {}): BookingRequest {
  return {
    work: 'Thesis chapter 2',
    duration: 2,
    startTime: TUESDAY_10,
    repeatType: 'none',
    dailyRepeatSettings: [0, 1, 2, 3, 4, 5, 6],
    schedules: [],
    ...overrides,
  };
}

function slot(startTime: number, duration: number, rule: Omit<RepeatRule, 'wallClockMinutes'> | null): BookedSlot {
  return {
    startTime,
    duration,
    rule: rule === null ? null : { ...rule, wallClockMinutes: toLocal(startTime, rule.timeZone).minutes },
  };
}

const weekly = (timeZone: string = TOKYO) => ({ repeatType: 'weekly', dailyRepeatSettings: [0, 1, 2, 3, 4, 5, 6], timeZone }) as const;
const daily = (weekdays: number[] = [0, 1, 2, 3, 4, 5, 6], timeZone: string = TOKYO) =>
  ({ repeatType: 'daily', dailyRepeatSettings: weekdays, timeZone }) as const;

describe('booking options', () => {
  it("offers 14 start dates from the guest's today", () => {
    const dates = startDateOptions(NOW, TOKYO);
    expect(dates).toHaveLength(14);
    expect(dates[0]).toEqual({ year: 2026, month: 11, day: 22 });
    expect(dates[13]).toEqual({ year: 2026, month: 12, day: 5 });
    // The same instant is still Saturday the 21st in New York.
    expect(startDateOptions(NOW, NEW_YORK)[0]).toEqual({ year: 2026, month: 11, day: 21 });
  });

  it('offers a start every 15 minutes of the local day', () => {
    const starts = startTimeOptions({ year: 2026, month: 11, day: 24 }, TOKYO);
    expect(starts).toHaveLength(96);
    expect(starts[0]).toBe(Date.UTC(2026, 10, 23, 15));
    expect(starts[40]).toBe(TUESDAY_10);
    expect(starts[1]! - starts[0]!).toBe(15 * MINUTE_MS);
  });

  it('leaves out the times a spring-forward gap skips and offers repeated times once', () => {
    expect(startTimeOptions({ year: 2026, month: 3, day: 8 }, NEW_YORK)).toHaveLength(92);
    const fallBack = startTimeOptions({ year: 2026, month: 11, day: 1 }, NEW_YORK);
    expect(fallBack).toHaveLength(96);
    expect(new Set(fallBack).size).toBe(96);
  });

  it('defaults to the first 15-minute step strictly after now', () => {
    expect(defaultStartTime(NOW, TOKYO)).toBe(Date.UTC(2026, 10, 21, 20, 15));
    expect(defaultStartTime(Date.UTC(2026, 10, 21, 20, 15), TOKYO)).toBe(Date.UTC(2026, 10, 21, 20, 30));
    expect(defaultStartTime(Date.UTC(2026, 10, 21, 20, 14, 59, 999), TOKYO)).toBe(Date.UTC(2026, 10, 21, 20, 15));
    // 23:50 in Tokyo: midnight of the next day.
    expect(defaultStartTime(Date.UTC(2026, 10, 22, 14, 50), TOKYO)).toBe(Date.UTC(2026, 10, 22, 15));
    // Kathmandu is 5:45 ahead: its quarter hours are still UTC quarter hours.
    expect(defaultStartTime(Date.UTC(2026, 10, 21, 4, 16), 'Asia/Kathmandu')).toBe(Date.UTC(2026, 10, 21, 4, 30));
  });

  it('never defaults to the first pass of a repeated hour once it is over', () => {
    // 1:20 EST, the second time New York's clock shows 1:20 on 1 November 2026.
    const secondPass = Date.UTC(2026, 10, 1, 6, 20);
    expect(defaultStartTime(secondPass, NEW_YORK)).toBe(Date.UTC(2026, 10, 1, 6, 30));
  });

  it('accepts starts on whole 15-minute steps only', () => {
    expect(isOnStartTimeStep(TUESDAY_10, TOKYO)).toBe(true);
    expect(isOnStartTimeStep(TUESDAY_10 + 5 * MINUTE_MS, TOKYO)).toBe(false);
    expect(isOnStartTimeStep(TUESDAY_10 + 1, TOKYO)).toBe(false);
    expect(isOnStartTimeStep(Date.UTC(2026, 10, 24, 1, 30), '+05:45')).toBe(true);
  });

  it('accepts start dates from local today to 13 days on', () => {
    const today = Date.UTC(2026, 10, 21, 22);
    const lastDay = Date.UTC(2026, 11, 5, 14, 45);
    expect(isOnOfferedStartDate(today, NOW, TOKYO)).toBe(true);
    expect(isOnOfferedStartDate(lastDay, NOW, TOKYO)).toBe(true);
    expect(isOnOfferedStartDate(lastDay + 15 * MINUTE_MS, NOW, TOKYO)).toBe(false);
    expect(isOnOfferedStartDate(Date.UTC(2026, 10, 21, 14, 45), NOW, TOKYO)).toBe(false);
  });

  it('offers schedule minutes in steps of 5 below the duration', () => {
    expect(scheduleMinuteOptions(1)).toEqual([5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55]);
    expect(scheduleMinuteOptions(1.25).at(-1)).toBe(70);
    expect(scheduleMinuteOptions(8)).toHaveLength(95);
  });

  it('drops schedule entries whose title is empty and trims the rest', () => {
    expect(
      titledSchedules([
        { minutes: 5, title: ' Outline ' },
        { minutes: 10, title: '' },
        { minutes: 15, title: '   ' },
        { minutes: 20, title: 'Draft' },
      ]),
    ).toEqual([
      { minutes: 5, title: 'Outline' },
      { minutes: 20, title: 'Draft' },
    ]);
  });
});

describe('bookingBlock', () => {
  const open = { isVerified: true, subscriptionExpiredAt: null, suspendedUntil: null, earlyFinishBlockUntil: null };
  const NOW = 1_000_000;

  it('lets a verified guest on a running plan with no penalty book', () => {
    expect(bookingBlock(open, NOW)).toBeNull();
    expect(bookingBlock({ ...open, subscriptionExpiredAt: NOW + 1, suspendedUntil: NOW, earlyFinishBlockUntil: NOW - 1 }, NOW)).toBeNull();
  });

  it('gives the first gate that holds, in order: e-mail, plan, suspension, early finish', () => {
    const closed = { isVerified: false, subscriptionExpiredAt: NOW, suspendedUntil: NOW + 5, earlyFinishBlockUntil: NOW + 9 };
    expect(bookingBlock(closed, NOW)).toEqual({ reason: 'unverified' });
    expect(bookingBlock({ ...closed, isVerified: true }, NOW)).toEqual({ reason: 'plan_ended' });
    expect(bookingBlock({ ...closed, isVerified: true, subscriptionExpiredAt: null }, NOW)).toEqual({ reason: 'suspended', until: NOW + 5 });
    expect(bookingBlock({ ...open, earlyFinishBlockUntil: NOW + 9 }, NOW)).toEqual({ reason: 'early_finish_blocked', until: NOW + 9 });
  });
});

describe('bookingProblem', () => {
  it('accepts a booking on offer', () => {
    expect(bookingProblem(booking(), NOW, TOKYO)).toBeNull();
    expect(bookingProblem(booking({ duration: 8, repeatType: 'weekly' }), NOW, TOKYO)).toBeNull();
    expect(bookingProblem(booking({ repeatType: 'daily', dailyRepeatSettings: [2, 4] }), NOW, TOKYO)).toBeNull();
  });

  it('refuses durations off the list', () => {
    for (const duration of [0.75, 1.1, 8.25, 0, -1, Number.NaN]) {
      expect(bookingProblem(booking({ duration }), NOW, TOKYO), String(duration)).toBe('duration_not_offered');
    }
  });

  it('refuses a start off the 15-minute steps, in the past or beyond the 14 dates', () => {
    expect(bookingProblem(booking({ startTime: TUESDAY_10 + 10 * MINUTE_MS }), NOW, TOKYO)).toBe('start_time_not_on_step');
    expect(bookingProblem(booking({ startTime: Date.UTC(2026, 10, 21, 20) }), NOW, TOKYO)).toBe('start_time_passed');
    expect(bookingProblem(booking({ startTime: Date.UTC(2026, 11, 5, 15) }), NOW, TOKYO)).toBe('start_date_not_offered');
  });

  it('refuses weekdays that are no weekday, and a daily repeat without any', () => {
    for (const dailyRepeatSettings of [[], [2, 7], [-1], [1.5]]) {
      expect(bookingProblem(booking({ repeatType: 'daily', dailyRepeatSettings }), NOW, TOKYO), JSON.stringify(dailyRepeatSettings)).toBe(
        'repeat_weekdays_invalid',
      );
    }
    expect(bookingProblem(booking({ repeatType: 'weekly', dailyRepeatSettings: [] }), NOW, TOKYO)).toBeNull();
    expect(bookingProblem(booking({ repeatType: 'weekly', dailyRepeatSettings: [8] }), NOW, TOKYO)).toBe('repeat_weekdays_invalid');
  });

  it("refuses a daily repeat whose first date is not one of its weekdays in the guest's zone", () => {
    // Tuesday in Tokyo is 2; the same instant is Monday evening in New York.
    expect(bookingProblem(booking({ repeatType: 'daily', dailyRepeatSettings: [1, 3] }), NOW, TOKYO)).toBe('start_not_on_repeat_weekday');
    expect(bookingProblem(booking({ repeatType: 'daily', dailyRepeatSettings: [1, 3] }), NOW, NEW_YORK)).toBeNull();
    // A weekly booking ignores the daily weekdays.
    expect(bookingProblem(booking({ repeatType: 'weekly', dailyRepeatSettings: [1, 3] }), NOW, TOKYO)).toBeNull();
  });

  it('refuses titled schedule entries at minutes not on offer, ignoring untitled ones', () => {
    const at = (minutes: number, title = 'Check') => [{ minutes, title }];
    expect(bookingProblem(booking({ duration: 1, schedules: at(55) }), NOW, TOKYO)).toBeNull();
    expect(bookingProblem(booking({ duration: 1, schedules: at(60) }), NOW, TOKYO)).toBe('schedule_minutes_not_offered');
    expect(bookingProblem(booking({ duration: 1, schedules: at(12) }), NOW, TOKYO)).toBe('schedule_minutes_not_offered');
    expect(bookingProblem(booking({ duration: 1, schedules: at(0) }), NOW, TOKYO)).toBe('schedule_minutes_not_offered');
    expect(bookingProblem(booking({ duration: 1, schedules: at(60, '') }), NOW, TOKYO)).toBeNull();
  });

  it('keeps a booking trimmed, titled and with its weekdays once each in order', () => {
    expect(normalizedBooking(booking({ repeatType: 'weekly', dailyRepeatSettings: [] })).dailyRepeatSettings).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(
      normalizedBooking(
        booking({
          work: '  Thesis ',
          dailyRepeatSettings: [5, 1, 3, 1],
          schedules: [
            { minutes: 5, title: '' },
            { minutes: 30, title: ' Review ' },
          ],
        }),
      ),
    ).toEqual(booking({ work: 'Thesis', dailyRepeatSettings: [1, 3, 5], schedules: [{ minutes: 30, title: 'Review' }] }));
  });
});

describe('isSameBooking', () => {
  it('sees through what normalizing changes, and nothing else', () => {
    const kept = booking({ schedules: [{ minutes: 30, title: 'Review' }], dailyRepeatSettings: [1, 3] });
    expect(isSameBooking(kept, { ...kept, work: ' Thesis chapter 2 ', dailyRepeatSettings: [3, 1, 1] })).toBe(true);
    expect(isSameBooking(kept, { ...kept, schedules: [...kept.schedules, { minutes: 40, title: '' }] })).toBe(true);
    expect(isSameBooking(kept, { ...kept, duration: 2.25 })).toBe(false);
    expect(isSameBooking(kept, { ...kept, startTime: kept.startTime + 15 * MINUTE_MS })).toBe(false);
    expect(isSameBooking(kept, { ...kept, schedules: [{ minutes: 35, title: 'Review' }] })).toBe(false);
    expect(isSameBooking(kept, { ...kept, repeatType: 'weekly' })).toBe(false);
  });
});

describe('repeating', () => {
  it('anchors a rule to the local wall clock of the booked start', () => {
    expect(repeatRuleOf(booking({ repeatType: 'weekly' }), TOKYO)).toEqual({
      repeatType: 'weekly',
      dailyRepeatSettings: [0, 1, 2, 3, 4, 5, 6],
      timeZone: TOKYO,
      wallClockMinutes: 600,
    });
  });

  it('has no next occurrence for a one-off booking', () => {
    expect(nextOccurrenceStart(repeatRuleOf(booking(), TOKYO), TUESDAY_10)).toBeNull();
  });

  it('repeats weekly on the same weekday', () => {
    const rule = repeatRuleOf(booking({ repeatType: 'weekly' }), TOKYO);
    expect(nextOccurrenceStart(rule, TUESDAY_10)).toBe(TUESDAY_10 + 7 * DAY_MS);
  });

  it('repeats daily on the next allowed weekday', () => {
    const rule = repeatRuleOf(booking({ repeatType: 'daily', dailyRepeatSettings: [2, 4, 5] }), TOKYO);
    const thursday = nextOccurrenceStart(rule, TUESDAY_10);
    expect(thursday).toBe(TUESDAY_10 + 2 * DAY_MS);
    const friday = nextOccurrenceStart(rule, thursday!);
    expect(friday).toBe(TUESDAY_10 + 3 * DAY_MS);
    expect(nextOccurrenceStart(rule, friday!)).toBe(TUESDAY_10 + 7 * DAY_MS);
    const everyDay = repeatRuleOf(booking({ repeatType: 'daily' }), TOKYO);
    expect(nextOccurrenceStart(everyDay, TUESDAY_10)).toBe(TUESDAY_10 + DAY_MS);
  });

  it('keeps the local time across daylight saving changes', () => {
    // Every Saturday at 9:00 in New York, from 7 March 2026 (EST) to 14 March (EDT).
    const saturday = Date.UTC(2026, 2, 7, 14);
    const rule = repeatRuleOf({ repeatType: 'weekly', dailyRepeatSettings: [6], startTime: saturday }, NEW_YORK);
    expect(nextOccurrenceStart(rule, saturday)).toBe(Date.UTC(2026, 2, 14, 13));
  });

  it('lands a time the clocks skip later that day only, and comes back to it the day after', () => {
    // Every day at 2:30 in New York; 2:30 does not exist on 8 March 2026.
    const before = Date.UTC(2026, 2, 7, 7, 30);
    const rule = repeatRuleOf({ repeatType: 'daily', dailyRepeatSettings: [0, 1, 2, 3, 4, 5, 6], startTime: before }, NEW_YORK);
    const gapDay = nextOccurrenceStart(rule, before);
    expect(gapDay).toBe(Date.UTC(2026, 2, 8, 7, 30));
    expect(toLocal(gapDay!, NEW_YORK)).toMatchObject({ day: 8, minutes: 3 * 60 + 30 });
    const after = nextOccurrenceStart(rule, gapDay!);
    expect(toLocal(after!, NEW_YORK)).toMatchObject({ day: 9, minutes: 2 * 60 + 30 });
  });

  it('lists the occurrences of a slot before a limit', () => {
    const weeklySlot = slot(TUESDAY_10, 2, weekly());
    expect(occurrenceStarts(weeklySlot, TUESDAY_10 + 21 * DAY_MS)).toEqual([TUESDAY_10, TUESDAY_10 + 7 * DAY_MS, TUESDAY_10 + 14 * DAY_MS]);
    expect(occurrenceStarts(slot(TUESDAY_10, 2, null), TUESDAY_10 + 100 * DAY_MS)).toEqual([TUESDAY_10]);
    expect(occurrenceStarts(weeklySlot, TUESDAY_10)).toEqual([]);
  });
});

describe('rollForward', () => {
  it('keeps a booking whose occurrence has not ended', () => {
    const inProgress = TUESDAY_10 + HOUR_MS;
    expect(rollForward(slot(TUESDAY_10, 2, daily()), inProgress)).toEqual({ endedStarts: [], currentStart: TUESDAY_10 });
  });

  it('ends a one-off booking at its end', () => {
    expect(rollForward(slot(TUESDAY_10, 2, null), TUESDAY_10 + 2 * HOUR_MS)).toEqual({
      endedStarts: [TUESDAY_10],
      currentStart: null,
    });
  });

  it('ends every occurrence that has passed and names the current one', () => {
    const threeDaysLater = TUESDAY_10 + 3 * DAY_MS + HOUR_MS;
    expect(rollForward(slot(TUESDAY_10, 2, daily()), threeDaysLater)).toEqual({
      endedStarts: [TUESDAY_10, TUESDAY_10 + DAY_MS, TUESDAY_10 + 2 * DAY_MS],
      currentStart: TUESDAY_10 + 3 * DAY_MS,
    });
    expect(rollForward(slot(TUESDAY_10, 2, weekly()), TUESDAY_10 + 2 * HOUR_MS)).toEqual({
      endedStarts: [TUESDAY_10],
      currentStart: TUESDAY_10 + 7 * DAY_MS,
    });
  });
});

describe('time states and the change cutoff', () => {
  const occurrence = { startTime: TUESDAY_10, endTime: TUESDAY_10 + 2 * HOUR_MS, finishReason: null };

  it('is upcoming until 15 minutes before the start, ready until the end, then over', () => {
    expect(timeStateOf(occurrence, TUESDAY_10 - 15 * MINUTE_MS - 1)).toBe('upcoming');
    expect(timeStateOf(occurrence, TUESDAY_10 - 15 * MINUTE_MS)).toBe('ready');
    expect(timeStateOf(occurrence, TUESDAY_10 + 2 * HOUR_MS - 1)).toBe('ready');
    expect(timeStateOf(occurrence, TUESDAY_10 + 2 * HOUR_MS)).toBe('over');
    expect(timeStateOf({ ...occurrence, finishReason: 'skipped' }, TUESDAY_10 - DAY_MS)).toBe('over');
  });

  it('gives the API status: the time state, then how the occurrence finished', () => {
    expect(reservationStatus(occurrence, TUESDAY_10 - DAY_MS)).toBe('upcoming');
    expect(reservationStatus(occurrence, TUESDAY_10)).toBe('ready');
    expect(reservationStatus(occurrence, TUESDAY_10 + 2 * HOUR_MS)).toBe('finished');
    expect(reservationStatus({ ...occurrence, finishReason: 'ended' }, TUESDAY_10 - DAY_MS)).toBe('finished');
    expect(reservationStatus({ ...occurrence, finishReason: 'skipped' }, TUESDAY_10 - DAY_MS)).toBe('skipped');
  });

  it('allows changes only while the start is more than 6 hours away', () => {
    expect(isChangeAllowed(TUESDAY_10, TUESDAY_10 - 21_600_001)).toBe(true);
    expect(isChangeAllowed(TUESDAY_10, TUESDAY_10 - 21_600_000)).toBe(false);
    expect(changeCutoff(TUESDAY_10)).toBe(TUESDAY_10 - 21_600_000);
    expect(isChangeAllowed(TUESDAY_10, TUESDAY_10 + 1)).toBe(false);
  });

  it('allows a skip only of a repeating booking more than 6 hours ahead', () => {
    const farAhead = TUESDAY_10 - 7 * HOUR_MS;
    expect(isSkipAllowed({ repeatType: 'weekly', startTime: TUESDAY_10 }, farAhead)).toBe(true);
    expect(isSkipAllowed({ repeatType: 'daily', startTime: TUESDAY_10 }, farAhead)).toBe(true);
    expect(isSkipAllowed({ repeatType: 'none', startTime: TUESDAY_10 }, farAhead)).toBe(false);
    expect(isSkipAllowed({ repeatType: 'weekly', startTime: TUESDAY_10 }, TUESDAY_10 - 6 * HOUR_MS)).toBe(false);
  });
});

describe('overlaps', () => {
  const overlaps = (candidate: BookedSlot, existing: BookedSlot) => overlapStart(candidate, existing) !== null;

  it('compares one-off bookings as half-open intervals', () => {
    const tenToNoon = slot(TUESDAY_10, 2, null);
    expect(overlaps(tenToNoon, slot(TUESDAY_10 + 2 * HOUR_MS, 1, null))).toBe(false);
    expect(overlaps(tenToNoon, slot(TUESDAY_10 + 105 * MINUTE_MS, 1, null))).toBe(true);
    expect(overlaps(tenToNoon, slot(TUESDAY_10 - HOUR_MS, 1, null))).toBe(false);
    expect(overlaps(tenToNoon, slot(TUESDAY_10 - HOUR_MS, 1.25, null))).toBe(true);
  });

  it('finds a one-off booking on a later occurrence of a repeating one', () => {
    const twoWeeksOn = slot(TUESDAY_10 + 14 * DAY_MS + HOUR_MS, 1, null);
    expect(overlaps(slot(TUESDAY_10, 2, weekly()), twoWeeksOn)).toBe(true);
    expect(overlaps(twoWeeksOn, slot(TUESDAY_10, 2, weekly()))).toBe(true);
    expect(overlaps(slot(TUESDAY_10, 2, null), twoWeeksOn)).toBe(false);
  });

  it('compares repeating patterns with each other', () => {
    const wednesday10 = TUESDAY_10 + DAY_MS;
    expect(overlaps(slot(TUESDAY_10, 2, daily([2])), slot(wednesday10, 2, weekly()))).toBe(false);
    expect(overlaps(slot(TUESDAY_10, 2, daily([2, 3])), slot(wednesday10 + 7 * DAY_MS, 2, weekly()))).toBe(true);
    expect(overlaps(slot(TUESDAY_10, 2, daily()), slot(TUESDAY_10 + 2 * HOUR_MS, 3, daily()))).toBe(false);
    // 10:00-18:00 every day against 17:00-18:00 every Monday, starting a week later.
    expect(overlaps(slot(TUESDAY_10, 8, daily()), slot(TUESDAY_10 + 6 * DAY_MS + 7 * HOUR_MS, 1, weekly()))).toBe(true);
  });

  it('finds an overlap that only a daylight saving change months ahead makes', () => {
    // Every day 1:00-3:00 and 3:00-4:00 in New York, from 21 November 2026.
    // On 14 March 2027 the clocks skip 2:00-3:00: 1:00 plus two hours is 4:00.
    const oneAm = Date.UTC(2026, 10, 21, 6);
    const threeAm = Date.UTC(2026, 10, 21, 8);
    expect(overlaps(slot(oneAm, 2, daily([0, 1, 2, 3, 4, 5, 6], NEW_YORK)), slot(threeAm, 1, daily([0, 1, 2, 3, 4, 5, 6], NEW_YORK)))).toBe(true);
    // Tokyo has no clock changes: the same pattern never meets.
    const oneAmTokyo = Date.UTC(2026, 10, 21, 16);
    const threeAmTokyo = Date.UTC(2026, 10, 21, 18);
    expect(overlaps(slot(oneAmTokyo, 2, daily()), slot(threeAmTokyo, 1, daily()))).toBe(false);
  });

  it('names the first existing slot that overlaps and the occurrence in the way', () => {
    const existing = [
      { id: 1, ...slot(TUESDAY_10 - DAY_MS, 1, null) },
      { id: 2, ...slot(TUESDAY_10 - 7 * DAY_MS, 1, weekly()) },
      { id: 3, ...slot(TUESDAY_10, 1, null) },
    ];
    expect(firstOverlap(slot(TUESDAY_10, 1, null), existing)).toEqual({ slot: existing[1], occurrenceStart: TUESDAY_10 });
    expect(firstOverlap(slot(TUESDAY_10 + 3 * HOUR_MS, 1, null), existing)).toBeNull();
  });

  it('finds no overlap among fifty daily bookings in a zone with daylight saving time', () => {
    const existing = Array.from({ length: 50 }, (_, index) =>
      slot(Date.UTC(2026, 10, 22) + index * 20 * MINUTE_MS, 0.25, daily([0, 1, 2, 3, 4, 5, 6], NEW_YORK)),
    );
    expect(firstOverlap(slot(Date.UTC(2026, 10, 23, 20), 1, daily([0, 1, 2, 3, 4, 5, 6], NEW_YORK)), existing)).toBeNull();
  });
});

describe('monthly hours', () => {
  // Wednesday 25 November 2026, 10:00 in Tokyo.
  const november25 = TUESDAY_10 + DAY_MS;

  it('counts the occurrences that start within the local month', () => {
    const november = { year: 2026, month: 11 };
    expect(hoursBookedInMonth([slot(november25, 1, daily())], november, TOKYO)).toBe(6);
    // Five Wednesdays in December 2026: 2, 9, 16, 23 and 30.
    expect(hoursBookedInMonth([slot(november25, 1.5, weekly())], { year: 2026, month: 12 }, TOKYO)).toBe(7.5);
    // 23:00 on 30 November in Tokyo is still November there; 01:00 on 1 December is not.
    const lateNight = Date.UTC(2026, 10, 30, 14);
    expect(hoursBookedInMonth([slot(lateNight, 2, null)], november, TOKYO)).toBe(2);
    expect(hoursBookedInMonth([slot(lateNight, 2, null)], november, 'UTC')).toBe(2);
    expect(hoursBookedInMonth([slot(Date.UTC(2026, 10, 30, 16), 2, null)], november, TOKYO)).toBe(0);
  });

  it("sets a candidate against the light plan's allowance for the month it starts in", () => {
    const allowance = PLANS.light.monthlyHours;
    const history = [slot(Date.UTC(2026, 10, 2, 1), 8, null), slot(Date.UTC(2026, 10, 9, 1), 4, null)];
    const withTwoHours = monthlyHoursWith(slot(november25, 2, null), history, TOKYO, allowance);
    expect(withTwoHours).toEqual({ month: { year: 2026, month: 11 }, bookedHours: 12, candidateHours: 2, allowedHours: 15 });
    expect(exceedsAllowance(withTwoHours)).toBe(false);
    expect(exceedsAllowance(monthlyHoursWith(slot(november25, 3, null), history, TOKYO, allowance))).toBe(false);
    expect(exceedsAllowance(monthlyHoursWith(slot(november25, 3.25, null), history, TOKYO, allowance))).toBe(true);
    // Daily for the six days left of November: 6 x 1 h on top of 12 h.
    expect(exceedsAllowance(monthlyHoursWith(slot(november25, 1, daily()), history, TOKYO, allowance))).toBe(true);
    // A booking that starts in December is set against December.
    const december = monthlyHoursWith(slot(Date.UTC(2026, 11, 1, 1), 3.25, null), history, TOKYO, allowance);
    expect(december.bookedHours).toBe(0);
    expect(exceedsAllowance(december)).toBe(false);
  });
});

describe('pauses', () => {
  const november29 = { year: 2026, month: 11, day: 29 };
  const december5 = { year: 2026, month: 12, day: 5 };

  it('offers tomorrow as the first day while its midnight is more than 6 hours ahead, else the day after', () => {
    // 17:59 in Tokyo: tomorrow's midnight is 6 h 1 min ahead.
    const before18 = Date.UTC(2026, 10, 28, 8, 59);
    expect(firstPausableDay(before18, TOKYO)).toEqual({ year: 2026, month: 11, day: 29 });
    expect(pauseProblem(november29, december5, before18, TOKYO)).toBeNull();
    // 18:00 in Tokyo: tomorrow's midnight is 6 h ahead, which is no longer more than 6 hours.
    const at18 = Date.UTC(2026, 10, 28, 9);
    expect(pauseProblem(november29, december5, at18, TOKYO)).toBe('no_change_within_6_hours');
    const offered = firstPausableDay(at18, TOKYO);
    expect(offered).toEqual({ year: 2026, month: 11, day: 30 });
    expect(pauseProblem(offered, december5, at18, TOKYO)).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { clockLabel } from '../../../shared/time-zone.ts';
import {
  bookingRequestOf,
  canRememberWork,
  dateOptions,
  dayMinutes,
  editBookingForm,
  formProblem,
  formStartTime,
  hourOptions,
  isUnchangedEdit,
  newBookingForm,
  rememberedAfterBooking,
  scheduleOptions,
  steppedDuration,
  timeOptions,
  timesInHour,
  withDuration,
  withHour,
  withNewSchedule,
  withWeekday,
} from './booking-form.ts';
import { DURATION_OPTIONS, durationLabel } from './duration-options.ts';

const TOKYO = '+09:00';
// 2026-11-21 10:07 in Tokyo (a Saturday).
const NOW = Date.UTC(2026, 10, 21, 1, 7);

describe('booking form options', () => {
  it('offers 14 dates from today in the guest zone', () => {
    const dates = dateOptions(NOW, TOKYO);
    expect(dates).toHaveLength(14);
    expect(dates[0]?.key).toBe('2026-11-21');
    expect(dates[0]?.weekday).toBe(6);
    expect(dates[13]?.key).toBe('2026-12-04');
  });

  it('keeps an edited date that is no longer on offer', () => {
    const dates = dateOptions(NOW, TOKYO, '2026-11-20');
    expect(dates).toHaveLength(15);
    expect(dates[0]?.key).toBe('2026-11-20');
  });

  it('offers 96 start times every 15 minutes, marking passed ones', () => {
    const times = timeOptions('2026-11-21', NOW, TOKYO);
    expect(times).toHaveLength(96);
    expect(times.map((time) => time.label).slice(0, 3)).toEqual(['00:00', '00:15', '00:30']);
    expect(times.find((time) => time.label === '10:00')?.passed).toBe(true);
    expect(times.find((time) => time.label === '10:15')?.passed).toBe(false);
  });

  it('offers durations 1 to 8 hours in 0.25 steps, the first by default', () => {
    expect(DURATION_OPTIONS).toHaveLength(29);
    expect(DURATION_OPTIONS[0]).toBe(1);
    expect(DURATION_OPTIONS[28]).toBe(8);
    expect(durationLabel(1.25)).toBe('1:15');
    expect(clockLabel(9 * 60 + 5)).toBe('09:05');
  });

  it('defaults to the first date and the nearest future 15-minute start', () => {
    const form = newBookingForm(NOW, TOKYO);
    expect(form.date).toBe('2026-11-21');
    expect(clockLabel(form.minutes)).toBe('10:15');
    expect(form.duration).toBe(1);
    expect(form.repeatType).toBe('none');
    expect(form.dailyRepeatSettings).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(form.schedules).toEqual([]);
    expect(formStartTime(form, TOKYO)).toBe(Date.UTC(2026, 10, 21, 1, 15));
  });

  it('moves to the next day late at night', () => {
    const form = newBookingForm(Date.UTC(2026, 10, 21, 14, 50), TOKYO); // 23:50 Tokyo
    expect(form.date).toBe('2026-11-22');
    expect(form.minutes).toBe(0);
  });

  it('offers schedule minutes from 5 in 5s below the duration; new entries at 5', () => {
    expect(scheduleOptions({ duration: 1 })).toEqual(Array.from({ length: 11 }, (_, i) => (i + 1) * 5));
    expect(scheduleOptions({ duration: 8 })).toHaveLength(95);
    const form = withNewSchedule(newBookingForm(NOW, TOKYO));
    expect(form.schedules).toEqual([{ minutes: 5, title: '' }]);
  });

  it('moves schedule entries inside a shorter duration', () => {
    const form = { ...newBookingForm(NOW, TOKYO), duration: 2, schedules: [{ minutes: 90, title: 'a' }] };
    expect(withDuration(form, 1).schedules).toEqual([{ minutes: 55, title: 'a' }]);
  });

  it('keeps daily weekdays in order', () => {
    const form = { ...newBookingForm(NOW, TOKYO), dailyRepeatSettings: [1, 3] };
    expect(withWeekday(form, 0, true).dailyRepeatSettings).toEqual([0, 1, 3]);
    expect(withWeekday(form, 3, false).dailyRepeatSettings).toEqual([1]);
  });
});

describe('what the form sends', () => {
  it('drops schedule entries with an empty title and trims work', () => {
    const form = {
      ...newBookingForm(NOW, TOKYO),
      work: '  essay ',
      schedules: [
        { minutes: 5, title: ' ' },
        { minutes: 10, title: 'outline' },
      ],
    };
    expect(bookingRequestOf(form, TOKYO)).toMatchObject({ work: 'essay', schedules: [{ minutes: 10, title: 'outline' }] });
  });

  it('reports the shared rules: a passed time, a daily repeat without its weekday, no weekdays', () => {
    const form = newBookingForm(NOW, TOKYO);
    expect(formProblem(form, NOW, TOKYO)).toBeNull();
    expect(formProblem({ ...form, minutes: 10 * 60 }, NOW, TOKYO)).toBe('start_time_passed');
    expect(formProblem({ ...form, repeatType: 'daily', dailyRepeatSettings: [1] }, NOW, TOKYO)).toBe('start_not_on_repeat_weekday');
    expect(formProblem({ ...form, repeatType: 'daily', dailyRepeatSettings: [] }, NOW, TOKYO)).toBe('repeat_weekdays_invalid');
  });

  it('ignores an edit that changes nothing', () => {
    const original = bookingRequestOf({ ...newBookingForm(NOW, TOKYO), work: 'essay', schedules: [{ minutes: 5, title: 'a' }] }, TOKYO);
    const form = editBookingForm(original, TOKYO);
    expect(isUnchangedEdit(form, original, TOKYO)).toBe(true);
    expect(isUnchangedEdit({ ...form, schedules: [...form.schedules, { minutes: 10, title: '' }] }, original, TOKYO)).toBe(true);
    expect(isUnchangedEdit({ ...form, work: 'essay!' }, original, TOKYO)).toBe(false);
    expect(isUnchangedEdit({ ...form, minutes: form.minutes + 15 }, original, TOKYO)).toBe(false);
  });
});

describe('remembered works', () => {
  it('shows the checkbox only for new non-empty work', () => {
    expect(canRememberWork('', [])).toBe(false);
    expect(canRememberWork('  ', [])).toBe(false);
    expect(canRememberWork('essay', ['essay'])).toBe(false);
    expect(canRememberWork('essay', ['code'])).toBe(true);
  });

  it('adds the work only when ticked and new', () => {
    expect(rememberedAfterBooking(' essay ', true, ['code'])).toEqual(['code', 'essay']);
    expect(rememberedAfterBooking('essay', false, ['code'])).toEqual(['code']);
    expect(rememberedAfterBooking('code', true, ['code'])).toEqual(['code']);
  });
});

describe('the start-time picker', () => {
  const today = newBookingForm(NOW, TOKYO).date;
  const times = timeOptions(today, NOW, TOKYO);

  it('offers 24 hours, those gone by today passed, and four quarters in each', () => {
    const hours = hourOptions(times);
    expect(hours).toHaveLength(24);
    expect(hours.filter((hour) => hour.passed).map((hour) => hour.hour)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    // 10:07: 10:00 has passed, 10:15 has not, so the hour is open.
    expect(timesInHour(times, 10).map((time) => [time.label, time.passed])).toEqual([
      ['10:00', true],
      ['10:15', false],
      ['10:30', false],
      ['10:45', false],
    ]);
  });

  it('keeps the minute when the hour changes, else takes the hour’s first time to come', () => {
    const form = { ...newBookingForm(NOW, TOKYO), minutes: 14 * 60 };
    expect(withHour(form, times, 16).minutes).toBe(16 * 60);
    expect(withHour(form, times, 10).minutes).toBe(10 * 60 + 15);
    expect(withHour(form, times, 3)).toEqual(form);
  });

  it('brings a time past midnight back into the day', () => {
    expect(dayMinutes(23 * 60 + 30 + 90)).toBe(60);
    expect(dayMinutes(10 * 60)).toBe(600);
  });

  it('steps the duration through the offered ones, staying at either end', () => {
    const first = DURATION_OPTIONS[0] ?? 0;
    const last = DURATION_OPTIONS[DURATION_OPTIONS.length - 1] ?? 0;
    expect(steppedDuration(first, 1)).toBe(DURATION_OPTIONS[1]);
    expect(steppedDuration(first, -1)).toBe(first);
    expect(steppedDuration(last, 1)).toBe(last);
  });
});

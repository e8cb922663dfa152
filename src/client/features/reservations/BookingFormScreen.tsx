import CalendarPlus from 'lucide-react/icons/calendar-plus';
import ListPlus from 'lucide-react/icons/list-plus';
import Minus from 'lucide-react/icons/minus';
import Plus from 'lucide-react/icons/plus';
import Save from 'lucide-react/icons/save';
import X from 'lucide-react/icons/x';
import { useEffect, useId, useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { REPEAT_TYPES } from '../../../shared/constants.ts';
import type { Reservation } from '../../../shared/api/reservation.ts';
import { message } from '../../../shared/messages.ts';
import { PLANS, lightHoursLeft } from '../../../shared/plans.ts';
import { bookingBlock, isChangeAllowed, type BookingProblem } from '../../../shared/reservations.ts';
import { useGuest } from '../../app/session.ts';
import { getLocal, putLocal } from '../../app/localDb.ts';
import { Button } from '../../ui/Button.tsx';
import { useFieldErrors, type FieldErrors, type RefusalFields } from '../../app/fieldErrors.ts';
import { SelectField, TextField, useFieldMessage } from '../../ui/Field.tsx';
import { SegmentedControl } from '../../ui/SegmentedControl.tsx';
import { useReservationReadListQuery } from './api.ts';
import { againBooking, againStart, bookAgainOf } from './book-again.ts';
import { bookingDraftOf, type PhoneGateState } from './booking-draft.ts';
import { useReservationCreateMutation, useReservationUpdateMutation } from './bookingApi.ts';
import { BookingBlockNotice } from './BookingBlocks.tsx';
import { ReservationPending, useReservationOfRoute } from './ReservationOfRoute.tsx';
import { clockLabel } from '../../../shared/time-zone.ts';
import {
  bookingRequestOf,
  canRememberWork,
  dateOptions,
  dayMinutes,
  editBookingForm,
  formProblem,
  hourOptions,
  isUnchangedEdit,
  newBookingForm,
  rememberedAfterBooking,
  scheduleOptions,
  steppedDuration,
  timeOptions,
  timesInHour,
  withDate,
  withDuration,
  withHour,
  withNewSchedule,
  withWeekday,
  type BookingFormState,
} from './booking-form.ts';
import { DURATION_OPTIONS, durationLabel } from './duration-options.ts';
import { useLanguage, useTimeZone, weekdayName } from './common.ts';

const REMEMBERED_ID = 'list';

/** The parts of the booking form a message stands beside. */
type BookingField = 'date' | 'time' | 'duration' | 'weekdays' | 'work' | 'schedules';

/**
 * The part of the form each booking rule concerns, checked here before
 * sending (formProblem) and by the server; a refusal of none of them (the
 * plan, the phone, a suspension) goes to the banner.
 */
const BOOKING_FIELDS = {
  duration_not_offered: 'duration',
  start_time_not_on_step: 'time',
  start_time_passed: 'time',
  reservation_overlap: 'time',
  start_date_not_offered: 'date',
  repeat_weekdays_invalid: 'weekdays',
  start_not_on_repeat_weekday: 'weekdays',
  schedule_minutes_not_offered: 'schedules',
  schedule_title_invalid: 'schedules',
  work_invalid: 'work',
} as const satisfies RefusalFields<BookingField> & Record<BookingProblem, BookingField>;

/** The booking form's errors: the first rule the form breaks, beside its part, before sending; then the server's refusal. */
function useBookingErrors() {
  const language = useLanguage();
  const timeZone = useTimeZone();
  const errors = useFieldErrors<BookingField>(BOOKING_FIELDS);
  return {
    ...errors,
    /** Whether the form keeps the rules now; if not, says which beside its part. */
    passes(form: BookingFormState): boolean {
      const broken = formProblem(form, Date.now(), timeZone);
      return errors.show(broken === null ? {} : { [BOOKING_FIELDS[broken]]: message(language, broken) });
    },
  };
}

/** `Nov` / `11月` of a date in the strip. */
function monthName(date: { year: number; month: number; day: number }, language: string): string {
  return new Intl.DateTimeFormat(language, { timeZone: 'UTC', month: 'short' }).format(Date.UTC(date.year, date.month - 1, date.day));
}

function useRememberedWorks(): [string[], (works: string[]) => void] {
  const [works, setWorks] = useState<string[]>([]);
  useEffect(() => {
    let alive = true;
    getLocal<string[]>('rememberedWorks', REMEMBERED_ID)
      .then((stored) => {
        if (alive && Array.isArray(stored)) setWorks(stored);
      })
      .catch(() => undefined);
    return () => {
      alive = false;
    };
  }, []);
  const save = (next: string[]) => {
    setWorks(next);
    void putLocal('rememberedWorks', REMEMBERED_ID, next).catch(() => undefined);
  };
  return [works, save];
}

interface FormProps {
  initial: BookingFormState;
  original: Reservation | null;
  onSubmit: (form: BookingFormState) => void;
  /** What is wrong, beside the part it concerns. */
  errors: FieldErrors<BookingField>;
  /** What is wrong with no part of it (a change too close to the start). */
  problem?: string | null;
}

function BookingForm({ initial, original, onSubmit, errors, problem = null }: FormProps) {
  const { t } = useTranslation('reservations');
  const language = useLanguage();
  const timeZone = useTimeZone();
  const [now] = useState(() => Date.now());
  const [form, setForm] = useState(initial);
  const [showHelp, setShowHelp] = useState(false);
  const [remembered] = useRememberedWorks();
  const id = useId();
  const dates = useMemo(() => dateOptions(now, timeZone, original === null ? undefined : initial.date), [now, timeZone, original, initial.date]);
  const times = useMemo(() => timeOptions(form.date, now, timeZone), [form.date, now, timeZone]);
  const minuteOptions = scheduleOptions(form);
  const endMinutes = dayMinutes(form.minutes + Math.round(form.duration * 60));
  const dateMessage = useFieldMessage({ error: errors.date });
  // Under the hour and the minutes together, which it concerns, and in the width of both.
  const timeMessage = useFieldMessage({ error: errors.time });
  const durationMessage = useFieldMessage({ error: errors.duration });
  const weekdaysMessage = useFieldMessage({ error: errors.weekdays });
  const schedulesMessage = useFieldMessage({ error: errors.schedules });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit(form);
  };

  return (
    <form className="booking-form card" onSubmit={submit} noValidate>
      <fieldset className="field date-strip" {...dateMessage.ties}>
        <legend>{t('start_date')}</legend>
        <div className="date-strip-options">
          {dates.map((date) => (
            <label key={date.key} className="date-chip">
              <input type="radio" name={`${id}-date`} value={date.key} checked={form.date === date.key} onChange={() => setForm(withDate(form, date.key))} />
              <span className="date-chip-weekday">{weekdayName(date.weekday, language)}</span>
              <span className="date-chip-day">{date.date.day}</span>
              <span className="date-chip-month">{monthName(date.date, language)}</span>
            </label>
          ))}
        </div>
        {dateMessage.shown}
      </fieldset>
      <fieldset className="field start-time" {...timeMessage.ties}>
        <legend>{t('start_time')}</legend>
        <div className="start-time-controls">
          <SelectField
            label={t('hour')}
            value={String(Math.floor(form.minutes / 60))}
            options={hourOptions(times).map(({ hour, passed }) => ({ value: String(hour), label: t('hour_option', { hour }), disabled: passed }))}
            onValueChange={(hour) => setForm(withHour(form, times, Number(hour)))}
          />
          <SegmentedControl
            legend={t('minutes')}
            value={String(form.minutes)}
            options={timesInHour(times, Math.floor(form.minutes / 60)).map((time) => ({
              value: String(time.minutes),
              label: `:${String(time.minutes % 60).padStart(2, '0')}`,
              disabled: time.passed,
            }))}
            onValueChange={(minutes) => setForm({ ...form, minutes: Number(minutes) })}
          />
        </div>
        {timeMessage.shown}
      </fieldset>
      <div className="field duration-stepper" role="group" aria-labelledby={`${id}-duration`} {...durationMessage.ties}>
        <span id={`${id}-duration`} className="field-label">
          {t('duration')}
        </span>
        <div className="duration-stepper-row">
          <button
            type="button"
            className="icon-button"
            aria-label={t('shorter')}
            disabled={form.duration === DURATION_OPTIONS[0]}
            onClick={() => setForm(withDuration(form, steppedDuration(form.duration, -1)))}
          >
            <Minus aria-hidden="true" focusable="false" size={20} />
          </button>
          <output className="duration-value" aria-live="polite" data-testid="duration">
            {durationLabel(form.duration)}
          </output>
          <button
            type="button"
            className="icon-button"
            aria-label={t('longer')}
            disabled={form.duration === DURATION_OPTIONS[DURATION_OPTIONS.length - 1]}
            onClick={() => setForm(withDuration(form, steppedDuration(form.duration, 1)))}
          >
            <Plus aria-hidden="true" focusable="false" size={20} />
          </button>
          <span className="duration-span">{t('span', { start: clockLabel(form.minutes), end: clockLabel(endMinutes) })}</span>
        </div>
        {durationMessage.shown}
      </div>
      <SegmentedControl
        legend={t('repeat')}
        value={form.repeatType}
        options={REPEAT_TYPES.map((type) => ({ value: type, label: t(`repeat_${type}`) }))}
        onValueChange={(repeatType) => setForm({ ...form, repeatType })}
      />
      {form.repeatType === 'daily' ? (
        <fieldset className="field weekdays" {...weekdaysMessage.ties}>
          <legend>{t('weekdays')}</legend>
          <div className="weekday-chips">
            {[0, 1, 2, 3, 4, 5, 6].map((weekday) => (
              <label key={weekday} className="weekday-chip">
                <input
                  type="checkbox"
                  checked={form.dailyRepeatSettings.includes(weekday)}
                  onChange={(event) => setForm(withWeekday(form, weekday, event.target.checked))}
                />
                <span>{weekdayName(weekday, language)}</span>
              </label>
            ))}
          </div>
          {weekdaysMessage.shown}
        </fieldset>
      ) : null}
      <TextField label={t('work')} type="text" value={form.work} maxLength={200} error={errors.work} onValueChange={(work) => setForm({ ...form, work })}>
        <button type="button" className="link-button" aria-expanded={showHelp} aria-controls={`${id}-help`} onClick={() => setShowHelp(!showHelp)}>
          {t('work_help_toggle')}
        </button>
        {showHelp ? (
          <p id={`${id}-help`} className="help">
            {t('work_help')}
          </p>
        ) : null}
        {remembered.length > 0 ? (
          <div className="remembered" role="group" aria-label={t('remembered_works')}>
            {remembered.map((work) => (
              <button key={work} type="button" className="chip" onClick={() => setForm({ ...form, work })}>
                {work}
              </button>
            ))}
          </div>
        ) : null}
        {original === null && canRememberWork(form.work, remembered) ? (
          <label className="checkbox">
            <input type="checkbox" checked={form.rememberWork} onChange={(event) => setForm({ ...form, rememberWork: event.target.checked })} />
            {t('remember_work')}
          </label>
        ) : null}
      </TextField>
      <fieldset className="field schedules" {...schedulesMessage.ties}>
        <legend>{t('schedules')}</legend>
        <p className="schedule-edge">
          <time>{clockLabel(form.minutes)}</time> {t('plan_start')}
        </p>
        {form.schedules.map((schedule, index) => (
          <div className="schedule" key={index}>
            <time className="schedule-at">{clockLabel(dayMinutes(form.minutes + schedule.minutes))}</time>
            <label>
              <span className="visually-hidden">{t('schedule_minutes')}</span>
              <select
                value={schedule.minutes}
                onChange={(event) =>
                  setForm({ ...form, schedules: form.schedules.map((s, i) => (i === index ? { ...s, minutes: Number(event.target.value) } : s)) })
                }
              >
                {minuteOptions.map((minutes) => (
                  <option key={minutes} value={minutes}>
                    {t('minutes_value', { minutes })}
                  </option>
                ))}
              </select>
            </label>
            <label>
              <span className="visually-hidden">{t('schedule_title')}</span>
              <input
                type="text"
                value={schedule.title}
                placeholder={t('schedule_title')}
                maxLength={100}
                onChange={(event) => setForm({ ...form, schedules: form.schedules.map((s, i) => (i === index ? { ...s, title: event.target.value } : s)) })}
              />
            </label>
            <Button
              variant="ghost"
              icon={X}
              className="schedule-remove"
              onClick={() => setForm({ ...form, schedules: form.schedules.filter((_, i) => i !== index) })}
            >
              {t('schedule_remove')}
            </Button>
          </div>
        ))}
        <Button variant="secondary" icon={ListPlus} className="schedule-add" onClick={() => setForm(withNewSchedule(form))}>
          {t('schedule_add')}
        </Button>
        <p className="schedule-edge">
          <time>{clockLabel(endMinutes)}</time> {t('plan_end')}
        </p>
        {schedulesMessage.shown}
      </fieldset>
      {problem !== null ? (
        <p className="form-problem" role="alert">
          {problem}
        </p>
      ) : null}
      <Button type="submit" icon={original === null ? CalendarPlus : Save} wide>
        {original === null ? t('book') : t('save')}
      </Button>
    </form>
  );
}

/** `/reservation/add` (docs/client.md, Form rules). */
export function ReservationAddScreen() {
  const { t } = useTranslation('reservations');
  const navigate = useNavigate();
  const timeZone = useTimeZone();
  const guest = useGuest();
  const [create] = useReservationCreateMutation();
  const [remembered, saveRemembered] = useRememberedWorks();
  const errors = useBookingErrors();
  const [now] = useState(() => Date.now());
  // What the guest had entered before the phone gate (booking-draft.ts), back from /guest/editPhone.
  const draft = bookingDraftOf(useLocation().state);
  // "Book the next one" after a report: the finished jail's work, length and plan at the chosen day (book-again.ts).
  const again = bookAgainOf(useSearchParams()[0]);
  const list = useReservationReadListQuery(undefined, { skip: again === null });
  const source = again === null ? undefined : list.data?.reservations.find((reservation) => reservation.id === again.id);
  if (again !== null && source === undefined && list.isFetching) return <ReservationPending title={t('add_title')} isFetching />;
  const initial =
    again === null || source === undefined
      ? (draft ?? newBookingForm(now, timeZone))
      : editBookingForm(againBooking(source, againStart(source.startTime, again.days, now, timeZone)), timeZone);
  // What stops booking is said before the form, with what to do about it.
  const lightLeft = guest !== null && guest.subscriptionPlan === PLANS.light.code ? lightHoursLeft(guest.totalDurationThisMonth) : null;
  const block = guest === null ? null : (bookingBlock(guest, now) ?? (lightLeft === 0 ? { reason: 'light_plan_used' as const } : null));
  if (block !== null) {
    return (
      <div className="screen reservations-screen">
        <h1>{t('add_title')}</h1>
        <BookingBlockNotice block={block} />
      </div>
    );
  }
  const submit = async (form: BookingFormState) => {
    if (!errors.passes(form)) return;
    // The phone gate: booking needs a phone number (docs/rules.md). The number is asked for, with why, and the form comes back as it was.
    if (guest !== null && (guest.phone === null || guest.phone === '')) {
      void navigate('/guest/editPhone', { state: { bookingDraft: form } satisfies PhoneGateState });
      return;
    }
    if (!errors.succeeded(await create(bookingRequestOf(form, timeZone) as Parameters<typeof create>[0]))) return;
    saveRemembered(rememberedAfterBooking(form.work, form.rememberWork, remembered));
    void navigate('/reservation/added');
  };
  return (
    <div className="screen reservations-screen">
      <h1>{t('add_title')}</h1>
      {lightLeft !== null ? <p className="booking-plan-note">{t('light_hours_left', { hours: lightLeft })}</p> : null}
      <BookingForm key={source?.id ?? 'new'} initial={initial} original={null} onSubmit={(form) => void submit(form)} errors={errors.errors} />
    </div>
  );
}

/** `/reservation/edit/:id`: the form pre-filled; hidden within 6 hours. */
export function ReservationEditScreen() {
  const { t } = useTranslation('reservations');
  const navigate = useNavigate();
  const timeZone = useTimeZone();
  const { id, reservation, isFetching } = useReservationOfRoute();
  const [update] = useReservationUpdateMutation();
  const errors = useBookingErrors();
  const [problem, setProblem] = useState<string | null>(null);
  const [now] = useState(() => Date.now());
  if (reservation === null) return <ReservationPending title={t('edit_title')} isFetching={isFetching} />;
  if (!isChangeAllowed(reservation.startTime, now) || reservation.isFinished) {
    return (
      <div className="screen reservations-screen">
        <h1>{t('edit_title')}</h1>
        <p role="alert">{t('no_change_6h')}</p>
      </div>
    );
  }
  const submit = async (form: BookingFormState) => {
    setProblem(null);
    if (isUnchangedEdit(form, reservation, timeZone)) return;
    if (!isChangeAllowed(reservation.startTime, Date.now())) {
      setProblem(t('no_change_6h'));
      return;
    }
    if (!errors.passes(form)) return;
    if (errors.succeeded(await update({ id, ...bookingRequestOf(form, timeZone) } as Parameters<typeof update>[0]))) void navigate(`/reservation/edited/${id}`);
  };
  return (
    <div className="screen reservations-screen">
      <h1>{t('edit_title')}</h1>
      <BookingForm
        key={reservation.id}
        initial={editBookingForm(reservation, timeZone)}
        original={reservation}
        onSubmit={(form) => void submit(form)}
        errors={errors.errors}
        problem={problem}
      />
    </div>
  );
}

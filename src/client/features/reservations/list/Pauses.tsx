import CalendarOff from 'lucide-react/icons/calendar-off';
import Play from 'lucide-react/icons/play';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFieldErrors } from '../../../app/fieldErrors.ts';
import { Button } from '../../../ui/Button.tsx';
import { TextField } from '../../../ui/Field.tsx';
import { message } from '../../../../shared/messages.ts';
import { MAX_PAUSE_DAYS, MAX_PAUSE_DAYS_AHEAD } from '../../../../shared/constants.ts';
import { firstPausableDay, pauseProblem } from '../../../../shared/reservations.ts';
import { addDays, type LocalDate } from '../../../../shared/time-zone.ts';
import { dateWithWeekday, useLanguage, useNow, useTimeZone } from '../common.ts';
import { usePauseCreateMutation, usePauseEndMutation, usePauseReadListQuery } from '../pauseApi.ts';
import './pauses.css';

/** `2030-01-07`: a local date as a date input holds it. */
function dayText(date: LocalDate): string {
  return `${date.year}-${String(date.month).padStart(2, '0')}-${String(date.day).padStart(2, '0')}`;
}

/** A date input's value as a local date; null when empty or not a date. */
function dayOf(text: string): LocalDate | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  return match === null ? null : { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) };
}

/** The last day a pause holds, from when the repeats resume: the day before a local midnight, else that day. */
export function lastPausedDay(toTime: number, timeZone: string, language: string): string {
  return dateWithWeekday(toTime - 1, timeZone, language);
}

type PauseField = 'firstDay' | 'lastDay';

/** The form of a new pause: two dates, each error beside its field (docs/rules.md, Pauses). */
function PauseForm({ onDone }: { onDone(): void }) {
  const { t } = useTranslation('reservations/list');
  const language = useLanguage();
  const timeZone = useTimeZone();
  const now = useNow(60_000);
  // First offered: a week from the first day that may be paused.
  const firstOffer = firstPausableDay(now, timeZone);
  const [firstDay, setFirstDay] = useState(dayText(firstOffer));
  const [lastDay, setLastDay] = useState(dayText(addDays(firstOffer, 6)));
  const [create, creating] = usePauseCreateMutation();
  const form = useFieldErrors<PauseField>({
    pause_day_invalid: 'firstDay',
    no_change_within_6_hours: 'firstDay',
    pause_too_far: 'firstDay',
    pause_overlap: 'firstDay',
    pause_last_day_before_first: 'lastDay',
    pause_too_long: 'lastDay',
  });

  async function submit(event: FormEvent) {
    event.preventDefault();
    const first = dayOf(firstDay);
    const last = dayOf(lastDay);
    const chooseDate = message(language, 'pause_day_invalid');
    if (first === null || last === null) {
      form.show({ firstDay: first === null ? chooseDate : undefined, lastDay: last === null ? chooseDate : undefined });
      return;
    }
    // The shared rule first, so that most mistakes show without a call.
    const problem = pauseProblem(first, last, now, timeZone);
    if (problem !== null) {
      const days = problem === 'pause_too_far' ? MAX_PAUSE_DAYS_AHEAD : MAX_PAUSE_DAYS;
      const field: PauseField = problem === 'pause_last_day_before_first' || problem === 'pause_too_long' ? 'lastDay' : 'firstDay';
      form.show({ [field]: message(language, problem, { days }) });
      return;
    }
    form.show({});
    if (form.succeeded(await create({ firstDay, lastDay }))) onDone();
  }

  return (
    <form className="pause-form card" onSubmit={submit} noValidate aria-label={t('pause_repeats')}>
      <p className="pause-lead">{t('pause_lead')}</p>
      <TextField type="date" label={t('pause_first_day')} required value={firstDay} error={form.errors.firstDay} onValueChange={setFirstDay} />
      <TextField type="date" label={t('pause_last_day')} required value={lastDay} error={form.errors.lastDay} onValueChange={setLastDay} />
      <div className="pause-actions">
        <Button type="submit" icon={CalendarOff} disabled={creating.isLoading}>
          {t('pause_submit')}
        </Button>
        <Button variant="ghost" onClick={onDone}>
          {t('pause_cancel')}
        </Button>
      </div>
    </form>
  );
}

/** "Pause repeats": a button that opens the form of a new pause. */
export function PauseRepeats() {
  const { t } = useTranslation('reservations/list');
  const [open, setOpen] = useState(false);
  return open ? (
    <PauseForm onDone={() => setOpen(false)} />
  ) : (
    <Button variant="secondary" icon={CalendarOff} onClick={() => setOpen(true)}>
      {t('pause_repeats')}
    </Button>
  );
}

/** The guest's pauses not yet over, a line each with "End the pause", and "Pause repeats". */
export function PauseSection() {
  const { t } = useTranslation('reservations/list');
  const language = useLanguage();
  const timeZone = useTimeZone();
  const pauses = usePauseReadListQuery().data?.pauses ?? [];
  const [end, ending] = usePauseEndMutation();
  return (
    <section className="pause-section" aria-label={t('pause_section')}>
      {pauses.map((pause) => (
        <p className="pause-banner" key={pause.id} data-testid="pause-banner">
          <span>
            {t('pause_banner', {
              first: dateWithWeekday(pause.fromTime, timeZone, language),
              last: lastPausedDay(pause.toTime, timeZone, language),
            })}
          </span>
          <Button variant="ghost" icon={Play} disabled={ending.isLoading} onClick={() => void end({ id: pause.id })}>
            {t('pause_end')}
          </Button>
        </p>
      ))}
      <PauseRepeats />
    </section>
  );
}

import Play from 'lucide-react/icons/play';
import Zap from 'lucide-react/icons/zap';
import { Button } from '../../ui/Button.tsx';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { WORK_MAX_LENGTH } from '../../../shared/reservations.ts';
import { putLocal } from '../../app/localDb.ts';
import { SelectField, TextField } from '../../ui/Field.tsx';
import { DURATION_OPTIONS, durationLabel } from '../reservations/duration-options.ts';
import { TRY_ENTRY_ID, type TryEntry } from './try-entry.ts';
import './tryAnyway.css';

/**
 * The try-anyway entry on the empty reservation list: 'Try it now' opens a
 * small form (work, duration); starting stores the entry on the device and
 * goes to /jail/live/try, which makes the jail.
 */
export function TryOffer() {
  const { t } = useTranslation('tryAnyway');
  const id = useId();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [entry, setEntry] = useState<TryEntry>({ work: '', duration: DURATION_OPTIONS[0] ?? 1 });

  const start = (event: FormEvent) => {
    event.preventDefault();
    void putLocal('rememberedWorks', TRY_ENTRY_ID, { work: entry.work.trim(), duration: entry.duration })
      .catch(() => undefined)
      .then(() => navigate('/jail/live/try'));
  };

  return (
    <section className="try-offer" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('offer_title')}</h2>
      <p>{t('offer_text')}</p>
      {open ? (
        <form className="try-form" onSubmit={start}>
          <TextField label={t('work')} type="text" value={entry.work} maxLength={WORK_MAX_LENGTH} onValueChange={(work) => setEntry({ ...entry, work })} />
          <SelectField
            label={t('duration')}
            value={String(entry.duration)}
            options={DURATION_OPTIONS.map((hours) => ({ value: String(hours), label: durationLabel(hours) }))}
            onValueChange={(hours) => setEntry({ ...entry, duration: Number(hours) })}
          />
          <div className="try-actions">
            <Button type="submit" icon={Play}>
              {t('start')}
            </Button>
            <Button variant="secondary" onClick={() => setOpen(false)}>
              {t('cancel')}
            </Button>
          </div>
        </form>
      ) : (
        <Button icon={Zap} onClick={() => setOpen(true)}>
          {t('try_now')}
        </Button>
      )}
    </section>
  );
}

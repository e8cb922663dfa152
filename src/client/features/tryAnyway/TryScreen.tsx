import ArrowLeft from 'lucide-react/icons/arrow-left';
import { ButtonLink } from '../../ui/Button.tsx';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { getLocal, putLocal } from '../../app/localDb.ts';
import { useReservationReadListQuery } from '../reservations/api.ts';
import { useReservationTryMutation } from './api.ts';
import { livePathOnceListed, TRY_ENTRY_ID, tryEntryOf } from './try-entry.ts';
import './tryAnyway.css';

/**
 * /jail/live/try (docs/try-anyway.md): reads the stored try-anyway
 * entry (none: back to /reservations), makes the trial jail from it, and
 * once the reservation list holds the new jail goes to /jail/live/{id}#try.
 */
export function TryScreen() {
  const { t } = useTranslation('tryAnyway');
  const navigate = useNavigate();
  const [makeTrial, { data, isError }] = useReservationTryMutation();
  // Subscribed, the list is read again when the trial is made (its tag is invalidated).
  const list = useReservationReadListQuery().data?.reservations ?? [];
  const started = useRef(false);
  const [trialId, setTrialId] = useState<number | null>(null);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void getLocal<unknown>('rememberedWorks', TRY_ENTRY_ID)
      .catch(() => null)
      .then((stored) => {
        const entry = tryEntryOf(stored);
        if (entry === null) {
          void navigate('/reservations', { replace: true });
          return;
        }
        // The entry is used once: a reload does not make another jail.
        void putLocal('rememberedWorks', TRY_ENTRY_ID, null).catch(() => undefined);
        void makeTrial(entry);
      });
  }, [makeTrial, navigate]);

  useEffect(() => {
    if (data !== undefined) setTrialId(data.reservation.id);
  }, [data]);

  const livePath = livePathOnceListed(list, trialId);
  useEffect(() => {
    if (livePath !== null) void navigate(livePath, { replace: true });
  }, [livePath, navigate]);

  return (
    <section className="try-screen" aria-labelledby="try-title">
      <h1 id="try-title">{t('waiting_title')}</h1>
      {isError ? (
        <>
          <p role="alert">{t('failed')}</p>
          <ButtonLink icon={ArrowLeft} to="/reservations">
            {t('back')}
          </ButtonLink>
        </>
      ) : (
        <p role="status">{t('waiting')}</p>
      )}
    </section>
  );
}

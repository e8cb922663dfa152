import { useTranslation } from 'react-i18next';

/**
 * An unsupported browser (docs/client.md, Failures the guest sees): 'Jail is not available on this environment…'
 * with a reload button. Shown by the reservation list, the preparation and
 * the live screen; worded once, in the list's namespace (`reservations/list`).
 */
export function UnsupportedNotice({ className }: { className?: string }) {
  const { t } = useTranslation('reservations/list');
  return (
    <div className={className} role="alert">
      <p>{t('unsupported')}</p>
      <button type="button" className="button" onClick={() => window.location.reload()}>
        {t('reload')}
      </button>
    </div>
  );
}

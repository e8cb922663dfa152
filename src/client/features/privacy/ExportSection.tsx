import Download from 'lucide-react/icons/download';
import { useTranslation } from 'react-i18next';
import { useIsFacilitatorSession } from '../../app/hooks.ts';
import { PATROL_RETENTION_DAYS } from '../../../shared/constants.ts';
import { Button } from '../../ui/Button.tsx';
import { Card } from '../../ui/Card.tsx';
import { useGuestExportMutation } from './api.ts';

/** What the archive holds, in the order of `warden.json` (docs/privacy.md, Export). */
const CONTENTS = ['export_account', 'export_jails', 'export_images', 'export_payments', 'export_settings'] as const;

/**
 * "Download your data" (docs/privacy.md, Export): one ZIP of everything
 * Warden keeps about the guest. A failure (a facilitator's session, too many
 * exports) is the call's banner, as for every call. A facilitator's session
 * is told that only the guest can.
 */
export function ExportSection() {
  const { t } = useTranslation('privacy');
  const facilitator = useIsFacilitatorSession();
  const [exportData, { data, isLoading }] = useGuestExportMutation();
  const status = isLoading ? t('export_preparing') : data === undefined ? '' : t('export_saved', { fileName: data.fileName });
  return (
    <Card title={t('export_heading')} className="privacy-section">
      <p>{t('export_intro')}</p>
      <ul className="privacy-list">
        {CONTENTS.map((item) => (
          <li key={item}>{t(item, { days: PATROL_RETENTION_DAYS })}</li>
        ))}
      </ul>
      <p className="privacy-note">{t('export_format')}</p>
      <p className="privacy-note" role="status" data-testid="export-status">
        {status}
      </p>
      {facilitator ? (
        <p className="privacy-facilitator" data-testid="export-facilitator">
          {t('export_facilitator')}
        </p>
      ) : (
        <Button icon={Download} disabled={isLoading} onClick={() => void exportData()}>
          {t('export_button')}
        </Button>
      )}
    </Card>
  );
}

import { useTranslation } from 'react-i18next';
import type { AccountAlert } from './rules.ts';

/** A form rule's alert under an 'Error' title (docs/client.md, Form rules), announced to screen readers. */
export function FormAlert({ alert }: { alert: AccountAlert | null }) {
  const { t } = useTranslation('account');
  return (
    <div role="alert" className="account-alert-region">
      {alert !== null && (
        <div className="account-alert">
          <p className="account-alert-title">{t('alert_error_title')}</p>
          <p>{t(alert)}</p>
        </div>
      )}
    </div>
  );
}

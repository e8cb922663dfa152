import RotateCw from 'lucide-react/icons/rotate-cw';
import { useEffect, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { PHONE_CODE_RESEND_WAIT_MS } from '../../../shared/api/guest.ts';
import type { CallError } from '../../app/baseQuery.ts';
import { Button } from '../../ui/Button.tsx';
import { useGuestRequestPhoneCodeMutation } from './api.ts';

/** Whole seconds from now until `at` (0 once it has passed), told again every second until then. */
function useSecondsUntil(at: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (now >= at) return;
    const timer = setTimeout(() => setNow(Date.now()), Math.min(1000, at - now));
    return () => clearTimeout(timer);
  }, [at, now]);
  return Math.max(0, Math.ceil((at - now) / 1000));
}

/**
 * The code step's first lines: where the code went (the number on one line,
 * left to right whatever the text around it), and once the server's wait is
 * over (PHONE_CODE_RESEND_WAIT_MS, counted down meanwhile) a button that
 * sends another. The server keeps the wait and the limits; a refusal is said
 * under the button.
 */
export function PhoneCodeSent({ phone, sentAt }: { phone: string; sentAt: number }) {
  const { t } = useTranslation('account');
  const [resend, resent] = useGuestRequestPhoneCodeMutation();
  const lastSentAt = Math.max(sentAt, resent.fulfilledTimeStamp ?? 0);
  const seconds = useSecondsUntil(lastSentAt + PHONE_CODE_RESEND_WAIT_MS);
  const refusal = (resent.error as CallError | undefined)?.status === 'FAILED' ? (resent.error as CallError).message : null;
  return (
    <div className="phone-code-sent">
      <p role="status">
        <Trans t={t} i18nKey="edit_phone_code_sent" values={{ phone }} components={{ number: <bdi dir="ltr" className="phone-number" /> }} />
      </p>
      {seconds > 0 ? (
        <p className="account-note">{t('edit_phone_resend_in', { seconds })}</p>
      ) : (
        <Button variant="ghost" icon={RotateCw} disabled={resent.isLoading} onClick={() => void resend({ phone })}>
          {t('edit_phone_resend')}
        </Button>
      )}
      <div role="alert">{refusal === null ? null : <p className="field-error">{refusal}</p>}</div>
    </div>
  );
}

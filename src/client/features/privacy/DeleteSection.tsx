import Trash2 from 'lucide-react/icons/trash-2';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { useIsFacilitatorSession } from '../../app/hooks.ts';
import { Button } from '../../ui/Button.tsx';
import { Card } from '../../ui/Card.tsx';
import { PasswordField } from '../../ui/Field.tsx';
import { Sheet } from '../../ui/Sheet.tsx';
import type { CallError } from '../../app/baseQuery.ts';
import { useGuestDeleteMutation, useGuestDeletePasswordCheckMutation } from './api.ts';
import { ACCOUNT_DELETED } from './deleted.ts';

/** What deleting does, in the order it happens and then what stays (docs/privacy.md, Deletion). */
const CONSEQUENCES = ['delete_jail', 'delete_everything', 'delete_plan', 'delete_payments', 'delete_forum', 'delete_again'] as const;

/**
 * "Delete your account": what happens, then the password and a destructive
 * button. The password is checked first (counted as a sign-in try), and a
 * wrong one is said beside its field; only then a sheet asks once more.
 * What fails after it is the server's words in the network banner; the sheet
 * closes first so that the banner is not behind it. A facilitator's session
 * is told that only the guest can.
 */
export function DeleteSection() {
  const { t } = useTranslation('privacy');
  const navigate = useNavigate();
  const facilitator = useIsFacilitatorSession();
  const [password, setPassword] = useState('');
  const [passwordError, setPasswordError] = useState<string | undefined>(undefined);
  const [confirming, setConfirming] = useState(false);
  const [remove, { isLoading }] = useGuestDeleteMutation();
  const [checkPassword, checking] = useGuestDeletePasswordCheckMutation();

  async function ask(event: FormEvent) {
    event.preventDefault();
    const result = await checkPassword({ password });
    setPasswordError('data' in result ? undefined : (result.error as CallError).message);
    if ('data' in result) setConfirming(true);
  }

  async function confirm() {
    setConfirming(false);
    const result = await remove({ password });
    if (!('data' in result)) return;
    // The session has ended everywhere: the page after it forgets it here (deleted.ts).
    navigate('/guest/deleted', { replace: true, state: ACCOUNT_DELETED });
  }

  return (
    <Card title={t('delete_heading')} className="privacy-section privacy-delete">
      <p className="privacy-delete-warning">{t('delete_intro')}</p>
      <ul className="privacy-list">
        {CONSEQUENCES.map((key) => (
          <li key={key}>{t(key)}</li>
        ))}
      </ul>
      {facilitator ? (
        <p className="privacy-facilitator" data-testid="delete-facilitator">
          {t('delete_facilitator')}
        </p>
      ) : (
        <form className="account-form privacy-delete-form" onSubmit={ask}>
          <PasswordField
            label={t('delete_password')}
            purpose="current"
            required
            value={password}
            error={passwordError}
            onValueChange={(typed) => {
              setPassword(typed);
              setPasswordError(undefined);
            }}
          />
          <Button type="submit" variant="danger" icon={Trash2} disabled={isLoading || checking.isLoading}>
            {t('delete_submit')}
          </Button>
        </form>
      )}
      <Sheet open={confirming} title={t('confirm_title')} closeLabel={t('close')} onClose={() => setConfirming(false)}>
        <p>{t('confirm_text')}</p>
        <div className="privacy-confirm-actions">
          <Button variant="danger" icon={Trash2} onClick={confirm}>
            {t('confirm_delete')}
          </Button>
          <Button variant="secondary" onClick={() => setConfirming(false)}>
            {t('confirm_keep')}
          </Button>
        </div>
      </Sheet>
    </Card>
  );
}

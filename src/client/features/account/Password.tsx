import KeyRound from 'lucide-react/icons/key-round';
import LogIn from 'lucide-react/icons/log-in';
import Send from 'lucide-react/icons/send';
import { Button, ButtonLink } from '../../ui/Button.tsx';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { RouterLink } from '../../app/RouterLink.tsx';
import { useAppDispatch, useIsLoggedIn } from '../../app/hooks.ts';
import { useGuest } from '../../app/session.ts';
import { forgetSession } from '../../app/session.ts';
import { PasswordField, TextField } from '../../ui/Field.tsx';
import { useGuestUpdatePasswordEmailMutation, useGuestUpdatePasswordMutation } from './api.ts';
import { FormAlert } from './FormAlert.tsx';
import { passwordAlert, shouldSendResetEmail, type AccountAlert } from './rules.ts';

/**
 * /guest/resetPasswordEmail: mails a reset link; sent only when the e-mail is
 * non-empty. A signed-in guest comes here by "Edit password": the page is
 * theirs to change the password, with their address filled in and the way
 * back to their account.
 */
export function ResetPasswordEmailScreen() {
  const { t } = useTranslation('account');
  const guest = useGuest();
  const [typed, setTyped] = useState<string | null>(null);
  const email = typed ?? guest?.email ?? '';
  const [sent, setSent] = useState(false);
  const [send, { isLoading }] = useGuestUpdatePasswordEmailMutation();
  const signedIn = guest !== null;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!shouldSendResetEmail(email)) return;
    const result = await send({ email: email.trim() });
    if ('data' in result) setSent(true);
  }

  return (
    <section className="account-screen">
      <h1>{signedIn ? t('reset_heading_signed_in') : t('reset_heading')}</h1>
      <p>{signedIn ? t('reset_explain_signed_in') : t('reset_explain')}</p>
      <form className="account-form card" onSubmit={submit}>
        <TextField label={t('account_email')} name="email" type="email" autoComplete="email" required value={email} onValueChange={setTyped} />
        <Button type="submit" icon={Send} wide disabled={isLoading}>
          {t('reset_submit')}
        </Button>
      </form>
      <div role="status">{sent && <p className="account-done">{t('reset_sent')}</p>}</div>
      <p className="account-links">
        {signedIn ? <RouterLink to="/guest/edit">{t('back_to_account')}</RouterLink> : <RouterLink to="/signin">{t('signin_heading')}</RouterLink>}
      </p>
    </section>
  );
}

/** /guest/updatePassword/:token: the new password twice ('Password doesn't match'). */
export function UpdatePasswordScreen() {
  const { t } = useTranslation('account');
  const { token = '' } = useParams();
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [alert, setAlert] = useState<AccountAlert | null>(null);
  const [done, setDone] = useState(false);
  const [update, { isLoading }] = useGuestUpdatePasswordMutation();
  const loggedIn = useIsLoggedIn();
  const dispatch = useAppDispatch();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const problem = passwordAlert(password, confirmation);
    setAlert(problem);
    if (problem !== null) return;
    const result = await update({ token, password });
    if (!('data' in result)) return;
    // The reset ended every session of the guest, this device's too.
    if (loggedIn) forgetSession({ dispatch });
    setDone(true);
  }

  return (
    <section className="account-screen">
      <h1>{t('update_password_heading')}</h1>
      {done ? (
        <div role="status">
          <p className="account-done">{t('update_password_done')}</p>
          <ButtonLink icon={LogIn} to="/signin">
            {t('signin_submit')}
          </ButtonLink>
        </div>
      ) : (
        <form className="account-form card" onSubmit={submit}>
          <PasswordField label={t('account_password_new')} purpose="new" required value={password} onValueChange={setPassword} />
          <PasswordField label={t('account_password_confirm')} purpose="new" required value={confirmation} onValueChange={setConfirmation} />
          <FormAlert alert={alert} />
          <Button type="submit" icon={KeyRound} wide disabled={isLoading}>
            {t('update_password_submit')}
          </Button>
        </form>
      )}
    </section>
  );
}

import KeyRound from 'lucide-react/icons/key-round';
import LogIn from 'lucide-react/icons/log-in';
import Send from 'lucide-react/icons/send';
import { Button, ButtonLink } from '../../ui/Button.tsx';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { guestUpdatePasswordEmailRequestSchema, guestUpdatePasswordRequestSchema } from '../../../shared/api/guest.ts';
import { useFieldErrors } from '../../app/fieldErrors.ts';
import { RouterLink } from '../../app/RouterLink.tsx';
import { useAppDispatch, useIsLoggedIn } from '../../app/hooks.ts';
import { EmailField } from './EmailField.tsx';
import { useGuest } from '../../app/session.ts';
import { forgetSession } from '../../app/session.ts';
import { PasswordField } from '../../ui/Field.tsx';
import { useGuestTakeBackMutation, useGuestUpdatePasswordEmailMutation, useGuestUpdatePasswordMutation } from './api.ts';
import { passwordAlert } from './rules.ts';

/** What a new password must be before it is sent: the server's rule. */
const NEW_PASSWORD_FIELD = guestUpdatePasswordRequestSchema.shape.guest.pick({ password: true });

/**
 * /guest/resetPasswordEmail: mails a reset link; sent only when the e-mail is
 * one. A signed-in guest comes here by "Edit password": the page is
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
  const form = useFieldErrors<'email'>({ email_invalid: 'email' });
  const signedIn = guest !== null;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!form.check(guestUpdatePasswordEmailRequestSchema.shape.guest, { email })) return;
    const result = await send({ email: email.trim() });
    if (form.succeeded(result)) setSent(true);
  }

  return (
    <section className="screen account-screen">
      <h1>{signedIn ? t('reset_heading_signed_in') : t('reset_heading')}</h1>
      <p>{signedIn ? t('reset_explain_signed_in') : t('reset_explain')}</p>
      <form className="account-form card" onSubmit={submit} noValidate>
        <EmailField value={email} error={form.errors.email} onValueChange={setTyped} />
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

/** The words of a screen that sets a new password with a mailed link. */
const NEW_PASSWORD_SCREENS = {
  reset: { heading: 'update_password_heading', explain: null, submit: 'update_password_submit', done: 'update_password_done' },
  takeBack: { heading: 'take_back_heading', explain: 'take_back_explain', submit: 'take_back_submit', done: 'take_back_done' },
} as const;

/**
 * The new password twice ('Password doesn't match'), sent with the link's
 * token: a password reset, or taking the account back after an e-mail
 * change (docs/sessions.md). Either ends every session, this device's too.
 */
function NewPasswordScreen({ kind }: { kind: keyof typeof NEW_PASSWORD_SCREENS }) {
  const { t } = useTranslation('account');
  const words = NEW_PASSWORD_SCREENS[kind];
  const { token = '' } = useParams();
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [done, setDone] = useState(false);
  const form = useFieldErrors<'password' | 'confirmation'>({ password_invalid: 'password', password_common: 'password' });
  const [reset, resetting] = useGuestUpdatePasswordMutation();
  const [takeBack, takingBack] = useGuestTakeBackMutation();
  const loggedIn = useIsLoggedIn();
  const dispatch = useAppDispatch();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const mismatch = passwordAlert(password, confirmation);
    if (!form.check(NEW_PASSWORD_FIELD, { password }, { confirmation: mismatch === null ? undefined : t(mismatch) })) return;
    const result = await (kind === 'reset' ? reset : takeBack)({ token, password });
    if (!form.succeeded(result)) return;
    // Every session of the guest ended, this device's too.
    if (loggedIn) forgetSession({ dispatch });
    setDone(true);
  }

  return (
    <section className="screen account-screen">
      <h1>{t(words.heading)}</h1>
      {done ? (
        <div role="status">
          <p className="account-done">{t(words.done)}</p>
          <ButtonLink icon={LogIn} to="/signin">
            {t('signin_submit')}
          </ButtonLink>
        </div>
      ) : (
        <>
          {words.explain !== null && <p>{t(words.explain)}</p>}
          <form className="account-form card" onSubmit={submit} noValidate>
            <PasswordField
              label={t('account_password_new')}
              hint={t('account_password_rules')}
              purpose="new"
              required
              value={password}
              error={form.errors.password}
              onValueChange={setPassword}
            />
            <PasswordField
              label={t('account_password_confirm')}
              purpose="new"
              required
              value={confirmation}
              error={form.errors.confirmation}
              onValueChange={setConfirmation}
            />
            <Button type="submit" icon={KeyRound} wide disabled={resetting.isLoading || takingBack.isLoading}>
              {t(words.submit)}
            </Button>
          </form>
        </>
      )}
    </section>
  );
}

/** /guest/updatePassword/:token: the password reset's link. */
export function UpdatePasswordScreen() {
  return <NewPasswordScreen kind="reset" />;
}

/** /guest/takeBack/:token: the way back mailed to the former address after an e-mail change. */
export function TakeBackScreen() {
  return <NewPasswordScreen kind="takeBack" />;
}

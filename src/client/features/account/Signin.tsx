import LogIn from 'lucide-react/icons/log-in';
import { Button } from '../../ui/Button.tsx';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { guestAuthenticateRequestSchema } from '../../../shared/api/guest.ts';
import { useFieldErrors } from '../../app/fieldErrors.ts';
import { RouterLink } from '../../app/RouterLink.tsx';
import { useGuest } from '../../app/session.ts';
import { PasswordField, TextField } from '../../ui/Field.tsx';
import { useGuestAuthenticateMutation } from './api.ts';
import { isLoggedInAs } from './rules.ts';

/** /signin: username (or e-mail) and password; after login → /reservations. */
export function SigninScreen() {
  const { t } = useTranslation('account');
  const navigate = useNavigate();
  const [title, setTitle] = useState('');
  const [password, setPassword] = useState('');
  // The login flow (docs/client.md, Form rules): a waiting flag until the guest matches what was entered.
  const [waiting, setWaiting] = useState(false);
  const guest = useGuest();
  const [authenticate] = useGuestAuthenticateMutation();
  const form = useFieldErrors<'title' | 'password'>({ sign_in_failed: 'password' });

  useEffect(() => {
    if (waiting && isLoggedInAs(guest, title)) {
      setWaiting(false);
      navigate('/reservations', { replace: true });
    }
  }, [waiting, guest, title, navigate]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!form.check(guestAuthenticateRequestSchema.shape.guest, { title, password })) return;
    setWaiting(true);
    const result = await authenticate({ title: title.trim(), password });
    if (!form.succeeded(result)) setWaiting(false);
  }

  return (
    <section className="screen account-screen">
      <h1>{t('signin_heading')}</h1>
      <form className="account-form card" onSubmit={submit} noValidate>
        <TextField
          label={t('account_title_or_email')}
          name="username"
          autoComplete="username"
          required
          value={title}
          error={form.errors.title}
          onValueChange={setTitle}
        />
        <PasswordField
          label={t('account_password')}
          name="password"
          purpose="current"
          required
          value={password}
          error={form.errors.password}
          onValueChange={setPassword}
        />
        <Button type="submit" icon={LogIn} wide disabled={waiting}>
          {t('signin_submit')}
        </Button>
      </form>
      <p className="account-links">
        <RouterLink to="/signup">{t('signin_to_signup')}</RouterLink>
        <RouterLink to="/guest/resetPasswordEmail">{t('signin_forgot')}</RouterLink>
      </p>
    </section>
  );
}

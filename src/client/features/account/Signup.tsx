import UserPlus from 'lucide-react/icons/user-plus';
import { Button } from '../../ui/Button.tsx';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { guestCreateRequestSchema } from '../../../shared/api/guest.ts';
import { useFieldErrors } from '../../app/fieldErrors.ts';
import { RouterLink } from '../../app/RouterLink.tsx';
import { useAppSelector } from '../../app/hooks.ts';
import { browserTimezone } from '../../i18n.ts';
import { CheckField, PasswordField, TextField } from '../../ui/Field.tsx';
import { EmailField } from './EmailField.tsx';
import { useGuestCreateMutation } from './api.ts';
import { privacyUrl, termsUrl } from './links.ts';
import { signupAlert } from './rules.ts';

/** What sign-up checks before sending: the server's own rules of the three fields. */
const SIGN_UP_FIELDS = guestCreateRequestSchema.shape.guest.pick({ title: true, email: true, password: true });

/** /signup: title, e-mail, password and the terms (beside them the privacy page); signs in by itself, then → /reservations. */
export function SignupScreen() {
  const { t } = useTranslation('account');
  const { t: common } = useTranslation('common');
  const navigate = useNavigate();
  const language = useAppSelector((state) => state.application.language);
  const [title, setTitle] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [terms, setTerms] = useState(false);
  const [create, { isLoading }] = useGuestCreateMutation();
  const form = useFieldErrors<'title' | 'email' | 'password' | 'terms'>({
    title_invalid: 'title',
    title_taken: 'title',
    email_invalid: 'email',
    email_taken: 'email',
    password_invalid: 'password',
    password_common: 'password',
  });

  async function submit(event: FormEvent) {
    event.preventDefault();
    const termsAlert = signupAlert(terms);
    if (!form.check(SIGN_UP_FIELDS, { title, email, password }, { terms: termsAlert === null ? undefined : t(termsAlert) })) return;
    // The timezone and language as the browser suggests them (docs/client.md, Form rules).
    const result = await create({ title: title.trim(), email: email.trim(), password, timezone: browserTimezone() || 0, language });
    if (form.succeeded(result)) navigate('/reservations', { replace: true });
  }

  return (
    <section className="screen account-screen">
      <h1>{t('signup_heading')}</h1>
      <form className="account-form card" onSubmit={submit} noValidate>
        <TextField
          label={t('account_title')}
          name="username"
          autoComplete="username"
          required
          maxLength={50}
          value={title}
          error={form.errors.title}
          onValueChange={setTitle}
        />
        <EmailField value={email} error={form.errors.email} onValueChange={setEmail} />
        <PasswordField
          label={t('account_password')}
          hint={t('account_password_rules')}
          name="password"
          purpose="new"
          required
          minLength={8}
          value={password}
          error={form.errors.password}
          onValueChange={setPassword}
        />
        <CheckField label={t('signup_terms_agree')} checked={terms} error={form.errors.terms} onCheckedChange={setTerms} />
        <p className="account-links">
          <a href={termsUrl(language)} target="_blank" rel="noopener noreferrer">
            {t('signup_terms_link')}
          </a>
          <a href={privacyUrl(language)} target="_blank" rel="noopener noreferrer">
            {common('privacyLink')}
          </a>
        </p>
        <Button type="submit" icon={UserPlus} wide disabled={isLoading}>
          {t('signup_submit')}
        </Button>
      </form>
      <p className="account-links">
        <RouterLink to="/signin">{t('signup_to_signin')}</RouterLink>
      </p>
    </section>
  );
}

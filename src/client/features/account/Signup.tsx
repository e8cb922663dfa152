import UserPlus from 'lucide-react/icons/user-plus';
import { Button } from '../../ui/Button.tsx';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { RouterLink } from '../../app/RouterLink.tsx';
import { useAppSelector } from '../../app/hooks.ts';
import { browserTimezone } from '../../i18n.ts';
import { PasswordField, TextField } from '../../ui/Field.tsx';
import { useGuestCreateMutation } from './api.ts';
import { FormAlert } from './FormAlert.tsx';
import { privacyUrl, termsUrl } from './links.ts';
import { signupAlert, type AccountAlert } from './rules.ts';

/** /signup: title, e-mail, password and the terms (beside them the privacy page); signs in by itself, then → /reservations. */
export function SignupScreen() {
  const { t } = useTranslation('account');
  const { t: common } = useTranslation('common');
  const id = useId();
  const navigate = useNavigate();
  const language = useAppSelector((state) => state.application.language);
  const [title, setTitle] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [terms, setTerms] = useState(false);
  const [alert, setAlert] = useState<AccountAlert | null>(null);
  const [create, { isLoading }] = useGuestCreateMutation();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const problem = signupAlert(terms);
    setAlert(problem);
    if (problem !== null) return;
    // The timezone and language as the browser suggests them (docs/client.md, Form rules).
    const result = await create({ title: title.trim(), email: email.trim(), password, timezone: browserTimezone() || 0, language });
    if ('data' in result) navigate('/reservations', { replace: true });
  }

  return (
    <section className="account-screen">
      <h1>{t('signup_heading')}</h1>
      <form className="account-form card" onSubmit={submit} noValidate>
        <TextField label={t('account_title')} name="username" autoComplete="username" required maxLength={50} value={title} onValueChange={setTitle} />
        <TextField label={t('account_email')} name="email" type="email" autoComplete="email" required value={email} onValueChange={setEmail} />
        <PasswordField
          label={t('account_password')}
          hint={t('account_password_rules')}
          name="password"
          purpose="new"
          required
          minLength={8}
          value={password}
          onValueChange={setPassword}
        />
        <div className="field field-check">
          <input id={`${id}-terms`} type="checkbox" checked={terms} onChange={(e) => setTerms(e.target.checked)} />
          <label htmlFor={`${id}-terms`}>{t('signup_terms_agree')}</label>
        </div>
        <p className="account-links">
          <a href={termsUrl(language)} target="_blank" rel="noopener noreferrer">
            {t('signup_terms_link')}
          </a>
          <a href={privacyUrl(language)} target="_blank" rel="noopener noreferrer">
            {common('privacyLink')}
          </a>
        </p>
        <FormAlert alert={alert} />
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

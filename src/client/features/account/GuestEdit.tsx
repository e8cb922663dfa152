import CircleCheck from 'lucide-react/icons/circle-check';
import Pencil from 'lucide-react/icons/pencil';
import Save from 'lucide-react/icons/save';
import UserRound from 'lucide-react/icons/user-round';
import { Button, ButtonLink } from '../../ui/Button.tsx';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { RouterLink } from '../../app/RouterLink.tsx';
import { useGuest } from '../../app/session.ts';
import { PasswordField, TextField } from '../../ui/Field.tsx';
import { useGuestUpdateMutation } from './api.ts';
import { emailHasChanged, hasChanged, MASKED_PASSWORD } from './rules.ts';

/** /guest/edit: username, e-mail, phone and the masked password, each with Edit. */
export function GuestEditScreen() {
  const { t } = useTranslation('account');
  const guest = useGuest();
  const rows: { label: string; value: string; to: string; name: string }[] = [
    { name: 'title', label: t('account_title'), value: guest?.title ?? '', to: '/guest/editTitle' },
    { name: 'email', label: t('account_email'), value: guest?.email ?? '', to: '/guest/editEmail' },
    { name: 'phone', label: t('account_phone'), value: guest?.phone ?? t('edit_phone_none'), to: '/guest/editPhone' },
    { name: 'password', label: t('account_password'), value: MASKED_PASSWORD, to: '/guest/resetPasswordEmail' },
  ];
  return (
    <section className="account-screen">
      <h1>{t('edit_heading')}</h1>
      <dl className="account-info">
        {rows.map((row) => (
          <div key={row.name} className="account-info-row">
            <dt>{row.label}</dt>
            <dd>
              <span className="account-info-value" data-testid={`guest-${row.name}`}>
                {row.value}
              </span>
              <ButtonLink variant="secondary" icon={Pencil} className="button-small" to={row.to} aria-label={`${t('edit_button')}: ${row.label}`}>
                {t('edit_button')}
              </ButtonLink>
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

function SingleFieldEdit({ field }: { field: 'title' | 'email' }) {
  const { t } = useTranslation('account');
  const navigate = useNavigate();
  const guest = useGuest();
  const current = guest?.[field] ?? '';
  const [value, setValue] = useState(current);
  const [touched, setTouched] = useState(false);
  const [currentPassword, setCurrentPassword] = useState('');
  const [update, { isLoading }] = useGuestUpdateMutation();
  useEffect(() => {
    if (!touched) setValue(current);
  }, [current, touched]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const changed = field === 'email' ? emailHasChanged(current, value) : hasChanged(current, value);
    // An unchanged value is not saved (docs/client.md, Form rules).
    if (!changed) {
      navigate('/guest/edit');
      return;
    }
    // A new e-mail address takes the current password (the server checks it).
    const result = await update(field === 'email' ? { email: value.trim(), currentPassword } : { title: value.trim() });
    if ('data' in result) navigate('/guest/edited');
  }

  return (
    <section className="account-screen">
      <h1>{t(field === 'title' ? 'edit_title_heading' : 'edit_email_heading')}</h1>
      <form className="account-form card" onSubmit={submit}>
        <TextField
          label={t(field === 'title' ? 'account_title' : 'account_email')}
          type={field === 'email' ? 'email' : 'text'}
          autoComplete={field === 'email' ? 'email' : 'username'}
          required
          value={value}
          onValueChange={(typed) => {
            setTouched(true);
            setValue(typed);
          }}
        />
        {field === 'email' && (
          <PasswordField label={t('edit_email_current_password')} purpose="current" required value={currentPassword} onValueChange={setCurrentPassword} />
        )}
        {field === 'email' && <p className="account-note">{t('edit_email_note')}</p>}
        <Button type="submit" icon={Save} disabled={isLoading}>
          {t('edit_save')}
        </Button>
      </form>
      <p className="account-links">
        <RouterLink to="/guest/edit">{t('edit_back')}</RouterLink>
      </p>
    </section>
  );
}

/** /guest/editTitle: skipped when unchanged. */
export function GuestEditTitleScreen() {
  return <SingleFieldEdit field="title" />;
}

/** /guest/editEmail: skipped when unchanged; a new address must be verified again. */
export function GuestEditEmailScreen() {
  return <SingleFieldEdit field="email" />;
}

/** /guest/edited: after a save, a check button back to /guest/edit. */
export function GuestEditedScreen() {
  const { t } = useTranslation('account');
  return (
    <section className="account-screen account-done-screen">
      <span className="icon-badge success" aria-hidden="true">
        <CircleCheck size={40} strokeWidth={1.75} focusable="false" />
      </span>
      <h1>{t('edited_heading')}</h1>
      <ButtonLink icon={UserRound} to="/guest/edit">
        {t('edited_check')}
      </ButtonLink>
    </section>
  );
}

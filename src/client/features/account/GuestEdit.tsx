import CircleCheck from 'lucide-react/icons/circle-check';
import Pencil from 'lucide-react/icons/pencil';
import Save from 'lucide-react/icons/save';
import Send from 'lucide-react/icons/send';
import UserRound from 'lucide-react/icons/user-round';
import X from 'lucide-react/icons/x';
import { Button, ButtonLink } from '../../ui/Button.tsx';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { guestUpdateRequestSchema } from '../../../shared/api/guest.ts';
import { useFieldErrors } from '../../app/fieldErrors.ts';
import { RouterLink } from '../../app/RouterLink.tsx';
import { useGuest } from '../../app/session.ts';
import { PasswordField, TextField } from '../../ui/Field.tsx';
import { useGuestResendVerifyEmailMutation } from '../reservations/api.ts';
import { useGuestCancelEmailChangeMutation, useGuestUpdateMutation } from './api.ts';
import { emailHasChanged, hasChanged, MASKED_PASSWORD } from './rules.ts';
import { SignedInDevices } from './SignedInDevices.tsx';

/** /guest/edit: username, e-mail, phone and the masked password, each with Edit; then the signed-in devices. */
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
    <section className="screen account-screen">
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
      {guest?.pendingEmail && <PendingEmail email={guest.pendingEmail} />}
      <SignedInDevices />
    </section>
  );
}

/**
 * A new address waiting for its link (docs/sessions.md, Changing the e-mail
 * address): the link can be sent again, or the change cancelled.
 */
function PendingEmail({ email }: { email: string }) {
  const { t } = useTranslation('account');
  const [resend, resent] = useGuestResendVerifyEmailMutation();
  const [cancel, cancelling] = useGuestCancelEmailChangeMutation();
  return (
    <div className="account-pending card" data-testid="pending-email">
      <p>{t('edit_email_pending', { email })}</p>
      <div className="account-actions">
        <Button variant="secondary" icon={Send} className="button-small" disabled={resent.isLoading} onClick={() => void resend()}>
          {t('edit_email_pending_resend')}
        </Button>
        <Button variant="secondary" icon={X} className="button-small" disabled={cancelling.isLoading} onClick={() => void cancel()}>
          {t('edit_email_pending_cancel')}
        </Button>
      </div>
      <div role="status">{resent.isSuccess && <p className="account-done">{t('edit_email_pending_sent')}</p>}</div>
    </div>
  );
}

/** The server's rules of the username and the e-mail, checked before sending. */
const NAME_AND_EMAIL = guestUpdateRequestSchema.shape.guest.pick({ title: true, email: true });

function SingleFieldEdit({ field }: { field: 'title' | 'email' }) {
  const { t } = useTranslation('account');
  const navigate = useNavigate();
  const guest = useGuest();
  const current = guest?.[field] ?? '';
  const [value, setValue] = useState(current);
  const [touched, setTouched] = useState(false);
  const [currentPassword, setCurrentPassword] = useState('');
  const [update, { isLoading }] = useGuestUpdateMutation();
  const form = useFieldErrors<'title' | 'email' | 'currentPassword'>({
    title_invalid: 'title',
    title_taken: 'title',
    email_invalid: 'email',
    email_taken: 'email',
    current_password_wrong: 'currentPassword',
  });
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
    if (!form.check(NAME_AND_EMAIL, { title: null, email: null, currentPassword: null, [field]: value })) return;
    // A new e-mail address takes the current password (the server checks it).
    const result = await update(field === 'email' ? { email: value.trim(), currentPassword } : { title: value.trim() });
    if (form.succeeded(result)) navigate('/guest/edited');
  }

  return (
    <section className="screen account-screen">
      <h1>{t(field === 'title' ? 'edit_title_heading' : 'edit_email_heading')}</h1>
      <form className="account-form card" onSubmit={submit} noValidate>
        <TextField
          label={t(field === 'title' ? 'account_title' : 'account_email')}
          type={field === 'email' ? 'email' : 'text'}
          autoComplete={field === 'email' ? 'email' : 'username'}
          required
          value={value}
          error={form.errors[field]}
          onValueChange={(typed) => {
            setTouched(true);
            setValue(typed);
          }}
        />
        {field === 'email' && (
          <PasswordField
            label={t('edit_email_current_password')}
            purpose="current"
            required
            value={currentPassword}
            error={form.errors.currentPassword}
            onValueChange={setCurrentPassword}
          />
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

/** /guest/editEmail: skipped when unchanged; a new address waits until the link mailed to it is opened. */
export function GuestEditEmailScreen() {
  return <SingleFieldEdit field="email" />;
}

/** /guest/edited: after a save, a check button back to /guest/edit; after a new address, where its link went. */
export function GuestEditedScreen() {
  const { t } = useTranslation('account');
  const pendingEmail = useGuest()?.pendingEmail ?? null;
  return (
    <section className="screen account-screen account-done-screen">
      <span className="icon-badge success" aria-hidden="true">
        <CircleCheck size={40} strokeWidth={1.75} focusable="false" />
      </span>
      <h1>{t('edited_heading')}</h1>
      {pendingEmail !== null && <p>{t('edited_email_pending', { email: pendingEmail })}</p>}
      <ButtonLink icon={UserRound} to="/guest/edit">
        {t('edited_check')}
      </ButtonLink>
    </section>
  );
}

import ArrowLeft from 'lucide-react/icons/arrow-left';
import Check from 'lucide-react/icons/check';
import MessageSquare from 'lucide-react/icons/message-square';
import { Button } from '../../ui/Button.tsx';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { guestRequestPhoneCodeRequestSchema } from '../../../shared/api/guest.ts';
import { useFieldErrors } from '../../app/fieldErrors.ts';
import { RouterLink } from '../../app/RouterLink.tsx';
import { useGuest } from '../../app/session.ts';
import { TextField } from '../../ui/Field.tsx';
import { useGuestRequestPhoneCodeMutation, useGuestUpdateMutation } from './api.ts';
import { isCompletePhoneCode, sanitizePhoneCode, shouldRequestPhoneCode } from './rules.ts';

/**
 * /guest/editPhone: step 1 the number and a code request (only when it
 * changed); step 2 the 6-digit code and register. Back clears the code.
 */
export function GuestEditPhoneScreen() {
  const { t } = useTranslation('account');
  const navigate = useNavigate();
  const guest = useGuest();
  const [phone, setPhone] = useState(guest?.phone ?? '');
  const [code, setCode] = useState('');
  const [unchanged, setUnchanged] = useState(false);
  // Step 2 once a code was requested: the request's id is its answer. Every visit starts at step 1 (a new mutation).
  const [requestCode, request] = useGuestRequestPhoneCodeMutation();
  const phoneCode = request.data?.phoneCode ?? null;
  const [update, saving] = useGuestUpdateMutation();
  const form = useFieldErrors<'phone' | 'phoneCode'>({
    phone_invalid: 'phone',
    phone_code_limit: 'phone',
    phone_code_wrong: 'phoneCode',
    phone_code_expired: 'phoneCode',
  });

  const saved = guest?.phone ?? '';
  const [typed, setTyped] = useState(false);
  useEffect(() => {
    if (!typed) setPhone(saved);
  }, [saved, typed]);

  async function submitNumber(event: FormEvent) {
    event.preventDefault();
    const changed = shouldRequestPhoneCode(guest?.phone, phone);
    setUnchanged(!changed && phone.trim() !== '');
    if (!changed || !form.check(guestRequestPhoneCodeRequestSchema.shape.guest.pick({ phone: true }), { phone })) return;
    form.succeeded(await requestCode({ phone: phone.trim() }));
  }

  async function submitCode(event: FormEvent) {
    event.preventDefault();
    if (!form.show({ phoneCode: isCompletePhoneCode(code) ? undefined : t('alert_code_wrong') })) return;
    const result = await update({ phone: phone.trim(), phoneCode: code });
    if (form.succeeded(result)) navigate('/guest/edited');
  }

  function back() {
    setCode('');
    form.show({});
    request.reset();
  }

  return (
    <section className="account-screen">
      <h1>{t('edit_phone_heading')}</h1>
      {phoneCode === null ? (
        <form className="account-form card" onSubmit={submitNumber} noValidate>
          <TextField
            label={t('account_phone')}
            type="tel"
            autoComplete="tel"
            required
            value={phone}
            error={form.errors.phone}
            onValueChange={(typedPhone) => {
              setTyped(true);
              setPhone(typedPhone);
            }}
          />
          <div role="status">{unchanged && <p className="account-note">{t('edit_phone_unchanged')}</p>}</div>
          <Button type="submit" icon={MessageSquare} disabled={request.isLoading}>
            {t('edit_phone_request')}
          </Button>
          <p className="account-links">
            <RouterLink to="/guest/edit">{t('edit_back')}</RouterLink>
          </p>
        </form>
      ) : (
        <form className="account-form card" onSubmit={submitCode} noValidate>
          <p role="status">{t('edit_phone_code_sent', { phone: phone.trim() })}</p>
          <TextField
            label={t('account_phone_code')}
            inputMode="numeric"
            pattern="[0-9]*"
            autoComplete="one-time-code"
            maxLength={6}
            required
            value={code}
            error={form.errors.phoneCode}
            onValueChange={(typedCode) => setCode(sanitizePhoneCode(typedCode))}
          />
          <div className="account-actions">
            <Button variant="secondary" icon={ArrowLeft} onClick={back}>
              {t('edit_back')}
            </Button>
            <Button type="submit" icon={Check} disabled={saving.isLoading}>
              {t('edit_phone_register')}
            </Button>
          </div>
        </form>
      )}
    </section>
  );
}

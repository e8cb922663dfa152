import ArrowLeft from 'lucide-react/icons/arrow-left';
import Check from 'lucide-react/icons/check';
import MessageSquare from 'lucide-react/icons/message-square';
import { Button } from '../../ui/Button.tsx';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import { guestRequestPhoneCodeRequestSchema } from '../../../shared/api/guest.ts';
import { useFieldErrors } from '../../app/fieldErrors.ts';
import { RouterLink } from '../../app/RouterLink.tsx';
import { useGuest } from '../../app/session.ts';
import { TextField } from '../../ui/Field.tsx';
import { bookingDraftOf } from '../reservations/booking-draft.ts';
import { useGuestRequestPhoneCodeMutation, useGuestUpdateMutation } from './api.ts';
import { PhoneCodeSent } from './PhoneCodeSent.tsx';
import { isCompletePhoneCode, sanitizePhoneCode, shouldRequestPhoneCode } from './rules.ts';

/**
 * /guest/editPhone: why the number is asked for, step 1 the number (with an
 * example) and a code request (only when it changed); step 2 the 6-digit code
 * (another after the server's wait) and register. Back clears the code. From
 * the phone gate (a booking's draft in the router state), registering goes
 * back to the booking.
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
  const draft = bookingDraftOf(useLocation().state);
  const form = useFieldErrors<'phone' | 'phoneCode'>({
    phone_invalid: 'phone',
    phone_code_limit: 'phone',
    phone_code_wait: 'phone',
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
    // From the phone gate, back to the booking as the guest left it; else the usual "Changes saved".
    if (form.succeeded(result))
      navigate(draft === null ? '/guest/edited' : '/reservation/add', { replace: draft !== null, state: draft === null ? undefined : { bookingDraft: draft } });
  }

  function back() {
    setCode('');
    form.show({});
    request.reset();
  }

  return (
    <section className="screen account-screen">
      <h1>{t('edit_phone_heading')}</h1>
      <p className="account-lead">{t('edit_phone_why')}</p>
      {phoneCode === null ? (
        <form className="account-form card" onSubmit={submitNumber} noValidate>
          <TextField
            label={t('account_phone')}
            type="tel"
            autoComplete="tel"
            required
            value={phone}
            hint={t('edit_phone_hint')}
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
          <PhoneCodeSent phone={phone.trim()} sentAt={request.fulfilledTimeStamp ?? 0} />
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

import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Stripe, StripeCardElement } from '@stripe/stripe-js';
import CreditCard from 'lucide-react/icons/credit-card';
import { Button } from '../../ui/Button.tsx';
import { TextField } from '../../ui/Field.tsx';
import { usePaymentsLocalTokenMutation } from './api.ts';
import { parseExpiry } from './plan-view.ts';

/** The card typed in: a token for `/guest/subscribe` or `/guest/updateCard`, or why there is none. */
export type CardResult = { token: string } | { error: string };

/** A failed API call: the network banner has already shown its message (docs/client.md). */
export function isCallError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'status' in error && 'message' in error;
}

export function errorText(error: unknown): string {
  return typeof error === 'object' && error !== null && 'message' in error && typeof error.message === 'string' ? error.message : String(error);
}

/** Submit and cancel under either form. */
function CardActions({ submitLabel, disabled, onCancel }: { submitLabel: string; disabled: boolean; onCancel: () => void }) {
  const { t } = useTranslation('subscription');
  return (
    <div className="subscription-actions">
      <Button type="submit" icon={CreditCard} disabled={disabled}>
        {submitLabel}
      </Button>
      <Button variant="secondary" onClick={onCancel}>
        {t('card_cancel')}
      </Button>
    </div>
  );
}

/** The local provider's form: number, expiry and security code go to the server once, which keeps only brand and last four. */
function LocalCardFields({ submitLabel, onCard, onCancel }: { submitLabel: string; onCard: (result: CardResult) => void; onCancel: () => void }) {
  const { t } = useTranslation('subscription');
  const [tokenise, { isLoading }] = usePaymentsLocalTokenMutation();
  const [number, setNumber] = useState('');
  const [expiry, setExpiry] = useState('');
  const [cvc, setCvc] = useState('');

  async function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = parseExpiry(expiry);
    if (parsed === null) {
      onCard({ error: t('card_expiry_invalid') });
      return;
    }
    try {
      const { token } = await tokenise({ number, cvc, ...parsed }).unwrap();
      onCard({ token });
    } catch (error) {
      // The form stays open for a correction; the banner says what was wrong.
      if (!isCallError(error)) onCard({ error: errorText(error) });
    }
  }

  return (
    <form className="subscription-card-form" onSubmit={(event) => void submit(event)}>
      <TextField label={t('card_number')} name="cardnumber" autoComplete="cc-number" inputMode="numeric" required value={number} onValueChange={setNumber} />
      <div className="subscription-card-row">
        <TextField label={t('card_expiry')} name="exp-date" autoComplete="cc-exp" placeholder="MM/YY" required value={expiry} onValueChange={setExpiry} />
        <TextField label={t('card_cvc')} name="cvc" autoComplete="cc-csc" inputMode="numeric" required value={cvc} onValueChange={setCvc} />
      </div>
      <CardActions submitLabel={submitLabel} disabled={isLoading} onCancel={onCancel} />
    </form>
  );
}

/** Stripe's card Element: the card never reaches our server, only the PaymentMethod id (`pm_…`) made from it. */
function StripeCardFields({
  stripe,
  submitLabel,
  onCard,
  onCancel,
}: {
  stripe: Stripe;
  submitLabel: string;
  onCard: (result: CardResult) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation('subscription');
  const mount = useRef<HTMLDivElement>(null);
  const [card, setCard] = useState<StripeCardElement | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (mount.current === null) return undefined;
    const element = stripe.elements().create('card', { hidePostalCode: true });
    element.mount(mount.current);
    setCard(element);
    return () => element.destroy();
  }, [stripe]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (card === null) return;
    setBusy(true);
    const result = await stripe.createPaymentMethod({ type: 'card', card });
    setBusy(false);
    onCard(result.error === undefined ? { token: result.paymentMethod.id } : { error: result.error.message ?? t('card_expiry_invalid') });
  }

  return (
    <form className="subscription-card-form" onSubmit={(event) => void submit(event)}>
      <div className="subscription-stripe-card control" ref={mount} role="group" aria-label={t('card_number')} />
      <CardActions submitLabel={submitLabel} disabled={busy || card === null} onCancel={onCancel} />
    </form>
  );
}

/** The card form of the provider the server names: Stripe's Element under Stripe, else the local form. */
export function CardForm({
  stripe,
  submitLabel,
  onCard,
  onCancel,
}: {
  stripe: Stripe | null;
  submitLabel: string;
  onCard: (result: CardResult) => void;
  onCancel: () => void;
}) {
  return stripe === null ? (
    <LocalCardFields submitLabel={submitLabel} onCard={onCard} onCancel={onCancel} />
  ) : (
    <StripeCardFields stripe={stripe} submitLabel={submitLabel} onCard={onCard} onCancel={onCancel} />
  );
}

import { useEffect, useId, useRef, useState, type ComponentProps, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Stripe, StripeCardElement } from '@stripe/stripe-js';
import CreditCard from 'lucide-react/icons/credit-card';
import type { Decline } from '../../../shared/api/payments.ts';
import { Button } from '../../ui/Button.tsx';
import { TextField } from '../../ui/Field.tsx';
import { useLanguage } from '../reservations/common.ts';
import { usePaymentsLocalTokenMutation } from './api.ts';
import { digitsOfCvc, formatExpiry, groupCardNumber } from './card-format.ts';
import { parseExpiry } from './plan-view.ts';

/**
 * Why a card was refused: a decline code the app words (docs/payments.md,
 * Declines), or the words of Stripe's card form, already in the app's
 * language.
 */
export type Refusal = { decline: Decline } | { message: string };

/** The card typed in: a token for `/guest/subscribe` or `/guest/updateCard`, or why there is none. */
export type CardResult = { token: string } | Refusal;

/** A failed API call: the network banner has already shown its message (docs/client.md). */
export function isCallError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'status' in error && 'message' in error;
}

export function errorText(error: unknown): string {
  return typeof error === 'object' && error !== null && 'message' in error && typeof error.message === 'string' ? error.message : String(error);
}

/** The three parts of a typed card. */
type CardPart = 'number' | 'expiry' | 'cvc';

/** The field a refusal stands beside: the expiry's and the security code's own, the number's for everything else. */
function fieldOf(refusal: Refusal | null): CardPart | null {
  if (refusal === null) return null;
  if (!('decline' in refusal)) return 'number';
  if (refusal.decline === 'invalid_expiry' || refusal.decline === 'expired_card') return 'expiry';
  return refusal.decline === 'incorrect_cvc' ? 'cvc' : 'number';
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

interface CardFieldsProps {
  submitLabel: string;
  /** Why the card last tried was refused, shown beside its field. */
  refusal: Refusal | null;
  onCard: (result: CardResult) => void;
  onCancel: () => void;
}

/**
 * The local provider's form: number, expiry and security code go to the
 * server once, which keeps only brand and last four. Each is written as
 * typed the way the card prints it (the number in fours, the expiry MM/YY).
 */
function LocalCardFields({ submitLabel, refusal, onCard, onCancel }: CardFieldsProps) {
  const { t } = useTranslation('subscription');
  const [tokenise, { isLoading }] = usePaymentsLocalTokenMutation();
  const [number, setNumber] = useState('');
  const [expiry, setExpiry] = useState('');
  const [cvc, setCvc] = useState('');
  const field = fieldOf(refusal);
  const error = refusal === null ? undefined : refusalText(t, refusal);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = parseExpiry(expiry);
    if (parsed === null) {
      onCard({ decline: 'invalid_expiry' });
      return;
    }
    try {
      const checked = await tokenise({ number, cvc, ...parsed }).unwrap();
      onCard(checked.card !== null ? { token: checked.card.token } : { decline: checked.decline ?? 'other' });
    } catch (error) {
      // The form stays open for a correction; the banner says what was wrong.
      if (!isCallError(error)) onCard({ message: errorText(error) });
    }
  }

  /** Each part's field: digits typed on a number pad, written as the card prints them, with the refusal beside the part it concerns. */
  const parts: Record<CardPart, Omit<ComponentProps<typeof TextField>, 'inputMode' | 'required' | 'error'>> = {
    number: {
      label: t('card_number'),
      name: 'cardnumber',
      autoComplete: 'cc-number',
      placeholder: '1234 1234 1234 1234',
      value: number,
      onValueChange: (typed) => setNumber(groupCardNumber(typed)),
    },
    expiry: {
      label: t('card_expiry'),
      name: 'exp-date',
      autoComplete: 'cc-exp',
      placeholder: 'MM/YY',
      value: expiry,
      onValueChange: (typed) => setExpiry(formatExpiry(typed)),
    },
    cvc: { label: t('card_cvc'), name: 'cvc', autoComplete: 'cc-csc', value: cvc, onValueChange: (typed) => setCvc(digitsOfCvc(typed)) },
  };
  const partField = (name: CardPart) => <TextField {...parts[name]} inputMode="numeric" required error={field === name ? error : undefined} />;

  return (
    <form className="subscription-card-form" onSubmit={(event) => void submit(event)}>
      {partField('number')}
      <div className="subscription-card-row">
        {partField('expiry')}
        {partField('cvc')}
      </div>
      <CardActions submitLabel={submitLabel} disabled={isLoading} onCancel={onCancel} />
    </form>
  );
}

/** The words of a refusal in the app's language. */
function refusalText(t: (key: `decline_${Decline}`) => string, refusal: Refusal): string {
  return 'decline' in refusal ? t(`decline_${refusal.decline}`) : refusal.message;
}

/**
 * Stripe's card Element, in the app's language: the card never reaches our
 * server, only the PaymentMethod id (`pm_…`) made from it. Stripe formats
 * the number and expiry itself; a refusal stands under the Element as a
 * field's error does.
 */
function StripeCardFields({ stripe, submitLabel, refusal, onCard, onCancel }: CardFieldsProps & { stripe: Stripe }) {
  const { t } = useTranslation('subscription');
  const language = useLanguage();
  const mount = useRef<HTMLDivElement>(null);
  const messageId = useId();
  const [card, setCard] = useState<StripeCardElement | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (mount.current === null) return undefined;
    const element = stripe.elements({ locale: language }).create('card', { hidePostalCode: true });
    element.mount(mount.current);
    setCard(element);
    return () => element.destroy();
  }, [stripe, language]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (card === null) return;
    setBusy(true);
    const result = await stripe.createPaymentMethod({ type: 'card', card });
    setBusy(false);
    onCard(
      result.error === undefined
        ? { token: result.paymentMethod.id }
        : result.error.message !== undefined
          ? { message: result.error.message }
          : { decline: 'other' },
    );
  }

  return (
    <form className="subscription-card-form" onSubmit={(event) => void submit(event)}>
      <div className="field">
        <div
          className="subscription-stripe-card control"
          ref={mount}
          role="group"
          aria-label={t('card_number')}
          aria-describedby={refusal === null ? undefined : messageId}
        />
        {refusal === null ? null : (
          <p id={messageId} className="field-error">
            {refusalText(t, refusal)}
          </p>
        )}
      </div>
      <CardActions submitLabel={submitLabel} disabled={busy || card === null} onCancel={onCancel} />
    </form>
  );
}

/** The card form of the provider the server names: Stripe's Element under Stripe, else the local form. */
export function CardForm({ stripe, ...fields }: CardFieldsProps & { stripe: Stripe | null }) {
  return stripe === null ? <LocalCardFields {...fields} /> : <StripeCardFields stripe={stripe} {...fields} />;
}

import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Stripe } from '@stripe/stripe-js';
import CircleAlert from 'lucide-react/icons/circle-alert';
import CircleCheck from 'lucide-react/icons/circle-check';
import CreditCard from 'lucide-react/icons/credit-card';
import Mail from 'lucide-react/icons/mail';
import ShieldCheck from 'lucide-react/icons/shield-check';
import Sparkles from 'lucide-react/icons/sparkles';
import XCircle from 'lucide-react/icons/x-circle';
import { Button } from '../../ui/Button.tsx';
import { formatDateTime, systemTimeZone } from '../../../shared/time-zone.ts';
import { CONTACT_EMAIL } from '../account/links.ts';
import { useLanguage, useNow, useTimeZone } from '../reservations/common.ts';
import {
  useGuestSubscribeMutation,
  useGuestUnsubscribeMutation,
  useGuestUpdateCardMutation,
  usePaymentsConfigQuery,
  usePaymentsLocalConfirmMutation,
  usePaymentsSettleMutation,
  usePaymentsSubscriptionQuery,
  type SubscriptionAnswer,
} from './api.ts';
import { CardForm, errorText, isCallError, type CardResult, type Refusal } from './CardForm.tsx';
import { formatYen } from './card-format.ts';
import { canUnsubscribe, currentPlan, PLAN_OFFERS, planNameOf, subscribablePlans, type CurrentPlan } from './plan-view.ts';

type Notice = { kind: 'info' | 'error'; text: string };
type CardPurpose = { kind: 'subscribe'; plan: number } | { kind: 'update' };

/** Stripe.js from Stripe, with the publishable key the server gives at run time; null under the local provider. */
function useStripe(provider: string | undefined, publishableKey: string | null | undefined): Stripe | null {
  const [stripe, setStripe] = useState<Stripe | null>(null);
  useEffect(() => {
    if (provider !== 'stripe' || publishableKey == null) return;
    let live = true;
    void import('@stripe/stripe-js').then(async ({ loadStripe }) => {
      const loaded = await loadStripe(publishableKey);
      if (live) setStripe(loaded);
    });
    return () => {
      live = false;
    };
  }, [provider, publishableKey]);
  return stripe;
}

function CurrentPlanDetails({ plan }: { plan: CurrentPlan }) {
  const { t } = useTranslation('subscription');
  const timeZone = useTimeZone();
  const language = useLanguage();
  const date = (at: number) => formatDateTime(at, timeZone, language, systemTimeZone());
  if (plan.name === 'light') {
    return (
      <>
        <p data-testid="remaining-hours">{t('light_remaining', { hours: plan.remainingHours })}</p>
        {plan.paymentDay !== null ? <p>{t('light_payment_day', { day: plan.paymentDay })}</p> : null}
      </>
    );
  }
  if (plan.name === 'standard') {
    return plan.nextPaymentAt !== null ? <p>{t('standard_next_payment', { date: date(plan.nextPaymentAt) })}</p> : null;
  }
  if (plan.expiresAt === null) return plan.name === 'trial' ? <p>{t('trial_open')}</p> : null;
  return (
    <p className={plan.expired ? 'subscription-expired' : undefined}>
      {plan.expired ? t(`${plan.name}_expired`) : t(`${plan.name}_until`, { date: date(plan.expiresAt) })}
    </p>
  );
}

/** /subscription (docs/payments.md, Plans): the current plan, the plans with their prices, and card payment through the server's provider. */
export function SubscriptionScreen() {
  const { t } = useTranslation('subscription');
  const now = useNow(60_000);
  const timeZone = useTimeZone();
  const language = useLanguage();
  const config = usePaymentsConfigQuery();
  const read = usePaymentsSubscriptionQuery();
  const stripe = useStripe(config.data?.provider, config.data?.publishableKey);
  const [subscribe] = useGuestSubscribeMutation();
  const [unsubscribe] = useGuestUnsubscribeMutation();
  const [updateCard] = useGuestUpdateCardMutation();
  const [settle] = usePaymentsSettleMutation();
  const [confirmLocal] = usePaymentsLocalConfirmMutation();
  const [cardFor, setCardFor] = useState<CardPurpose | null>(null);
  const [authenticating, setAuthenticating] = useState<string | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [refusal, setRefusal] = useState<Refusal | null>(null);

  if (read.data === undefined || config.data === undefined) return <p className="loading">{t('loading')}</p>;
  const { subscription, guest } = read.data;
  const plan = currentPlan(subscription, guest.totalDurationThisMonth, now);
  const planLabel = (code: number) => t(`plan_${planNameOf(code)}`);

  /** A failed call's message is the network banner's; only other errors (Stripe.js) are shown here. */
  function showError(error: unknown) {
    if (!isCallError(error)) setNotice({ kind: 'error', text: errorText(error) });
  }

  /**
   * What became of a payment (an answer's guest has replaced the guest read
   * already: subscription/api.ts). Paid, the card form closes and the alert
   * says the plan, the amount and the next payment; declined, the form stays
   * open with the decline beside the card, to be corrected, not typed again.
   */
  async function showOutcome(answer: SubscriptionAnswer) {
    const { payment, clientSecret } = answer;
    if (payment?.status === 'failed') {
      setRefusal({ decline: payment.decline ?? 'other' });
      return;
    }
    if (clientSecret !== null) {
      await confirmPayment(clientSecret);
      return;
    }
    setCardFor(null);
    const plan = planLabel(answer.subscription.plan);
    const { nextPaymentAt } = answer.subscription;
    const text =
      payment === null || nextPaymentAt === null
        ? t('subscribed', { plan })
        : t('subscribed_paid', { plan, amount: formatYen(payment.amountYen, language), date: formatDateTime(nextPaymentAt, timeZone, language) });
    setNotice({ kind: 'info', text });
  }

  /** A payment the card asks the guest to confirm: the local provider's step, or Stripe's own, then the server reads the outcome back. */
  async function confirmPayment(clientSecret: string) {
    if (stripe === null) {
      setAuthenticating(clientSecret);
      return;
    }
    await stripe.confirmCardPayment(clientSecret);
    const answer = await settle({ clientSecret }).unwrap();
    // Still waiting: the guest closed Stripe's authentication without finishing it.
    if (answer.clientSecret !== null) setRefusal({ decline: 'authentication_failed' });
    else await showOutcome(answer);
  }

  async function onCard(result: CardResult) {
    setNotice(null);
    setRefusal(null);
    if (!('token' in result)) {
      setRefusal(result);
      return;
    }
    try {
      if (cardFor?.kind === 'update') {
        await updateCard({ token: result.token }).unwrap();
        setCardFor(null);
        setNotice({ kind: 'info', text: t('card_updated') });
      } else if (cardFor?.kind === 'subscribe') {
        await showOutcome(await subscribe({ plan: cardFor.plan, token: result.token }).unwrap());
      }
    } catch (error) {
      showError(error);
    }
  }

  async function onAuthenticate(approve: boolean) {
    setNotice(null);
    const clientSecret = authenticating;
    setAuthenticating(null);
    if (clientSecret === null) return;
    try {
      await showOutcome(await confirmLocal({ clientSecret, approve }).unwrap());
    } catch (error) {
      showError(error);
    }
  }

  function openCardForm(purpose: CardPurpose) {
    setRefusal(null);
    setCardFor(purpose);
  }

  async function onUnsubscribe() {
    if (!window.confirm(t('unsubscribe_confirm'))) return;
    setNotice(null);
    try {
      const answer = await unsubscribe().unwrap();
      const until = answer.subscription.expiredAt ?? now;
      setNotice({ kind: 'info', text: t('unsubscribed', { date: formatDateTime(until, timeZone, language, systemTimeZone()) }) });
    } catch (error) {
      showError(error);
    }
  }

  const offered = subscribablePlans(subscription.plan);
  const cardPlan = cardFor?.kind === 'subscribe' ? PLAN_OFFERS.find((offer) => offer.code === cardFor.plan) : undefined;

  return (
    <section className="subscription-screen">
      <h1>{t('heading')}</h1>
      <div role="alert" className="subscription-alert-region">
        {notice !== null ? (
          <div className={`subscription-alert ${notice.kind}`} data-testid="subscription-alert">
            {notice.kind === 'error' ? (
              <CircleAlert className="subscription-alert-icon" aria-hidden="true" focusable="false" size={22} />
            ) : (
              <CircleCheck className="subscription-alert-icon" aria-hidden="true" focusable="false" size={22} />
            )}
            <p className="subscription-alert-title">{notice.kind === 'error' ? t('error_title') : t('alert_title')}</p>
            <p>{notice.text}</p>
          </div>
        ) : null}
      </div>

      <section className="subscription-current" aria-labelledby="subscription-current-heading">
        <h2 id="subscription-current-heading">{t('current_heading')}</h2>
        <p className="subscription-plan-name" data-testid="current-plan">
          {planLabel(subscription.plan)}
        </p>
        <CurrentPlanDetails plan={plan} />
        {subscription.card !== null ? (
          <p data-testid="card-on-file">{t('card_on_file', { brand: subscription.card.brand, last4: subscription.card.last4 })}</p>
        ) : null}
        <div className="subscription-actions">
          {subscription.card !== null ? (
            <Button variant="secondary" icon={CreditCard} onClick={() => openCardForm({ kind: 'update' })}>
              {t('update_card')}
            </Button>
          ) : null}
          {canUnsubscribe(subscription.plan) ? (
            <Button variant="danger" icon={XCircle} onClick={() => void onUnsubscribe()}>
              {t('unsubscribe')}
            </Button>
          ) : null}
        </div>
      </section>

      {cardFor !== null ? (
        <section className="subscription-card" aria-labelledby="subscription-card-heading">
          <h2 id="subscription-card-heading">
            {cardPlan !== undefined ? t('card_heading_subscribe', { plan: planLabel(cardPlan.code) }) : t('card_heading_update')}
          </h2>
          {cardPlan !== undefined ? <p>{t('card_first_month', { price: cardPlan.priceYen.toLocaleString(language) })}</p> : null}
          {config.data.provider === 'stripe' && stripe === null ? (
            <p className="loading">{t('card_loading')}</p>
          ) : (
            <CardForm
              stripe={stripe}
              submitLabel={cardPlan !== undefined ? t('card_submit_subscribe') : t('card_submit_update')}
              refusal={refusal}
              onCard={(result) => void onCard(result)}
              onCancel={() => setCardFor(null)}
            />
          )}
        </section>
      ) : null}

      {authenticating !== null ? (
        <div className="subscription-authenticate" role="dialog" aria-modal="false" aria-labelledby="subscription-authenticate-heading">
          <h2 id="subscription-authenticate-heading">{t('authenticate_heading')}</h2>
          <p>{t('authenticate_text')}</p>
          <div className="subscription-actions">
            <Button icon={ShieldCheck} onClick={() => void onAuthenticate(true)}>
              {t('authenticate_approve')}
            </Button>
            <Button variant="secondary" onClick={() => void onAuthenticate(false)}>
              {t('authenticate_decline')}
            </Button>
          </div>
        </div>
      ) : null}

      <section className="subscription-plans" aria-labelledby="subscription-plans-heading">
        <h2 id="subscription-plans-heading">{t('plans_heading')}</h2>
        <p className="subscription-note">{t('billing_note')}</p>
        <ul>
          {PLAN_OFFERS.map((offer) => (
            <li key={offer.name} className={`subscription-offer${offer.code === subscription.plan ? ' current' : ''}`} data-testid={`plan-${offer.name}`}>
              <h3>{t(`plan_${offer.name}`)}</h3>
              <p className="subscription-price">{t(`price_${offer.name}`, { price: offer.priceYen.toLocaleString(language) })}</p>
              {offered.includes(offer.code) ? (
                <Button icon={Sparkles} onClick={() => openCardForm({ kind: 'subscribe', plan: offer.code })}>
                  {t('subscribe', { plan: t(`plan_${offer.name}`) })}
                </Button>
              ) : null}
              {!offer.byCard ? (
                <p className="subscription-mail">
                  <Mail aria-hidden="true" focusable="false" size={18} />
                  <a href={`mailto:${CONTACT_EMAIL}`}>{t('apply_by_mail', { email: CONTACT_EMAIL })}</a>
                </p>
              ) : null}
            </li>
          ))}
        </ul>
      </section>
    </section>
  );
}

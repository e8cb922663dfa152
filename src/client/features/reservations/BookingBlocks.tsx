import BookOpen from 'lucide-react/icons/book-open';
import CalendarOff from 'lucide-react/icons/calendar-off';
import Mail from 'lucide-react/icons/mail';
import Sparkles from 'lucide-react/icons/sparkles';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { message } from '../../../shared/messages.ts';
import type { BookingBlock } from '../../../shared/reservations.ts';
import { formatDateTime, systemTimeZone } from '../../../shared/time-zone.ts';
import { Button, ButtonLink } from '../../ui/Button.tsx';
import { useGuestResendVerifyEmailMutation } from './api.ts';
import { useLanguage, useTimeZone } from './common.ts';

/** One reason the guest cannot book now: what it is, the spec's words for it, and what to do. */
function BlockCard({ title, text, children }: { title: string; text: string; children: ReactNode }) {
  return (
    <section className="booking-block" aria-labelledby="booking-block-title" data-testid="booking-block">
      <CalendarOff className="booking-block-icon" aria-hidden="true" focusable="false" size={28} />
      <h2 id="booking-block-title">{title}</h2>
      <p>{text}</p>
      <div className="booking-block-actions">{children}</div>
    </section>
  );
}

function ResendButton() {
  const { t } = useTranslation('reservations/list');
  const [resend, { isSuccess }] = useGuestResendVerifyEmailMutation();
  return (
    <>
      <Button icon={Mail} onClick={() => void resend()}>
        {t('resend')}
      </Button>
      {isSuccess ? <p role="status">{t('email_sent')}</p> : null}
    </>
  );
}

/** Why booking is closed (the shared gates, or a light plan with no hours left), shown instead of the form. */
export function BookingBlockNotice({ block }: { block: BookingBlock | { reason: 'light_plan_used' } }) {
  const { t } = useTranslation('reservations');
  const language = useLanguage();
  const timeZone = useTimeZone();
  const rules = (
    <ButtonLink variant="secondary" icon={BookOpen} to="/rules">
      {t('see_rules')}
    </ButtonLink>
  );
  const plans = (
    <ButtonLink icon={Sparkles} to="/subscription">
      {t('see_plans')}
    </ButtonLink>
  );
  switch (block.reason) {
    case 'unverified':
      return (
        <BlockCard title={t('block_unverified_title')} text={message(language, 'unverified')}>
          <ResendButton />
        </BlockCard>
      );
    case 'plan_ended':
      return (
        <BlockCard title={t('block_plan_ended_title')} text={message(language, 'plan_ended')}>
          {plans}
        </BlockCard>
      );
    case 'suspended':
      return (
        <BlockCard
          title={t('block_suspended_title')}
          text={message(language, 'suspended', { resumeDateTime: formatDateTime(block.until, timeZone, language, systemTimeZone()) })}
        >
          {rules}
        </BlockCard>
      );
    case 'early_finish_blocked':
      return (
        <BlockCard
          title={t('block_early_title')}
          text={message(language, 'early_finish_blocked', { endDateTime: formatDateTime(block.until, timeZone, language, systemTimeZone()) })}
        >
          {rules}
        </BlockCard>
      );
    case 'light_plan_used':
      return (
        <BlockCard title={t('block_light_used_title')} text={t('block_light_used_text')}>
          {plans}
        </BlockCard>
      );
  }
}

import BellRing from 'lucide-react/icons/bell-ring';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../ui/Button.tsx';
import { Card } from '../../ui/Card.tsx';
import { useGuestReadRemindersQuery } from './api.ts';
import { useTurnOnThisBrowser } from './PushRemindersCard.tsx';
import { browserPushFacts, pushSupport, thisBrowserEndpoint } from './push.ts';
import './reminders.css';

/**
 * After a booking, the moment a reminder makes sense: an offer to turn
 * reminders on in this browser, when it can take them, has not yet, and was
 * not refused. The permission prompt comes only from its button.
 */
export function ReminderOffer() {
  const { t } = useTranslation('reminders');
  const { data } = useGuestReadRemindersQuery();
  const { turnOn, busy } = useTurnOnThisBrowser();
  const [subscribed, setSubscribed] = useState<boolean | null>(null);
  const [outcome, setOutcome] = useState<'on' | 'later' | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    void thisBrowserEndpoint().then((endpoint) => setSubscribed(endpoint !== null));
  }, []);
  const reminders = data?.reminders;
  const offered =
    reminders !== undefined &&
    reminders.leadMinutes !== null &&
    subscribed === false &&
    pushSupport(browserPushFacts()) === 'available' &&
    Notification.permission !== 'denied';
  if (!offered || outcome === 'later') return null;
  if (outcome === 'on') {
    return (
      <p className="reminders-offer-done" role="status">
        {t('offer_done')}
      </p>
    );
  }
  return (
    <Card title={t('offer_title')} headingLevel={2} className="reminders-offer">
      <p>{t('offer_text')}</p>
      <div className="reminders-actions">
        <Button
          icon={BellRing}
          disabled={busy}
          onClick={() =>
            void turnOn(reminders.publicKey).then((found) => {
              setProblem(found);
              if (found === null) setOutcome('on');
            })
          }
        >
          {t('offer_button')}
        </Button>
        <Button variant="secondary" onClick={() => setOutcome('later')}>
          {t('offer_later')}
        </Button>
      </div>
      <p role="alert" className="reminders-problem">
        {problem ?? ''}
      </p>
    </Card>
  );
}

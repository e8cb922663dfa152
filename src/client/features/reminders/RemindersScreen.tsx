import { useTranslation } from 'react-i18next';
import { useGuest } from '../../app/session.ts';
import { CalendarFeedCard } from './CalendarFeedCard.tsx';
import { PushRemindersCard } from './PushRemindersCard.tsx';
import './reminders.css';

/** /reminders (docs/reminders.md, docs/calendar.md): what brings the guest back to the jails they booked. */
export function RemindersScreen() {
  const { t } = useTranslation('reminders');
  const guest = useGuest();
  return (
    <div className="screen reminders-screen">
      <h1>{t('title')}</h1>
      <p className="reminders-intro">{t('intro')}</p>
      <PushRemindersCard />
      {guest === null ? null : <CalendarFeedCard hint={guest.calendarFeedHint} />}
    </div>
  );
}

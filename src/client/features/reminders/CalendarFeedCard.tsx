import CalendarSync from 'lucide-react/icons/calendar-sync';
import CalendarX2 from 'lucide-react/icons/calendar-x-2';
import Check from 'lucide-react/icons/check';
import Copy from 'lucide-react/icons/copy';
import ExternalLink from 'lucide-react/icons/external-link';
import RefreshCw from 'lucide-react/icons/refresh-cw';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CalendarFeed } from '../../../shared/api/collaboration.ts';
import { message } from '../../../shared/messages.ts';
import { useIsFacilitatorSession } from '../../app/hooks.ts';
import { Button } from '../../ui/Button.tsx';
import { Card } from '../../ui/Card.tsx';
import { Sheet } from '../../ui/Sheet.tsx';
import { useLanguage } from '../reservations/common.ts';
import { useGuestRegenerateCalendarFeedMutation, useGuestRemoveCalendarFeedMutation } from './api.ts';
import { subscribeLinks } from './calendar-links.ts';

/** The address just made: shown this once, with a copy button and each calendar app's subscribe link. */
function FreshAddress({ feed }: { feed: CalendarFeed }) {
  const { t } = useTranslation('reminders');
  const language = useLanguage();
  const id = useId();
  const [copied, setCopied] = useState(false);
  const links = subscribeLinks(feed.url, message(language, 'calendar_name'));
  async function copy() {
    // The clipboard exists only on secure pages; elsewhere the field's text is selected for the guest to copy.
    if (navigator.clipboard === undefined) {
      const field = document.getElementById(id);
      if (field instanceof HTMLInputElement) field.select();
      return;
    }
    await navigator.clipboard.writeText(feed.url);
    setCopied(true);
  }
  return (
    <>
      <p className="reminders-ready" role="status">
        {t('calendar_ready')}
      </p>
      <label className="reminders-label" htmlFor={id}>
        {t('calendar_address')}
      </label>
      <div className="reminders-address">
        <input id={id} className="control" type="text" readOnly value={feed.url} data-testid="calendar-feed-url" onFocus={(event) => event.target.select()} />
        <Button variant="secondary" icon={copied ? Check : Copy} onClick={() => void copy()}>
          {copied ? t('calendar_copied') : t('calendar_copy')}
        </Button>
      </div>
      <h3 className="reminders-subheading">{t('calendar_add_with')}</h3>
      <ul className="reminders-apps">
        {(['google', 'apple', 'outlook'] as const).map((app) => (
          <li key={app}>
            <a className="button secondary" href={links[app]} target="_blank" rel="noreferrer">
              <ExternalLink className="button-icon" aria-hidden="true" focusable="false" size={20} />
              <span>{t(`calendar_${app}`)}</span>
            </a>
          </li>
        ))}
      </ul>
      <p className="reminders-note">{t('calendar_refresh_note')}</p>
    </>
  );
}

/**
 * The calendar feed (docs/calendar.md): made on request, its address shown
 * once, then only its last characters; a new one replaces it, and it can be
 * turned off. Both ask first, since either breaks the calendars that use it.
 */
export function CalendarFeedCard({ hint }: { hint: string | null }) {
  const { t } = useTranslation('reminders');
  const [regenerate, { data, isLoading: making, reset }] = useGuestRegenerateCalendarFeedMutation();
  const [remove, { isLoading: removing, isSuccess: removed }] = useGuestRemoveCalendarFeedMutation();
  const [confirming, setConfirming] = useState<'new' | 'stop' | null>(null);
  // Only the guest makes a calendar address (docs/sessions.md): a facilitator's session is told so instead.
  const facilitator = useIsFacilitatorSession();
  const fresh = data?.calendarFeed ?? null;
  const make = () => {
    setConfirming(null);
    void regenerate();
  };
  const stop = () => {
    setConfirming(null);
    reset();
    void remove();
  };
  return (
    <Card title={t('calendar_heading')} className="reminders-card">
      <p>{t('calendar_explain')}</p>
      {fresh !== null ? <FreshAddress feed={fresh} /> : null}
      {fresh === null && hint !== null ? (
        <p className="reminders-active" data-testid="calendar-feed-hint">
          <CalendarSync aria-hidden="true" focusable="false" size={20} />
          <span>{t('calendar_active', { hint: `…${hint}` })}</span>
        </p>
      ) : null}
      {hint === null && fresh === null ? (
        <>
          <p role="status" className="reminders-note">
            {removed ? t('calendar_stopped') : ''}
          </p>
          {facilitator ? (
            <p className="reminders-note">{t('calendar_facilitator')}</p>
          ) : (
            <Button icon={CalendarSync} disabled={making} onClick={make}>
              {t('calendar_start')}
            </Button>
          )}
        </>
      ) : (
        <>
          <p className="reminders-note reminders-private">{t('calendar_private_note')}</p>
          <div className="reminders-actions">
            {facilitator ? null : (
              <Button variant="secondary" icon={RefreshCw} disabled={making} onClick={() => setConfirming('new')}>
                {t('calendar_new')}
              </Button>
            )}
            <Button variant="danger" icon={CalendarX2} disabled={removing} onClick={() => setConfirming('stop')}>
              {t('calendar_stop')}
            </Button>
          </div>
        </>
      )}
      <Sheet
        open={confirming !== null}
        title={t(confirming === 'stop' ? 'calendar_stop_title' : 'calendar_new_title')}
        closeLabel={t('close')}
        onClose={() => setConfirming(null)}
      >
        <p>{t(confirming === 'stop' ? 'calendar_stop_text' : 'calendar_new_text')}</p>
        <div className="reminders-actions">
          {confirming === 'stop' ? (
            <Button variant="danger" icon={CalendarX2} onClick={stop}>
              {t('calendar_stop')}
            </Button>
          ) : (
            <Button icon={RefreshCw} onClick={make}>
              {t('calendar_new')}
            </Button>
          )}
          <Button variant="secondary" onClick={() => setConfirming(null)}>
            {t('keep')}
          </Button>
        </div>
      </Sheet>
    </Card>
  );
}

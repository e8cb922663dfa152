import BellOff from 'lucide-react/icons/bell-off';
import BellRing from 'lucide-react/icons/bell-ring';
import Trash2 from 'lucide-react/icons/trash-2';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Reminders } from '../../../shared/api/reminders.ts';
import { REMINDER_LEADS, type ReminderLead } from '../../../shared/reservations.ts';
import type { CallError } from '../../app/baseQuery.ts';
import { Button } from '../../ui/Button.tsx';
import { Card } from '../../ui/Card.tsx';
import { type Segment, SegmentedControl } from '../../ui/SegmentedControl.tsx';
import { Switch } from '../../ui/Switch.tsx';
import { dateWithWeekday, useLanguage, useTimeZone } from '../reservations/common.ts';
import { useGuestAddPushDeviceMutation, useGuestReadRemindersQuery, useGuestRemovePushDeviceMutation, useGuestUpdateRemindersMutation } from './api.ts';
import { browserAndSystem, browserPushFacts, pushSupport, subscribeThisBrowser, thisBrowserEndpoint, unsubscribeThisBrowser } from './push.ts';

type LeadChoice = `${ReminderLead}` | 'off';

/** This browser's push address, read once the page is up (null: not subscribed). */
function useThisBrowserEndpoint(): [string | null, (endpoint: string | null) => void] {
  const [endpoint, setEndpoint] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    void thisBrowserEndpoint().then((found) => {
      if (current) setEndpoint(found);
    });
    return () => {
      current = false;
    };
  }, []);
  return [endpoint, setEndpoint];
}

/**
 * Turns reminders on in this browser: the permission prompt (from this tap
 * only), the subscription, the server. Answers what went wrong, in words for
 * the guest: the server's own when it refused (ten browsers already, too many
 * tries), else why the browser did not subscribe.
 */
export function useTurnOnThisBrowser(): { turnOn(publicKey: string): Promise<string | null>; busy: boolean } {
  const { t } = useTranslation('reminders');
  const [add] = useGuestAddPushDeviceMutation();
  const [busy, setBusy] = useState(false);
  async function turnOn(publicKey: string): Promise<string | null> {
    setBusy(true);
    try {
      const subscription = await subscribeThisBrowser(publicKey);
      if (typeof subscription === 'string') return t(subscription);
      const result = await add({ ...subscription, label: t('device_label', browserAndSystem(navigator.userAgent)) });
      if ('data' in result) return null;
      const error = result.error as CallError | undefined;
      return error?.status === 'FAILED' ? error.message : t('failed');
    } finally {
      setBusy(false);
    }
  }
  return { turnOn, busy };
}

function ThisBrowser({ reminders, endpoint, onEndpoint }: { reminders: Reminders; endpoint: string | null; onEndpoint(endpoint: string | null): void }) {
  const { t } = useTranslation('reminders');
  const support = pushSupport(browserPushFacts());
  const { turnOn, busy } = useTurnOnThisBrowser();
  const [remove] = useGuestRemovePushDeviceMutation();
  const [problem, setProblem] = useState<string | null>(null);
  const device = reminders.devices.find((candidate) => candidate.endpoint === endpoint);
  if (support !== 'available') return <p className="reminders-note reminders-private">{t(support === 'needs-install' ? 'needs_install' : 'unsupported')}</p>;
  const on = async () => {
    setProblem(await turnOn(reminders.publicKey));
    onEndpoint(await thisBrowserEndpoint());
  };
  const off = async () => {
    if (device !== undefined) await remove({ id: device.id });
    await unsubscribeThisBrowser();
    onEndpoint(null);
  };
  return (
    <div className="reminders-browser">
      <p className={device === undefined ? 'reminders-active is-off' : 'reminders-active'} data-testid="this-browser">
        {device === undefined ? <BellOff aria-hidden="true" focusable="false" size={20} /> : <BellRing aria-hidden="true" focusable="false" size={20} />}
        <span>{t(device === undefined ? 'browser_off' : 'browser_on')}</span>
      </p>
      {device === undefined ? (
        <Button icon={BellRing} disabled={busy || reminders.leadMinutes === null} onClick={() => void on()}>
          {t('turn_on')}
        </Button>
      ) : (
        <Button variant="secondary" icon={BellOff} onClick={() => void off()}>
          {t('turn_off')}
        </Button>
      )}
      <p role="alert" className="reminders-problem">
        {problem ?? ''}
      </p>
    </div>
  );
}

/**
 * Reminders before a jail (docs/reminders.md): when, this browser on or off,
 * e-mail for a guest with no device, and the devices that get them.
 */
export function PushRemindersCard() {
  const { t } = useTranslation('reminders');
  const language = useLanguage();
  const timeZone = useTimeZone();
  const { data } = useGuestReadRemindersQuery();
  const [update] = useGuestUpdateRemindersMutation();
  const [remove] = useGuestRemovePushDeviceMutation();
  const [endpoint, setEndpoint] = useThisBrowserEndpoint();
  // The choice shows at once; the saved settings replace it when they come back.
  const [chosenLead, setChosenLead] = useState<LeadChoice | null>(null);
  const reminders = data?.reminders;
  const savedLead: LeadChoice | null = reminders === undefined ? null : reminders.leadMinutes === null ? 'off' : `${reminders.leadMinutes}`;
  useEffect(() => {
    if (chosenLead !== null && chosenLead === savedLead) setChosenLead(null);
  }, [chosenLead, savedLead]);
  if (reminders === undefined || savedLead === null) return null;
  const setLead = (choice: LeadChoice) => {
    setChosenLead(choice);
    const leadMinutes = REMINDER_LEADS.find((minutes) => `${minutes}` === choice) ?? null;
    void update({ leadMinutes, byEmail: reminders.byEmail }).then((result) => {
      if (!('data' in result)) setChosenLead(null);
    });
  };
  return (
    <Card title={t('push_heading')} className="reminders-card">
      <p>{t('push_explain')}</p>
      <SegmentedControl<LeadChoice>
        legend={t('lead_legend')}
        value={chosenLead ?? savedLead}
        options={[
          ...REMINDER_LEADS.map((minutes): Segment<LeadChoice> => ({ value: `${minutes}`, label: t(`lead_${minutes}`) })),
          { value: 'off', label: t('lead_off') },
        ]}
        onValueChange={setLead}
      />
      <p className="reminders-note">{t('lead_15_note')}</p>
      <h3 className="reminders-subheading">{t('this_browser')}</h3>
      <ThisBrowser reminders={reminders} endpoint={endpoint} onEndpoint={setEndpoint} />
      <Switch
        label={t('by_email')}
        checked={reminders.byEmail}
        disabled={reminders.leadMinutes === null}
        onChange={(byEmail) => update({ leadMinutes: reminders.leadMinutes, byEmail }).then((result) => 'data' in result)}
      />
      {reminders.devices.length === 0 ? null : (
        <>
          <h3 className="reminders-subheading">{t('devices_heading')}</h3>
          <ul className="row-list">
            {reminders.devices.map((device) => (
              <li key={device.id} data-testid="push-device">
                <span>
                  <strong>{device.label}</strong>
                  {device.endpoint === endpoint ? ` (${t('device_this')})` : ''}
                  <br />
                  <span className="reminders-note">{t('device_added', { date: dateWithWeekday(device.createdAt, timeZone, language) })}</span>
                </span>
                <Button
                  variant="ghost"
                  icon={Trash2}
                  aria-label={t('device_remove', { label: device.label })}
                  onClick={() => {
                    void remove({ id: device.id });
                    if (device.endpoint === endpoint) void unsubscribeThisBrowser().then(() => setEndpoint(null));
                  }}
                >
                  {t('remove')}
                </Button>
              </li>
            ))}
          </ul>
        </>
      )}
    </Card>
  );
}

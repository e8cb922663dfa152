import KeyRound from 'lucide-react/icons/key-round';
import RefreshCw from 'lucide-react/icons/refresh-cw';
import Save from 'lucide-react/icons/save';
import { Button } from '../../ui/Button.tsx';
import { Switch } from '../../ui/Switch.tsx';
import { useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { isValidTriggerBodyTemplate, TRIGGER_PLACEHOLDERS, type TriggerDelivery } from '../../../shared/api/collaboration.ts';
import type { Guest } from '../../../shared/api/guest.ts';
import { REPEAT_TYPES, type RepeatType } from '../../../shared/constants.ts';
import { clockLabel, formatDateTime, systemTimeZone } from '../../../shared/time-zone.ts';
import { useGuestUpdateMutation } from '../account/api.ts';
import { guestUpdateRequestSchema } from '../../../shared/api/guest.ts';
import { useFieldErrors } from '../../app/fieldErrors.ts';
import { useIsFacilitatorSession } from '../../app/hooks.ts';
import { useGuest } from '../../app/session.ts';
import { SelectField, TextAreaField, TextField, type SelectOption } from '../../ui/Field.tsx';
import { dateOptions, newBookingForm, timeOptions } from '../reservations/booking-form.ts';
import { DURATION_OPTIONS, durationLabel } from '../reservations/duration-options.ts';
import { useLanguage, useTimeZone, weekdayName } from '../reservations/common.ts';
import {
  useGuestReadTriggerSecretQuery,
  useGuestRegenerateTriggerSecretMutation,
  useGuestRegenerateWebhookTokenMutation,
  useGuestTriggerDeliveriesQuery,
} from './api.ts';
import {
  EXAMPLE_TRIGGER_TEMPLATE,
  exampleTriggerBody,
  exampleTriggerQuery,
  maskedWebhookAddress,
  WEBHOOK_FAILURE_SAMPLE,
  WEBHOOK_SUCCESS_SAMPLE,
  webhookAddress,
  webhookSampleBody,
} from './samples.ts';
import './collaboration.css';

const TABS = ['trigger', 'webhook'] as const;
type Tab = (typeof TABS)[number];

const METHOD_OPTIONS: readonly SelectOption[] = [
  { value: 'POST', label: 'POST' },
  { value: 'GET', label: 'GET' },
];

/** The server's rules of the trigger's URL and body, checked before sending. */
const TRIGGER_FIELDS = guestUpdateRequestSchema.shape.guest.pick({ triggerUrl: true, triggerBody: true });

/** The trigger's method, URL and body, saved with Update. */
function TriggerForm({ guest }: { guest: Guest }) {
  const { t } = useTranslation('collaboration');
  const [method, setMethod] = useState(guest.triggerMethod);
  const [url, setUrl] = useState(guest.triggerUrl ?? '');
  const [body, setBody] = useState(guest.triggerBody ?? '');
  const [saved, setSaved] = useState(false);
  const [update, { isLoading }] = useGuestUpdateMutation();
  const form = useFieldErrors<'triggerUrl' | 'triggerBody'>({ trigger_url_forbidden: 'triggerUrl', trigger_body_invalid: 'triggerBody' });
  const bodyInvalid = method === 'POST' && body.trim() !== '' && !isValidTriggerBodyTemplate(body);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setSaved(false);
    const triggerBody = method === 'POST' ? body : null;
    if (!form.check(TRIGGER_FIELDS, { triggerUrl: url.trim(), triggerBody })) return;
    const result = await update({ triggerMethod: method, triggerUrl: url.trim(), ...(triggerBody === null ? {} : { triggerBody }) });
    setSaved(form.succeeded(result));
  }

  return (
    <form className="collab-form" onSubmit={submit} noValidate>
      <SelectField label={t('method')} value={method} options={METHOD_OPTIONS} onValueChange={(value) => setMethod(value === 'GET' ? 'GET' : 'POST')} />
      <TextField
        label={t('url')}
        type="url"
        inputMode="url"
        value={url}
        placeholder={t('url_placeholder')}
        error={form.errors.triggerUrl}
        onValueChange={setUrl}
      />
      {method === 'POST' ? (
        <TextAreaField
          label={t('body')}
          rows={6}
          spellCheck={false}
          value={body}
          placeholder={EXAMPLE_TRIGGER_TEMPLATE}
          hint={t('body_help')}
          error={bodyInvalid ? t('body_invalid') : form.errors.triggerBody}
          onValueChange={setBody}
        />
      ) : null}
      <div className="collab-actions">
        <Button type="submit" icon={Save} disabled={isLoading}>
          {t('update')}
        </Button>
        <p role="status" className="collab-status">
          {saved ? t('updated') : ''}
        </p>
      </div>
    </form>
  );
}

function TriggerDocs({ url }: { url: string }) {
  const { t } = useTranslation('collaboration');
  return (
    <section className="collab-section" aria-labelledby="collab-parameters">
      <h2 id="collab-parameters">{t('parameters')}</h2>
      <dl className="collab-parameters">
        {TRIGGER_PLACEHOLDERS.map((name) => (
          <div key={name}>
            <dt>
              <code>{`{{${name}}}`}</code>
            </dt>
            <dd>{t(`param_${name}`)}</dd>
          </div>
        ))}
      </dl>
      <h3>{t('examples')}</h3>
      <p>{t('example_post')}</p>
      <pre className="collab-code">{EXAMPLE_TRIGGER_TEMPLATE}</pre>
      <p>{t('example_sent')}</p>
      <pre className="collab-code">{exampleTriggerBody()}</pre>
      <p>{t('example_get')}</p>
      <pre className="collab-code" data-testid="trigger-get-example">
        GET {exampleTriggerQuery(url)}
      </pre>
      <p className="collab-help">{t('retry_explain')}</p>
    </section>
  );
}

/** The signing secret; a facilitator's session is told that only the guest can see it (docs/sessions.md). */
function TriggerSecret() {
  const { t } = useTranslation('collaboration');
  const facilitator = useIsFacilitatorSession();
  return (
    <section className="collab-section" aria-labelledby="collab-signing">
      <h2 id="collab-signing">{t('signing')}</h2>
      <p className="collab-help">{t('signing_explain')}</p>
      {facilitator ? <p className="collab-help">{t('credentials_facilitator')}</p> : <TriggerSecretValue />}
    </section>
  );
}

function TriggerSecretValue() {
  const { t } = useTranslation('collaboration');
  const { data } = useGuestReadTriggerSecretQuery();
  const [regenerate, { isLoading, isSuccess }] = useGuestRegenerateTriggerSecretMutation();
  return (
    <>
      <p className="collab-label">{t('secret')}</p>
      <code className="collab-secret" data-testid="trigger-secret">
        {data?.triggerSecret ?? ''}
      </code>
      <div className="collab-actions">
        <Button variant="secondary" icon={KeyRound} disabled={isLoading} onClick={() => void regenerate()}>
          {t('secret_new')}
        </Button>
        <p role="status" className="collab-status">
          {isSuccess ? t('secret_new_done') : ''}
        </p>
      </div>
    </>
  );
}

function DeliveryItem({ delivery }: { delivery: TriggerDelivery }) {
  const { t } = useTranslation('collaboration');
  const language = useLanguage();
  const timeZone = useTimeZone();
  const when = (time: number | null) => (time === null ? t('never') : formatDateTime(time, timeZone, language, systemTimeZone()));
  const result = [delivery.lastStatusCode === null ? null : `HTTP ${delivery.lastStatusCode}`, delivery.lastError].filter((part) => part !== null).join(' · ');
  return (
    <li className={`collab-delivery collab-delivery-${delivery.status}`} data-testid="trigger-delivery">
      <dl>
        <div>
          <dt>{t('delivery_time')}</dt>
          <dd>{when(delivery.createdAt)}</dd>
        </div>
        <div>
          <dt>{t('delivery_work')}</dt>
          <dd>{delivery.work ?? t('never')}</dd>
        </div>
        <div>
          <dt>{t('delivery_status')}</dt>
          <dd data-testid="trigger-delivery-status">{t(`status_${delivery.status}`)}</dd>
        </div>
        <div>
          <dt>{t('delivery_attempts')}</dt>
          <dd>{delivery.attempts}</dd>
        </div>
        <div>
          <dt>{t('delivery_result')}</dt>
          <dd>{result === '' ? t('never') : result}</dd>
        </div>
        {delivery.status === 'pending' ? (
          <div>
            <dt>{t('delivery_next')}</dt>
            <dd>{when(delivery.nextAttemptAt)}</dd>
          </div>
        ) : null}
      </dl>
    </li>
  );
}

function TriggerDeliveries() {
  const { t } = useTranslation('collaboration');
  const { data, isSuccess, refetch, isFetching } = useGuestTriggerDeliveriesQuery(undefined, { refetchOnMountOrArgChange: true });
  const deliveries = data?.triggerDeliveries ?? [];
  return (
    <section className="collab-section" aria-labelledby="collab-deliveries">
      <div className="collab-heading-row">
        <h2 id="collab-deliveries">{t('deliveries')}</h2>
        <Button variant="secondary" icon={RefreshCw} className="button-small" disabled={isFetching} onClick={() => void refetch()}>
          {t('deliveries_refresh')}
        </Button>
      </div>
      {isSuccess && deliveries.length === 0 ? <p className="collab-help">{t('deliveries_empty')}</p> : null}
      {deliveries.length > 0 ? (
        <ul className="collab-deliveries" aria-labelledby="collab-deliveries">
          {deliveries.map((delivery) => (
            <DeliveryItem key={delivery.id} delivery={delivery} />
          ))}
        </ul>
      ) : null}
    </section>
  );
}

function TriggerTab({ guest }: { guest: Guest }) {
  const { t } = useTranslation('collaboration');
  const [update] = useGuestUpdateMutation();
  // A switch has no field of its own: a refusal goes to the banner.
  const refusals = useFieldErrors();
  return (
    <>
      <Switch
        label={t('trigger_switch')}
        checked={guest.triggerEnabled}
        testId="trigger-enabled"
        onChange={(checked) => update({ triggerEnabled: checked }).then(refusals.succeeded)}
      />
      <p className="collab-help">{t('trigger_explain')}</p>
      <TriggerForm guest={guest} />
      <TriggerDocs url={guest.triggerUrl ?? ''} />
      <TriggerSecret />
      <TriggerDeliveries />
    </>
  );
}

function WebhookAddress({ guest }: { guest: Guest }) {
  const { t } = useTranslation('collaboration');
  const [regenerate, { data, isLoading }] = useGuestRegenerateWebhookTokenMutation();
  const facilitator = useIsFacilitatorSession();
  const origin = window.location.origin;
  const fresh = data?.webhookToken.token;
  return (
    <section className="collab-section" aria-labelledby="collab-address">
      <h2 id="collab-address">{t('webhook_address')}</h2>
      <p className="collab-endpoint">
        <span className="collab-method">POST</span>
        <code data-testid="webhook-address">{fresh === undefined ? maskedWebhookAddress(origin, guest.webhookTokenHint) : webhookAddress(origin, fresh)}</code>
      </p>
      <p className={fresh === undefined ? 'collab-help' : 'collab-warning'} role="status">
        {fresh === undefined ? t('webhook_address_hidden') : t('webhook_address_once')}
      </p>
      {facilitator ? (
        <p className="collab-help">{t('credentials_facilitator')}</p>
      ) : (
        <Button variant="secondary" icon={RefreshCw} disabled={isLoading} onClick={() => void regenerate()}>
          {t('webhook_address_new')}
        </Button>
      )}
    </section>
  );
}

/** The pickers of the booking form, building the sample body. */
function WebhookSampleBuilder() {
  const { t } = useTranslation('collaboration');
  const id = useId();
  const language = useLanguage();
  const timeZone = useTimeZone();
  const [now] = useState(() => Date.now());
  const [initial] = useState(() => newBookingForm(now, timeZone));
  const [startNow, setStartNow] = useState(false);
  const [date, setDate] = useState(initial.date);
  const [minutes, setMinutes] = useState(initial.minutes);
  const [duration, setDuration] = useState(initial.duration);
  const [repeatType, setRepeatType] = useState<RepeatType>('none');
  const [work, setWork] = useState(() => t('sample_work_default'));
  const dates = dateOptions(now, timeZone);
  const times = timeOptions(date, now, timeZone);
  const sample = webhookSampleBody({
    date: startNow ? null : date,
    time: startNow ? null : clockLabel(minutes),
    duration: Math.round(duration * 60),
    repeatType,
    work,
  });
  return (
    <section className="collab-section" aria-labelledby="collab-sample">
      <h2 id="collab-sample">{t('sample_builder')}</h2>
      <div className="collab-builder">
        <div className="switch-field">
          <input id={`${id}-now`} type="checkbox" checked={startNow} onChange={(event) => setStartNow(event.target.checked)} />
          <label htmlFor={`${id}-now`}>{t('sample_now')}</label>
        </div>
        <SelectField
          label={t('sample_date')}
          value={date}
          disabled={startNow}
          options={dates.map((option) => ({ value: option.key, label: `${option.key} (${weekdayName(option.weekday, language)})` }))}
          onValueChange={setDate}
        />
        <SelectField
          label={t('sample_time')}
          value={String(minutes)}
          disabled={startNow}
          options={times.map((option) => ({ value: String(option.minutes), label: option.label }))}
          onValueChange={(value) => setMinutes(Number(value))}
        />
        <SelectField
          label={t('sample_duration')}
          value={String(duration)}
          options={DURATION_OPTIONS.map((hours) => ({ value: String(hours), label: durationLabel(hours) }))}
          onValueChange={(value) => setDuration(Number(value))}
        />
        <SelectField
          label={t('sample_repeat')}
          value={repeatType}
          options={REPEAT_TYPES.map((type) => ({ value: type, label: t(`repeat_${type}`) }))}
          onValueChange={(value) => setRepeatType(REPEAT_TYPES.find((type) => type === value) ?? 'none')}
        />
        <TextField label={t('sample_work')} type="text" value={work} onValueChange={setWork} />
      </div>
      <h3>{t('sample')}</h3>
      <pre className="collab-code" data-testid="webhook-sample">
        {sample}
      </pre>
      <h3>{t('sample_success')}</h3>
      <pre className="collab-code">{WEBHOOK_SUCCESS_SAMPLE}</pre>
      <h3>{t('sample_failure')}</h3>
      <pre className="collab-code">{WEBHOOK_FAILURE_SAMPLE}</pre>
    </section>
  );
}

function WebhookTab({ guest }: { guest: Guest }) {
  const { t } = useTranslation('collaboration');
  const [update] = useGuestUpdateMutation();
  // A switch has no field of its own: a refusal goes to the banner.
  const refusals = useFieldErrors();
  return (
    <>
      <Switch
        label={t('webhook_switch')}
        checked={guest.webhookEnabled}
        testId="webhook-enabled"
        onChange={(checked) => update({ webhookEnabled: checked }).then(refusals.succeeded)}
      />
      <p className="collab-help">{t('webhook_explain')}</p>
      <WebhookAddress guest={guest} />
      <WebhookSampleBuilder />
    </>
  );
}

/** /collaboration (docs/collaboration.md): the Trigger and Webhook tabs. */
export function CollaborationScreen() {
  const { t } = useTranslation('collaboration');
  const guest = useGuest();
  const [tab, setTab] = useState<Tab>('trigger');
  const tabRefs = useRef<Record<Tab, HTMLButtonElement | null>>({ trigger: null, webhook: null });

  // Arrow keys move between the tabs (WAI-ARIA tabs pattern).
  function onTabKey(event: KeyboardEvent) {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
    event.preventDefault();
    const next = tab === 'trigger' ? 'webhook' : 'trigger';
    setTab(next);
    tabRefs.current[next]?.focus();
  }

  return (
    <div className="screen collab-screen">
      <h1>{t('title')}</h1>
      <p>{t('intro')}</p>
      <div className="collab-tabs" role="tablist" aria-label={t('tabs_label')}>
        {TABS.map((name) => (
          <button
            key={name}
            ref={(element) => {
              tabRefs.current[name] = element;
            }}
            id={`collab-tab-${name}`}
            type="button"
            role="tab"
            aria-selected={tab === name}
            aria-controls={`collab-panel-${name}`}
            tabIndex={tab === name ? 0 : -1}
            onClick={() => setTab(name)}
            onKeyDown={onTabKey}
          >
            {t(`tab_${name}`)}
          </button>
        ))}
      </div>
      {TABS.map((name) => (
        <div key={name} id={`collab-panel-${name}`} role="tabpanel" aria-labelledby={`collab-tab-${name}`} className="collab-panel" hidden={tab !== name}>
          {guest === null || tab !== name ? null : name === 'trigger' ? <TriggerTab guest={guest} /> : <WebhookTab guest={guest} />}
        </div>
      ))}
    </div>
  );
}

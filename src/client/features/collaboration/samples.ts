/**
 * What the Collaboration screen shows as examples: the trigger's body and
 * query filled with sample values, and the webhook's sample body built from
 * the pickers. Pure, so that tests can read them.
 */
import { EXAMPLE_TRIGGER_VALUES, renderTriggerBody, triggerQueryUrl } from '../../../shared/api/collaboration.ts';
import { WEBHOOK_TOKEN_INVALID } from '../../../shared/api/hooks.ts';
import type { RepeatType } from '../../../shared/constants.ts';

/** A body template that uses every placeholder, inside a string and as values. */
export const EXAMPLE_TRIGGER_TEMPLATE =
  '{\n  "text": "Finished: {{work}}",\n  "date": {{date}},\n  "time": {{time}},\n  "minutes": {{duration}},\n  "achieved": {{achievement}}\n}';

/** The example template as it is sent, pretty-printed. */
export function exampleTriggerBody(): string {
  return JSON.stringify(JSON.parse(renderTriggerBody(EXAMPLE_TRIGGER_TEMPLATE, EXAMPLE_TRIGGER_VALUES)), null, 2);
}

/** A GET call's URL with the sample values, on the guest's URL when it is one. */
export function exampleTriggerQuery(url: string): string {
  try {
    return triggerQueryUrl(url, EXAMPLE_TRIGGER_VALUES);
  } catch {
    return triggerQueryUrl('https://example.com/hooks/warden', EXAMPLE_TRIGGER_VALUES);
  }
}

/** The webhook path before the token. */
export const WEBHOOK_PATH = '/hooks/reservation/';

/** The address shown once, right after it is made. */
export function webhookAddress(origin: string, token: string): string {
  return `${origin}${WEBHOOK_PATH}${token}`;
}

/** The address afterwards: only the token's last characters. */
export function maskedWebhookAddress(origin: string, hint: string | null): string {
  return `${origin}${WEBHOOK_PATH}••••${hint ?? ''}`;
}

export interface WebhookSample {
  /** `YYYY-MM-DD` and `HH:mm`, or null for both: a jail that starts now. */
  date: string | null;
  time: string | null;
  /** Minutes. */
  duration: number;
  repeatType: RepeatType;
  work: string;
}

/** The sample body of the webhook, as a program would POST it. */
export function webhookSampleBody(sample: WebhookSample): string {
  const start = sample.date === null || sample.time === null ? {} : { date: sample.date, time: sample.time };
  return JSON.stringify({ ...start, duration: sample.duration, repeatType: sample.repeatType, work: sample.work }, null, 2);
}

export const WEBHOOK_SUCCESS_SAMPLE = JSON.stringify({ status: 'success', error: null }, null, 2);
export const WEBHOOK_FAILURE_SAMPLE = JSON.stringify({ status: 'failed', error: WEBHOOK_TOKEN_INVALID }, null, 2);

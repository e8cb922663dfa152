import { z } from 'zod';
import { authenticatedRequestSchema } from './envelope.ts';

/**
 * Collaboration (docs/collaboration.md): the trigger the server
 * calls when a jail finishes, its signing secret and deliveries, and the
 * guest's webhook address.
 */

/** The values a trigger call carries, by placeholder name. */
export const TRIGGER_PLACEHOLDERS = ['work', 'date', 'time', 'duration', 'achievement'] as const;
export type TriggerPlaceholder = (typeof TRIGGER_PLACEHOLDERS)[number];

/** What a finished jail tells the trigger: `date` YYYY-MM-DD, `time` HH:mm, minutes for the rest. */
export interface TriggerValues {
  work: string;
  date: string;
  time: string;
  duration: number;
  achievement: number;
}

/** Values to check a template with: a work that needs every JSON escape. */
const SAMPLE_VALUES: TriggerValues = { work: 'Quote " backslash \\ newline \n', date: '2026-01-31', time: '09:05', duration: 60, achievement: 45 };

const PLACEHOLDER = /\{\{\s*([A-Za-z]+)\s*\}\}/y;

/**
 * Fills a POST body template: each `{{name}}` becomes the value as JSON
 * (`"text"` or `60`), or inside a JSON string its escaped characters
 * without quotes, so that `{"note": "did {{work}}"}` stays valid. An empty
 * template sends the object of the five values. Throws on an unknown name.
 */
export function renderTriggerBody(template: string | null, values: TriggerValues): string {
  if (template === null || template.trim() === '') return JSON.stringify(values);
  let rendered = '';
  let inString = false;
  let index = 0;
  while (index < template.length) {
    PLACEHOLDER.lastIndex = index;
    const placeholder = PLACEHOLDER.exec(template);
    if (placeholder !== null) {
      const name = placeholder[1] ?? '';
      if (!isTriggerPlaceholder(name)) throw new Error(`unknown placeholder {{${name}}}`);
      const json = JSON.stringify(values[name]);
      rendered += inString && typeof values[name] === 'string' ? json.slice(1, -1) : json;
      index += placeholder[0].length;
      continue;
    }
    const character = template[index] ?? '';
    if (character === '\\' && inString) {
      rendered += template.slice(index, index + 2);
      index += 2;
      continue;
    }
    if (character === '"') inString = !inString;
    rendered += character;
    index += 1;
  }
  return rendered;
}

function isTriggerPlaceholder(name: string): name is TriggerPlaceholder {
  return (TRIGGER_PLACEHOLDERS as readonly string[]).includes(name);
}

/** Whether a body template names only known placeholders and gives valid JSON once filled. */
export function isValidTriggerBodyTemplate(template: string): boolean {
  try {
    JSON.parse(renderTriggerBody(template, SAMPLE_VALUES));
    return true;
  } catch {
    return false;
  }
}

/** The URL of a GET call: the guest's URL with the values added to its query. */
export function triggerQueryUrl(url: string, values: TriggerValues): string {
  const withQuery = new URL(url);
  for (const [name, value] of Object.entries(values)) withQuery.searchParams.set(name, String(value));
  return withQuery.toString();
}

/** Values to show in the examples of the Trigger tab. */
export const EXAMPLE_TRIGGER_VALUES: TriggerValues = { work: 'Write the report', date: '2026-04-01', time: '09:00', duration: 120, achievement: 100 };

// --- Calls ----------------------------------------------------------------------

/** `/guest/regenerateWebhookToken` answers the new token once; only its hint is kept readable. */
export const regenerateWebhookTokenRequestSchema = authenticatedRequestSchema;
export const webhookTokenSchema = z.object({ token: z.string(), hint: z.string() });

/** `/guest/regenerateCalendarFeed` answers the feed's new address once (docs/calendar.md); `/guest/removeCalendarFeed` turns it off. */
export const calendarFeedRequestSchema = authenticatedRequestSchema;
export const calendarFeedSchema = z.object({ url: z.string(), hint: z.string() });
export type CalendarFeed = z.infer<typeof calendarFeedSchema>;

/** The path of a calendar feed, under the app's address. */
export function calendarFeedPath(token: string): string {
  return `/calendar/${token}.ics`;
}

/** `/guest/readTriggerSecret` and `/guest/regenerateTriggerSecret`: the key that signs trigger calls. */
export const triggerSecretRequestSchema = authenticatedRequestSchema;
export const triggerSecretSchema = z.string();

export const TRIGGER_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;

/** One call of the trigger after a jail, with its retries (`/guest/triggerDeliveries`, the last 20). */
export const triggerDeliverySchema = z.object({
  id: z.string(),
  createdAt: z.number(),
  reservationId: z.number().nullable(),
  work: z.string().nullable(),
  method: z.enum(['POST', 'GET']),
  status: z.enum(TRIGGER_DELIVERY_STATUSES),
  attempts: z.number(),
  lastStatusCode: z.number().nullable(),
  lastError: z.string().nullable(),
  nextAttemptAt: z.number().nullable(),
  deliveredAt: z.number().nullable(),
});
export type TriggerDelivery = z.infer<typeof triggerDeliverySchema>;

export const triggerDeliveriesRequestSchema = authenticatedRequestSchema;
export const TRIGGER_DELIVERIES_SHOWN = 20;

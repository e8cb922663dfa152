import { z } from 'zod';
import { REMINDER_LEADS } from '../reservations.ts';
import { authenticatedRequestSchema } from './envelope.ts';

/**
 * Reminders before a jail (docs/reminders.md): Web Push to each browser that
 * turned them on, e-mail for a guest with none who chose it.
 */

const leadSchema = z.union([z.literal(REMINDER_LEADS[0]), z.literal(REMINDER_LEADS[1]), z.literal(REMINDER_LEADS[2])]);

/** A browser with reminders on; its push address lets a browser know itself in the list. */
export const pushDeviceSchema = z.object({ id: z.number().int(), label: z.string(), endpoint: z.string(), createdAt: z.number() });

/** The guest's reminder settings and devices, with the key a browser subscribes with. */
export const remindersSchema = z.object({
  /** The server's VAPID public key (base64url), the browser's `applicationServerKey`. */
  publicKey: z.string(),
  /** Minutes before the start; null: reminders are off. */
  leadMinutes: leadSchema.nullable(),
  /** E-mail the reminder while no browser has push turned on. */
  byEmail: z.boolean(),
  devices: z.array(pushDeviceSchema),
});
export type Reminders = z.infer<typeof remindersSchema>;

export const readRemindersRequestSchema = authenticatedRequestSchema;

export const updateRemindersRequestSchema = authenticatedRequestSchema.extend({
  reminders: z.object({ leadMinutes: leadSchema.nullable(), byEmail: z.boolean() }),
});

/** A browser's `PushSubscription.toJSON()`, with a name for it. */
export const addPushDeviceRequestSchema = authenticatedRequestSchema.extend({
  device: z.object({
    endpoint: z.string().url().max(2_000),
    keys: z.object({ p256dh: z.string().min(1).max(200), auth: z.string().min(1).max(100) }),
    label: z.string().trim().min(1).max(100),
  }),
});

export const removePushDeviceRequestSchema = authenticatedRequestSchema.extend({ device: z.object({ id: z.number().int() }) });

/** What a reminder's notification carries to the service worker. */
export const reminderPayloadSchema = z.object({
  title: z.string(),
  body: z.string(),
  /** One notification per occurrence: a second for the same one replaces it. */
  tag: z.string(),
  /** Opened once the jail can be entered (at `entryOpensAt`), and `detailUrl` before. */
  prepUrl: z.string(),
  detailUrl: z.string(),
  entryOpensAt: z.number(),
});
export type ReminderPayload = z.infer<typeof reminderPayloadSchema>;

import { index, integer, pgTable, primaryKey, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { epochMs, guests } from './guests.ts';
import { reservations } from './reservations.ts';

/** A browser that turned reminders on: its Web Push subscription (docs/reminders.md). */
export const pushDevices = pgTable(
  'push_devices',
  {
    id: serial('id').primaryKey(),
    guestId: integer('guest_id')
      .notNull()
      .references(() => guests.id, { onDelete: 'cascade' }),
    /** The push service's address for this browser: https, a public host. */
    endpoint: text('endpoint').notNull(),
    /** The browser's P-256 public key and auth secret (base64url), which the payload is encrypted to. */
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    /** What the guest sees it as in the list ("Chrome on Android"), from the browser. */
    label: text('label').notNull(),
    createdAt: epochMs('created_at').notNull(),
  },
  (table) => [uniqueIndex('push_devices_endpoint').on(table.endpoint), index('push_devices_guest').on(table.guestId)],
);

export const REMINDER_OUTCOMES = ['sent', 'failed', 'gone'] as const;

/**
 * One reminder of one occurrence to one target (a push device, or `email`),
 * claimed by inserting this row before it is sent: the primary key lets one
 * server claim it once, and a server killed after the claim leaves it
 * unsent rather than sent twice.
 */
export const remindersSent = pgTable(
  'reminders_sent',
  {
    reservationId: integer('reservation_id')
      .notNull()
      .references(() => reservations.id, { onDelete: 'cascade' }),
    /** The occurrence's start when claimed: a jail moved to another time is reminded again. */
    startTime: epochMs('start_time').notNull(),
    /** `push:<device id>` or `email`. */
    target: text('target').notNull(),
    claimedAt: epochMs('claimed_at').notNull(),
    /** How the sending went; null while under way (or never, when the server died first). */
    outcome: text('outcome', { enum: REMINDER_OUTCOMES }),
  },
  (table) => [primaryKey({ columns: [table.reservationId, table.startTime, table.target] })],
);

/** Keys the server makes once and every server shares: the Web Push (VAPID) key pair. */
export const serverKeys = pgTable('server_keys', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
});

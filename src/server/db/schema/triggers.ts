import { index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { epochMs, guests } from './guests.ts';
import { reservations } from './reservations.ts';

export const TRIGGER_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;

/**
 * A call of a guest's trigger when a jail finished; retried with backoff
 * over a day under the same id (`webhook-id`).
 */
export const triggerDeliveries = pgTable(
  'trigger_deliveries',
  {
    id: text('id').primaryKey(),
    guestId: integer('guest_id')
      .notNull()
      .references(() => guests.id, { onDelete: 'cascade' }),
    reservationId: integer('reservation_id').references(() => reservations.id, { onDelete: 'set null' }),
    method: text('method', { enum: ['POST', 'GET'] }).notNull(),
    url: text('url').notNull(),
    /** The JSON body sent (POST); null for GET, whose parameters are in the URL. */
    body: text('body'),
    status: text('status', { enum: TRIGGER_DELIVERY_STATUSES }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: epochMs('next_attempt_at'),
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    createdAt: epochMs('created_at').notNull(),
    deliveredAt: epochMs('delivered_at'),
  },
  (table) => [index('trigger_deliveries_due').on(table.status, table.nextAttemptAt), index('trigger_deliveries_guest').on(table.guestId, table.createdAt)],
);

import { and, desc, eq, inArray, lte } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { renderTriggerBody, triggerQueryUrl, type TriggerValues } from '../../../shared/api/collaboration.ts';
import { toLocal } from '../../../shared/time-zone.ts';
import type { Database } from '../../db/database.ts';
import { guests, reservations, triggerDeliveries, type GuestRow, type JailRow } from '../../db/schema/index.ts';
import type { Clock } from '../../lib/clock.ts';
import { PeriodicWorker } from '../../lib/periodic-worker.ts';
import { guestTimeZone } from '../reservations.ts';
import { achievementMinutes } from './achievement.ts';
import { callTrigger, type CallGuard } from './caller.ts';
import { newDeliveryId, newTriggerSecret, signatureHeaders } from './signer.ts';

/**
 * Trigger deliveries (docs/collaboration.md): a jail's finish records one in
 * its own transaction; the worker calls it, and after a failure again with
 * backoff over a day under the same id, then gives up.
 */

/** The waits after each failed attempt; after the last one the delivery has failed. */
export const TRIGGER_RETRY_DELAYS_MS = [5_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 5 * 3_600_000, 10 * 3_600_000] as const;

/** How long a claimed attempt stays the claimer's: past it (the server died mid-call) it is due again. */
const CLAIM_LEASE_MS = 60_000;

/** Attempts made at once by one pass. */
const CLAIMS_PER_PASS = 10;

const MINUTE_MS = 60_000;

function twoDigits(value: number): string {
  return String(value).padStart(2, '0');
}

/** What the trigger of a finished jail carries: its work, its start in the guest's time zone, and minutes. */
export function triggerValues(jail: JailRow, guest: GuestRow, work: string, achievement: number): TriggerValues {
  const start = toLocal(jail.startTime, guestTimeZone(guest));
  return {
    work,
    date: `${start.year}-${twoDigits(start.month)}-${twoDigits(start.day)}`,
    time: `${twoDigits(Math.floor(start.minutes / 60))}:${twoDigits(start.minutes % 60)}`,
    duration: Math.round((jail.endTime - jail.startTime) / MINUTE_MS),
    achievement,
  };
}

/**
 * Records the trigger call of a jail that has just finished, in the finish's
 * transaction (a crash cannot lose it); nothing when the guest's trigger is
 * off or has no URL. The body (or query) is fixed now, from the settings of
 * this moment.
 */
export async function recordTriggerDelivery(tx: Database, jail: JailRow, guest: GuestRow, work: string, finishedAt: number): Promise<void> {
  if (!guest.triggerEnabled || guest.triggerUrl === null) return;
  const values = triggerValues(jail, guest, work, achievementMinutes(jail, finishedAt));
  let body: string | null = null;
  let url = guest.triggerUrl;
  try {
    if (guest.triggerMethod === 'POST') body = renderTriggerBody(guest.triggerBody, values);
    else url = triggerQueryUrl(url, values);
  } catch {
    // Templates are checked when saved; one saved before that check falls back to the five values.
    body = JSON.stringify(values);
  }
  if (guest.triggerSecret === null) await tx.update(guests).set({ triggerSecret: newTriggerSecret() }).where(eq(guests.id, guest.id));
  await tx.insert(triggerDeliveries).values({
    id: newDeliveryId(),
    guestId: guest.id,
    reservationId: jail.reservationId,
    method: guest.triggerMethod,
    url,
    body,
    status: 'pending',
    nextAttemptAt: finishedAt,
    createdAt: finishedAt,
  });
}

/** The guest's last deliveries, newest first, with the work of their reservation. */
export async function recentDeliveries(db: Database, guestId: number, limit: number) {
  return db
    .select({
      id: triggerDeliveries.id,
      createdAt: triggerDeliveries.createdAt,
      reservationId: triggerDeliveries.reservationId,
      work: reservations.work,
      method: triggerDeliveries.method,
      status: triggerDeliveries.status,
      attempts: triggerDeliveries.attempts,
      lastStatusCode: triggerDeliveries.lastStatusCode,
      lastError: triggerDeliveries.lastError,
      nextAttemptAt: triggerDeliveries.nextAttemptAt,
      deliveredAt: triggerDeliveries.deliveredAt,
    })
    .from(triggerDeliveries)
    .leftJoin(reservations, eq(reservations.id, triggerDeliveries.reservationId))
    .where(eq(triggerDeliveries.guestId, guestId))
    .orderBy(desc(triggerDeliveries.createdAt), desc(triggerDeliveries.id))
    .limit(limit);
}

/**
 * The delivery worker: each tick claims the due attempts (pushing their next
 * attempt a lease ahead, under `FOR UPDATE SKIP LOCKED`, so that two servers
 * never make the same attempt), makes the calls outside any transaction, and
 * stores how they went.
 */
export class TriggerWorker extends PeriodicWorker {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly guard: CallGuard,
    private readonly log: FastifyBaseLogger,
    intervalMs = 1_000,
  ) {
    super(intervalMs);
  }

  protected async pass(): Promise<void> {
    try {
      const claimed = await this.claimDue();
      await Promise.all(claimed.map((delivery) => this.attempt(delivery)));
    } catch (error) {
      this.log.error({ err: error }, 'trigger delivery pass failed');
    }
  }

  private async claimDue() {
    const now = this.clock.now();
    return this.db.transaction(async (tx) => {
      const due = await tx
        .select({ id: triggerDeliveries.id })
        .from(triggerDeliveries)
        .where(and(eq(triggerDeliveries.status, 'pending'), lte(triggerDeliveries.nextAttemptAt, now)))
        .orderBy(triggerDeliveries.nextAttemptAt)
        .limit(CLAIMS_PER_PASS)
        .for('update', { skipLocked: true });
      if (due.length === 0) return [];
      return tx
        .update(triggerDeliveries)
        .set({ nextAttemptAt: now + CLAIM_LEASE_MS })
        .where(
          inArray(
            triggerDeliveries.id,
            due.map((row) => row.id),
          ),
        )
        .returning();
    });
  }

  private async attempt(delivery: typeof triggerDeliveries.$inferSelect): Promise<void> {
    const [guest] = await this.db.select({ secret: guests.triggerSecret }).from(guests).where(eq(guests.id, delivery.guestId));
    const body = delivery.body ?? '';
    const headers = {
      'user-agent': 'Warden-Trigger/1',
      ...(delivery.body === null ? {} : { 'content-type': 'application/json' }),
      ...(guest?.secret == null ? {} : signatureHeaders(guest.secret, delivery.id, Math.floor(this.clock.now() / 1000), body)),
    };
    const outcome = await callTrigger({ method: delivery.method, url: delivery.url, body: delivery.body, headers }, this.guard);
    const attempts = delivery.attempts + 1;
    const now = this.clock.now();
    const retryDelay = TRIGGER_RETRY_DELAYS_MS[attempts - 1];
    await this.db
      .update(triggerDeliveries)
      .set(
        outcome.ok
          ? { status: 'delivered', attempts, lastStatusCode: outcome.statusCode, lastError: null, nextAttemptAt: null, deliveredAt: now }
          : {
              status: retryDelay === undefined ? 'failed' : 'pending',
              attempts,
              lastStatusCode: outcome.statusCode,
              lastError: outcome.error,
              nextAttemptAt: retryDelay === undefined ? null : now + retryDelay,
            },
      )
      .where(eq(triggerDeliveries.id, delivery.id));
  }
}

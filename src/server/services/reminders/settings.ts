import { and, asc, count, eq, ne, or } from 'drizzle-orm';
import type { Reminders } from '../../../shared/api/reminders.ts';
import type { ReminderLead } from '../../../shared/reservations.ts';
import type { Database } from '../../db/database.ts';
import { guests, pushDevices, type GuestRow } from '../../db/schema/index.ts';
import { ApiFailure } from '../../lib/api.ts';
import { isPushServiceAddress, MAX_PUSH_DEVICES_PER_GUEST } from './push-services.ts';

/** The guest's reminder settings and push devices (docs/reminders.md). */
export async function readReminders(db: Database, guest: GuestRow, publicKey: string): Promise<Reminders> {
  const devices = await db
    .select({ id: pushDevices.id, label: pushDevices.label, endpoint: pushDevices.endpoint, createdAt: pushDevices.createdAt })
    .from(pushDevices)
    .where(eq(pushDevices.guestId, guest.id))
    .orderBy(asc(pushDevices.createdAt));
  return { publicKey, leadMinutes: guest.reminderLeadMinutes as ReminderLead | null, byEmail: guest.remindByEmail, devices };
}

export async function updateReminders(
  db: Database,
  guestId: number,
  settings: { leadMinutes: ReminderLead | null; byEmail: boolean },
  now: number,
): Promise<void> {
  await db.update(guests).set({ reminderLeadMinutes: settings.leadMinutes, remindByEmail: settings.byEmail, updatedAt: now }).where(eq(guests.id, guestId));
}

/** Refuses a push address that is not at a push service (push-services.ts). */
export function assertPushEndpointAllowed(endpoint: string, allowHosts: ReadonlySet<string>): void {
  if (!isPushServiceAddress(endpoint, allowHosts)) throw new ApiFailure('push_endpoint_refused');
}

/**
 * Keeps a browser's subscription for the guest, at most
 * `MAX_PUSH_DEVICES_PER_GUEST` of them. A subscription another guest has
 * (a shared browser) moves to this one only with its keys as they are kept:
 * the same browser gives the same keys, while whoever only learnt its push
 * address cannot. The guest's row is held, so that two adds at once are
 * counted one after the other.
 */
export async function addPushDevice(
  db: Database,
  guestId: number,
  device: { endpoint: string; keys: { p256dh: string; auth: string }; label: string },
  now: number,
): Promise<void> {
  const values = { guestId, endpoint: device.endpoint, p256dh: device.keys.p256dh, auth: device.keys.auth, label: device.label, createdAt: now };
  await db.transaction(async (tx) => {
    await tx.select({ id: guests.id }).from(guests).where(eq(guests.id, guestId)).for('update');
    const [others] = await tx
      .select({ count: count() })
      .from(pushDevices)
      .where(and(eq(pushDevices.guestId, guestId), ne(pushDevices.endpoint, device.endpoint)));
    if ((others?.count ?? 0) >= MAX_PUSH_DEVICES_PER_GUEST) throw new ApiFailure('push_devices_full', { max: MAX_PUSH_DEVICES_PER_GUEST });
    const [kept] = await tx
      .insert(pushDevices)
      .values(values)
      .onConflictDoUpdate({
        target: pushDevices.endpoint,
        set: values,
        // The guest's own device takes its new keys; another guest's moves only with the kept ones.
        setWhere: or(eq(pushDevices.guestId, guestId), and(eq(pushDevices.p256dh, device.keys.p256dh), eq(pushDevices.auth, device.keys.auth))),
      })
      .returning({ id: pushDevices.id });
    if (kept === undefined) throw new ApiFailure('push_device_not_proven');
  });
}

/** Forgets one of the guest's devices; another guest's id changes nothing. */
export async function removePushDevice(db: Database, guestId: number, id: number): Promise<void> {
  await db.delete(pushDevices).where(and(eq(pushDevices.id, id), eq(pushDevices.guestId, guestId)));
}

import { and, asc, eq } from 'drizzle-orm';
import type { Reminders } from '../../../shared/api/reminders.ts';
import type { ReminderLead } from '../../../shared/reservations.ts';
import type { Database } from '../../db/database.ts';
import { guests, pushDevices, type GuestRow } from '../../db/schema/index.ts';
import { ApiFailure } from '../../lib/api.ts';
import { checkedAddress, hostOf, TriggerAddressRefused } from '../triggers/address-guard.ts';
import type { CallGuard } from '../triggers/caller.ts';

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

/**
 * Refuses a push address that is not https on a public host (the address
 * guard of the triggers; its allowance lets tests use a local stand-in). A
 * host that does not resolve now is refused too: push services always do.
 */
export async function assertPushEndpointAllowed(endpoint: string, guard: CallGuard): Promise<void> {
  const url = new URL(endpoint);
  const host = hostOf(url);
  if (url.protocol !== 'https:' && !guard.allowHosts.has(host)) throw new ApiFailure('push_endpoint_refused');
  try {
    await checkedAddress(host, guard.allowHosts, guard.resolve);
  } catch (error) {
    if (error instanceof TriggerAddressRefused) throw new ApiFailure('push_endpoint_refused');
    throw error;
  }
}

/** Keeps a browser's subscription for the guest; one that another guest had (a shared browser) moves to this one. */
export async function addPushDevice(
  db: Database,
  guestId: number,
  device: { endpoint: string; keys: { p256dh: string; auth: string }; label: string },
  now: number,
): Promise<void> {
  const values = { guestId, endpoint: device.endpoint, p256dh: device.keys.p256dh, auth: device.keys.auth, label: device.label, createdAt: now };
  await db.insert(pushDevices).values(values).onConflictDoUpdate({ target: pushDevices.endpoint, set: values });
}

/** Forgets one of the guest's devices; another guest's id changes nothing. */
export async function removePushDevice(db: Database, guestId: number, id: number): Promise<void> {
  await db.delete(pushDevices).where(and(eq(pushDevices.id, id), eq(pushDevices.guestId, guestId)));
}

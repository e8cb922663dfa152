import { getLocal, putLocal } from '../../app/localDb.ts';
import type { JailStatus } from '../../../shared/jail-vocabulary.ts';

/**
 * The guest's jail status kept on the device (the local database's
 * `jailStatus` store, docs/rules.md): after a reload the live screen shows leaving
 * or breaking at once, before the relay's resume confirms it.
 */
export interface KeptJailStatus {
  reservationId: number;
  status: JailStatus;
  /** When the status began (epoch ms). */
  since: number;
  /** When the live screen was last open on this device (kept every few seconds and when it closes): how long the guest has been away from it. */
  seenAt?: number;
}

const RECORD_ID = 'current';

export async function saveJailStatus(kept: KeptJailStatus): Promise<void> {
  await putLocal('jailStatus', RECORD_ID, kept).catch(() => undefined);
}

/** The kept status of this reservation's jail, or null (none kept, another jail's, or no local database). */
export async function loadJailStatus(reservationId: number): Promise<KeptJailStatus | null> {
  const kept = await getLocal<KeptJailStatus>('jailStatus', RECORD_ID).catch(() => null);
  return kept !== null && kept.reservationId === reservationId ? kept : null;
}

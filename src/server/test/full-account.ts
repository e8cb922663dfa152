import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Database } from '../db/database.ts';
import {
  activityLogs,
  emailTokens,
  errorLogs,
  facilitatorTokens,
  featureImages,
  forumMessages,
  guests,
  jailAlerts,
  lazyAlerts,
  pauses,
  payments,
  phoneCodes,
  pushDevices,
  remindersSent,
  sessions,
  triggerDeliveries,
  wardens,
} from '../db/schema/index.ts';
import { hashToken, newToken } from '../lib/secrets.ts';
import { startSession } from '../services/guests.ts';
import { insertPastJails } from './jail-history.ts';

const DAY = 86_400_000;

/** A small JPEG as the camera's thumbnails are kept: a data URL. */
export function jpegDataUrl(): { dataUrl: string; bytes: Buffer } {
  const bytes = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(40), Buffer.from([0xff, 0xd9])]);
  return { dataUrl: `data:image/jpeg;base64,${bytes.toString('base64')}`, bytes };
}

/** What `fillAccount` wrote: the rows to look for, and the secrets that must never come out. */
export interface FilledAccount {
  /** A word in every text the guest wrote (work, forum post, error log, trigger body): another guest's must never appear. */
  marker: string;
  reservationIds: number[];
  patrol: { logId: number; bytes: Buffer };
  scene: { id: number; bytes: Buffer };
  /** Values that are secrets: the password hash, token hashes, keys. */
  secrets: string[];
}

/**
 * Gives a signed-up guest a row in every table that holds a guest's data,
 * as a year of use would: finished jails with logs, a patrol image, alerts,
 * an approved scene, a payment, a forum post, an error log, a trigger call,
 * a push device and its reminder, mail and phone codes, a facilitator
 * token, a calendar feed and a trigger secret. For the export and deletion
 * tests, which must each account for every one of these tables.
 */
export async function fillAccount(db: Database, guestId: number, now: number): Promise<FilledAccount> {
  const marker = `m${randomBytes(6).toString('hex')}`;
  const calendarToken = newToken();
  const triggerSecret = `whsec_${randomBytes(24).toString('base64')}`;
  await db
    .update(guests)
    .set({
      phone: `+8190${randomBytes(4).readUInt32BE() % 100_000_000}`,
      cardBrand: 'visa',
      cardLast4: '4242',
      paymentCustomerId: `cus_${marker}`,
      webhookEnabled: true,
      triggerEnabled: true,
      triggerUrl: `https://hooks.example.com/${marker}`,
      triggerBody: `{"note":"${marker}"}`,
      triggerSecret,
      calendarFeedToken: hashToken(calendarToken),
      calendarFeedTokenHint: calendarToken.slice(-4),
      remindByEmail: true,
    })
    .where(eq(guests.id, guestId));
  const reservationIds = await insertPastJails(db, guestId, '+09:00', [
    { startTime: now - 3 * DAY, durationMinutes: 60, finish: 'ended', focusedMs: 50 * 60_000, work: `Thesis ${marker}` },
    { startTime: now - 2 * DAY, durationMinutes: 90, finish: 'ignored', focusedMs: 0, work: `Essay ${marker}` },
  ]);
  const [jailId] = reservationIds;
  if (jailId === undefined) throw new Error('no jail written');
  const patrolImage = jpegDataUrl();
  const [patrolLog] = await db
    .insert(activityLogs)
    .values([
      { reservationId: jailId, time: now - 3 * DAY + 60_000, entry: { type: 'patrol', time: now - 3 * DAY + 60_000, patrol: { data: patrolImage.dataUrl } } },
      {
        reservationId: jailId,
        time: now - 3 * DAY + 120_000,
        entry: { type: 'dialog', time: now - 3 * DAY + 120_000, dialog: { type: 0, text: `said ${marker}` } },
      },
    ])
    .returning({ id: activityLogs.id });
  if (patrolLog === undefined) throw new Error('no patrol written');
  await db.insert(jailAlerts).values({ reservationId: jailId, kind: 'no_motion', time: now - 3 * DAY + 600_000 });
  await db.insert(lazyAlerts).values({ guestId, reservationId: reservationIds[1] ?? null, createdAt: now - 2 * DAY });
  await db.insert(pauses).values({ guestId, fromTime: now + 10 * DAY, toTime: now + 12 * DAY, createdAt: now });
  const sceneImage = jpegDataUrl();
  const [scene] = await db
    .insert(featureImages)
    .values({ guestId, data: sceneImage.dataUrl, sourceLogId: patrolLog.id, createdAt: now - 3 * DAY })
    .returning({ id: featureImages.id });
  if (scene === undefined) throw new Error('no scene written');
  await db.insert(payments).values({
    guestId,
    provider: 'local',
    providerPaymentId: `pay_${marker}`,
    plan: 3,
    amountYen: 7500,
    status: 'succeeded',
    createdAt: now - 10 * DAY,
    updatedAt: now - 10 * DAY,
  });
  await db.insert(forumMessages).values({ guestId, username: `writer-${marker}`, text: `Hello from ${marker}`, createdAt: now - DAY });
  await db.insert(errorLogs).values({ guestId, text: `TypeError near ${marker}`, createdAt: now - DAY });
  await db.insert(triggerDeliveries).values({
    id: `msg_${marker}`,
    guestId,
    reservationId: jailId,
    method: 'POST',
    url: `https://hooks.example.com/${marker}`,
    body: `{"note":"${marker}"}`,
    status: 'delivered',
    attempts: 1,
    lastStatusCode: 200,
    createdAt: now - 3 * DAY,
    deliveredAt: now - 3 * DAY,
  });
  const pushKey = randomBytes(65).toString('base64url');
  const pushAuth = randomBytes(16).toString('base64url');
  const pushPath = randomBytes(20).toString('hex');
  const [device] = await db
    .insert(pushDevices)
    .values({
      guestId,
      endpoint: `https://fcm.googleapis.com/fcm/send/${pushPath}`,
      p256dh: pushKey,
      auth: pushAuth,
      label: 'Chrome on Android',
      createdAt: now - 5 * DAY,
    })
    .returning({ id: pushDevices.id });
  await db
    .insert(remindersSent)
    .values({ reservationId: jailId, startTime: now - 3 * DAY, target: `push:${device?.id}`, claimedAt: now - 3 * DAY - 900_000, outcome: 'sent' });
  const mailToken = hashToken(newToken());
  await db
    .insert(emailTokens)
    .values({ tokenHash: mailToken, guestId, purpose: 'reset_password', email: `${marker}@example.com`, createdAt: now, expiresAt: now + DAY });
  const codeHash = hashToken(newToken());
  await db.insert(phoneCodes).values({ id: newToken(), guestId, phone: '+819012345678', codeHash, createdAt: now, expiresAt: now + 600_000 });
  const [warden] = await db
    .insert(wardens)
    .values({ title: `warden-${marker}`, email: `warden-${marker}@example.com`, passwordHash: 'not-a-real-hash', createdAt: now })
    .returning({ id: wardens.id });
  if (warden === undefined) throw new Error('no warden written');
  const facilitatorToken = hashToken(newToken());
  await db.insert(facilitatorTokens).values({ tokenHash: facilitatorToken, wardenId: warden.id, guestId, createdAt: now, expiresAt: now + DAY });
  const facilitatorSession = await startSession(db, guestId, now, warden.id);
  const sessionHashes = (await db.select({ tokenHash: sessions.tokenHash }).from(sessions).where(eq(sessions.guestId, guestId))).map(
    (session) => session.tokenHash,
  );
  const [row] = await db.select({ passwordHash: guests.passwordHash, webhookToken: guests.webhookToken }).from(guests).where(eq(guests.id, guestId));
  if (row === undefined) throw new Error('the guest is gone');
  return {
    marker,
    reservationIds,
    patrol: { logId: patrolLog.id, bytes: patrolImage.bytes },
    scene: { id: scene.id, bytes: sceneImage.bytes },
    secrets: [
      row.passwordHash,
      row.webhookToken,
      hashToken(calendarToken),
      calendarToken,
      triggerSecret,
      pushKey,
      pushAuth,
      pushPath,
      mailToken,
      codeHash,
      facilitatorToken,
      facilitatorSession,
      ...sessionHashes,
    ],
  };
}

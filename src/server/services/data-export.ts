import { and, asc, eq, gt, inArray, isNotNull, sql } from 'drizzle-orm';
import { PassThrough, Readable } from 'node:stream';
import { ZipFile } from 'yazl';
import type { ActivityLog } from '../../shared/api/reservation.ts';
import { planNamed } from '../../shared/plans.ts';
import type { Database } from '../db/database.ts';
import {
  activityLogs,
  errorLogs,
  facilitatorTokens,
  featureImages,
  forumMessages,
  type GuestRow,
  jailAlerts,
  jails,
  lazyAlerts,
  payments,
  pushDevices,
  remindersSent,
  pauses,
  reservations,
  sessions,
  triggerDeliveries,
} from '../db/schema/index.ts';

/**
 * The guest's copy of everything Warden holds about them (docs/privacy.md,
 * Export): one ZIP with `warden.json` and the images still kept.
 *
 * Every field is picked by name: a column added later stays out of the
 * export until someone decides it belongs there, so a new secret cannot
 * leak into it by default. The archive is written while the database is
 * read, a page at a time, so a large account never sits in memory whole.
 */

/** Bumped when a field of `warden.json` changes meaning or goes. */
export const EXPORT_FORMAT_VERSION = 1;
/** Reservations read (with their jails, alerts and logs) per query. */
const RESERVATIONS_PER_PAGE = 20;
/** Rows of the other lists read per query. */
const ROWS_PER_PAGE = 500;

/** A time in the export: ISO 8601 in UTC, readable by people and by every JSON tool. */
function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

/** Where an image of the archive lives, as `warden.json` names it. */
export const patrolImagePath = (logId: number) => `patrols/${logId}.jpg`;
export const approvedScenePath = (sceneId: number) => `approved-scenes/${sceneId}.jpg`;

/** The bytes of a JPEG data URL (patrol images and approved scenes are kept as such). */
function jpegBytes(dataUrl: string): Buffer {
  return Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');
}

function accountOf(guest: GuestRow) {
  return {
    id: guest.id,
    title: guest.title,
    email: guest.email,
    isVerified: guest.isVerified,
    pendingEmail: guest.pendingEmail,
    phone: guest.phone,
    language: guest.language,
    timezoneOffsetMinutes: guest.timezone,
    createdAt: iso(guest.createdAt),
    updatedAt: iso(guest.updatedAt),
    subscription: {
      plan: planNamed(guest.subscriptionPlan),
      since: iso(guest.subscriptionCreatedAt),
      endsAt: iso(guest.subscriptionExpiredAt),
      paymentDay: guest.paymentDay,
      nextPaymentAt: iso(guest.nextPaymentAt),
      card: guest.cardBrand === null ? null : { brand: guest.cardBrand, last4: guest.cardLast4 },
      hoursThisMonth: guest.totalDurationThisMonth,
      isSleeper: guest.isSleeper,
      isLimMember: guest.isLimMember,
    },
    suspendedUntil: iso(guest.suspendedUntil),
    earlyFinishBlockUntil: iso(guest.earlyFinishBlockUntil),
    facilitatorSignedInAt: iso(guest.facilitatorSignedInAt),
  };
}

/** Rows of one guest's list, a page at a time, in id order. */
async function* pages<Row extends { id: number }>(readAfter: (lastId: number, limit: number) => Promise<Row[]>, limit = ROWS_PER_PAGE): AsyncGenerator<Row[]> {
  let lastId = 0;
  for (;;) {
    const page = await readAfter(lastId, limit);
    if (page.length > 0) yield page;
    const last = page.at(-1);
    if (last === undefined || page.length < limit) return;
    lastId = last.id;
  }
}

/** Each row of the pages, as the export gives it. */
async function* each<Row, Item>(source: AsyncIterable<Row[]>, map: (row: Row) => Item): AsyncGenerator<Item> {
  for await (const page of source) for (const row of page) yield map(row);
}

/** An activity log as the export gives it: a patrol names its image file instead of holding the image. */
function exportedLog(id: number, entry: ActivityLog) {
  return entry.type === 'patrol' ? { ...entry, patrol: { image: patrolImagePath(id) } } : entry;
}

/** The guest's reservations (every occurrence), each with its jail, alerts and activity logs. */
async function* reservationsOf(db: Database, guestId: number) {
  const reservationPages = pages(
    (lastId, limit) =>
      db
        .select()
        .from(reservations)
        .where(and(eq(reservations.guestId, guestId), gt(reservations.id, lastId)))
        .orderBy(asc(reservations.id))
        .limit(limit),
    RESERVATIONS_PER_PAGE,
  );
  for await (const page of reservationPages) {
    const ids = page.map((reservation) => reservation.id);
    const [jailRows, alertRows, logRows] = await Promise.all([
      db.select().from(jails).where(inArray(jails.reservationId, ids)),
      db.select().from(jailAlerts).where(inArray(jailAlerts.reservationId, ids)).orderBy(asc(jailAlerts.time), asc(jailAlerts.id)),
      // The image itself goes into the archive as a file: it is not even read here.
      db
        .select({ id: activityLogs.id, reservationId: activityLogs.reservationId, entry: sql<ActivityLog>`${activityLogs.entry} #- '{patrol,data}'` })
        .from(activityLogs)
        .where(inArray(activityLogs.reservationId, ids))
        .orderBy(asc(activityLogs.time), asc(activityLogs.id)),
    ]);
    for (const reservation of page) {
      const jail = jailRows.find((row) => row.reservationId === reservation.id);
      yield {
        id: reservation.id,
        seriesId: reservation.seriesId,
        work: reservation.work,
        startTime: iso(reservation.startTime),
        endTime: iso(reservation.endTime),
        durationMinutes: reservation.durationMinutes,
        repeatType: reservation.repeatType,
        dailyRepeatSettings: reservation.dailyRepeatSettings,
        schedules: reservation.schedules,
        timeZone: reservation.timeZone,
        isTrial: reservation.isTrial,
        finishReason: reservation.finishReason,
        createdAt: iso(reservation.createdAt),
        updatedAt: iso(reservation.updatedAt),
        jail:
          jail === undefined
            ? null
            : {
                state: jail.state,
                startedAt: iso(jail.startedAt),
                enteredAt: iso(jail.enteredAt),
                finishedAt: iso(jail.finishedAt),
                finish: jail.finish,
                status: jail.jailStatus,
                breakMs: jail.breakMs,
                awayMs: jail.awayMs,
                focusedMs: jail.focusedMs,
                commands: jail.commands,
                patrolImagesDeletedAt: iso(jail.patrolsPurgedAt),
              },
        alerts: alertRows.filter((alert) => alert.reservationId === reservation.id).map((alert) => ({ kind: alert.kind, time: iso(alert.time) })),
        activityLogs: logRows.filter((log) => log.reservationId === reservation.id).map((log) => exportedLog(log.id, log.entry)),
      };
    }
  }
}

/** `"name":[ ...items ]`, one item a line, written as the items come. */
async function* jsonArray(name: string, items: AsyncIterable<unknown> | Iterable<unknown>): AsyncGenerator<string> {
  yield `,\n${JSON.stringify(name)}:[`;
  let separator = '\n';
  for await (const item of items) {
    yield separator + JSON.stringify(item);
    separator = ',\n';
  }
  yield '\n]';
}

/** `warden.json`, written section by section (the sections are described in docs/privacy.md). */
async function* exportJson(db: Database, guest: GuestRow, now: number): AsyncGenerator<string> {
  const guestId = guest.id;
  yield `{"format":"warden-export","version":${EXPORT_FORMAT_VERSION},"exportedAt":${JSON.stringify(iso(now))}`;
  yield `,\n"account":${JSON.stringify(accountOf(guest))}`;
  const signIns = await db
    .select({ createdAt: sessions.createdAt, lastSeenAt: sessions.lastSeenAt, browser: sessions.browser, os: sessions.os, wardenId: sessions.wardenId })
    .from(sessions)
    .where(eq(sessions.guestId, guestId))
    .orderBy(asc(sessions.createdAt));
  yield* jsonArray(
    'sessions',
    signIns.map((session) => ({
      startedAt: iso(session.createdAt),
      lastUsedAt: iso(session.lastSeenAt),
      browser: session.browser,
      system: session.os,
      openedByFacilitator: session.wardenId !== null,
    })),
  );
  yield* jsonArray('reservations', reservationsOf(db, guestId));
  yield* jsonArray(
    'pauses',
    each(
      pages((lastId, limit) =>
        db
          .select()
          .from(pauses)
          .where(and(eq(pauses.guestId, guestId), gt(pauses.id, lastId)))
          .orderBy(asc(pauses.id))
          .limit(limit),
      ),
      (pause) => ({ from: iso(pause.fromTime), resumes: iso(pause.toTime), createdAt: iso(pause.createdAt) }),
    ),
  );
  yield* jsonArray(
    'lazyAlerts',
    each(
      pages((lastId, limit) =>
        db
          .select()
          .from(lazyAlerts)
          .where(and(eq(lazyAlerts.guestId, guestId), gt(lazyAlerts.id, lastId)))
          .orderBy(asc(lazyAlerts.id))
          .limit(limit),
      ),
      (alert) => ({ reservationId: alert.reservationId, createdAt: iso(alert.createdAt) }),
    ),
  );
  yield* jsonArray(
    'approvedScenes',
    each(
      pages((lastId, limit) =>
        db
          .select({ id: featureImages.id, sourceLogId: featureImages.sourceLogId, createdAt: featureImages.createdAt })
          .from(featureImages)
          .where(and(eq(featureImages.guestId, guestId), gt(featureImages.id, lastId)))
          .orderBy(asc(featureImages.id))
          .limit(limit),
      ),
      (scene) => ({ id: scene.id, image: approvedScenePath(scene.id), fromPatrolLog: scene.sourceLogId, approvedAt: iso(scene.createdAt) }),
    ),
  );
  yield* jsonArray(
    'payments',
    each(
      pages((lastId, limit) =>
        db
          .select()
          .from(payments)
          .where(and(eq(payments.guestId, guestId), gt(payments.id, lastId)))
          .orderBy(asc(payments.id))
          .limit(limit),
      ),
      (payment) => ({
        provider: payment.provider,
        providerPaymentId: payment.providerPaymentId,
        plan: planNamed(payment.plan),
        amountYen: payment.amountYen,
        status: payment.status,
        failure: payment.failure,
        createdAt: iso(payment.createdAt),
        updatedAt: iso(payment.updatedAt),
      }),
    ),
  );
  yield* jsonArray(
    'forumPosts',
    each(
      pages((lastId, limit) =>
        db
          .select()
          .from(forumMessages)
          .where(and(eq(forumMessages.guestId, guestId), gt(forumMessages.id, lastId)))
          .orderBy(asc(forumMessages.id))
          .limit(limit),
      ),
      (post) => ({ username: post.username, text: post.text, createdAt: iso(post.createdAt) }),
    ),
  );
  yield* jsonArray(
    'errorLogs',
    each(
      pages((lastId, limit) =>
        db
          .select()
          .from(errorLogs)
          .where(and(eq(errorLogs.guestId, guestId), gt(errorLogs.id, lastId)))
          .orderBy(asc(errorLogs.id))
          .limit(limit),
      ),
      (log) => ({ text: log.text, createdAt: iso(log.createdAt) }),
    ),
  );
  yield `,\n"collaboration":${JSON.stringify({
    webhook: { enabled: guest.webhookEnabled },
    trigger: { enabled: guest.triggerEnabled, method: guest.triggerMethod, url: guest.triggerUrl, body: guest.triggerBody },
  })}`;
  yield* jsonArray('triggerDeliveries', triggerDeliveriesOf(db, guestId));
  const devices = await db
    .select({ endpoint: pushDevices.endpoint, label: pushDevices.label, createdAt: pushDevices.createdAt })
    .from(pushDevices)
    .where(eq(pushDevices.guestId, guestId))
    .orderBy(asc(pushDevices.id));
  yield `,\n"reminders":${JSON.stringify({
    leadMinutes: guest.reminderLeadMinutes,
    byEmail: guest.remindByEmail,
    // The push service's host says which browser maker delivers it; the address itself works as a credential.
    devices: devices.map((device) => ({ label: device.label, pushService: new URL(device.endpoint).host, addedAt: iso(device.createdAt) })),
  })}`;
  // Which reminders went out, and how: a few a jail, read at once.
  const reminders = await db
    .select({
      reservationId: remindersSent.reservationId,
      startTime: remindersSent.startTime,
      target: remindersSent.target,
      claimedAt: remindersSent.claimedAt,
      outcome: remindersSent.outcome,
    })
    .from(remindersSent)
    .innerJoin(reservations, eq(reservations.id, remindersSent.reservationId))
    .where(eq(reservations.guestId, guestId))
    .orderBy(asc(remindersSent.claimedAt));
  yield* jsonArray(
    'remindersSent',
    reminders.map((reminder) => ({
      reservationId: reminder.reservationId,
      jailStart: iso(reminder.startTime),
      to: reminder.target === 'email' ? 'email' : 'device',
      sentAt: iso(reminder.claimedAt),
      outcome: reminder.outcome,
    })),
  );
  yield `,\n"calendarFeed":${JSON.stringify({ on: guest.calendarFeedToken !== null })}`;
  // The one-time links that let a facilitator sign in as the guest: when made, until when, when used (never the token).
  const facilitatorLinks = await db
    .select({ createdAt: facilitatorTokens.createdAt, expiresAt: facilitatorTokens.expiresAt, usedAt: facilitatorTokens.usedAt })
    .from(facilitatorTokens)
    .where(eq(facilitatorTokens.guestId, guestId))
    .orderBy(asc(facilitatorTokens.createdAt));
  yield* jsonArray(
    'facilitatorLinks',
    facilitatorLinks.map((link) => ({ createdAt: iso(link.createdAt), expiresAt: iso(link.expiresAt), usedAt: iso(link.usedAt) })),
  );
  yield '\n}\n';
}

/** Trigger calls by creation; their ids are text, so pages go by creation time and id. */
async function* triggerDeliveriesOf(db: Database, guestId: number) {
  let after: { createdAt: number; id: string } | null = null;
  for (;;) {
    const page: (typeof triggerDeliveries.$inferSelect)[] = await db
      .select()
      .from(triggerDeliveries)
      .where(
        and(
          eq(triggerDeliveries.guestId, guestId),
          after === null ? undefined : sql`(${triggerDeliveries.createdAt}, ${triggerDeliveries.id}) > (${after.createdAt}, ${after.id})`,
        ),
      )
      .orderBy(asc(triggerDeliveries.createdAt), asc(triggerDeliveries.id))
      .limit(ROWS_PER_PAGE);
    for (const delivery of page) {
      yield {
        id: delivery.id,
        reservationId: delivery.reservationId,
        method: delivery.method,
        url: delivery.url,
        body: delivery.body,
        status: delivery.status,
        attempts: delivery.attempts,
        lastStatusCode: delivery.lastStatusCode,
        lastError: delivery.lastError,
        createdAt: iso(delivery.createdAt),
        deliveredAt: iso(delivery.deliveredAt),
      };
    }
    const last = page.at(-1);
    if (last === undefined || page.length < ROWS_PER_PAGE) return;
    after = { createdAt: last.createdAt, id: last.id };
  }
}

/** The ids of the guest's patrol logs still holding an image (the purge deletes the others). */
async function patrolLogIds(db: Database, guestId: number): Promise<number[]> {
  const rows = await db
    .select({ id: activityLogs.id })
    .from(activityLogs)
    .innerJoin(reservations, eq(reservations.id, activityLogs.reservationId))
    .where(and(eq(reservations.guestId, guestId), sql`${activityLogs.entry}->>'type' = 'patrol'`))
    .orderBy(asc(activityLogs.id));
  return rows.map((row) => row.id);
}

/**
 * The archive of `guest`, as a stream that the database feeds while it is
 * read. A failure while reading ends the stream with that error, so that a
 * download is never a truncated archive that looks whole.
 */
export async function guestArchive(db: Database, guest: GuestRow, now: number): Promise<Readable> {
  const zip = new ZipFile();
  const output = new PassThrough();
  zip.on('error', (error: unknown) => output.destroy(error instanceof Error ? error : new Error(String(error))));
  zip.outputStream.on('error', (error: Error) => output.destroy(error));
  zip.outputStream.pipe(output);
  const mtime = new Date(now);
  zip.addReadStreamLazy('warden.json', { mtime }, (done) => done(null, Readable.from(exportJson(db, guest, now))));
  // JPEGs are compressed already: stored as they are.
  const image = (path: string, read: () => Promise<string | undefined>) =>
    zip.addReadStreamLazy(path, { mtime, compress: false }, (done) => {
      read().then(
        (dataUrl) =>
          dataUrl === undefined
            ? done(new Error(`${path} went while the export was written`), Readable.from([]))
            : done(null, Readable.from([jpegBytes(dataUrl)])),
        (error: unknown) => done(error, Readable.from([])),
      );
    });
  const [patrolIds, scenes] = await Promise.all([
    patrolLogIds(db, guest.id),
    db
      .select({ id: featureImages.id })
      .from(featureImages)
      .where(and(eq(featureImages.guestId, guest.id), isNotNull(featureImages.data)))
      .orderBy(asc(featureImages.id)),
  ]);
  for (const logId of patrolIds) {
    image(patrolImagePath(logId), async () => {
      const [row] = await db.select({ entry: activityLogs.entry }).from(activityLogs).where(eq(activityLogs.id, logId));
      return row?.entry.type === 'patrol' ? row.entry.patrol.data : undefined;
    });
  }
  for (const { id } of scenes) {
    image(approvedScenePath(id), async () => (await db.select({ data: featureImages.data }).from(featureImages).where(eq(featureImages.id, id)))[0]?.data);
  }
  zip.end();
  return output;
}

/** The archive's file name: the day of the export in the guest's time zone. */
export function archiveName(guest: Pick<GuestRow, 'timezone'>, now: number): string {
  return `warden-${new Date(now - guest.timezone * 60_000).toISOString().slice(0, 10)}.zip`;
}

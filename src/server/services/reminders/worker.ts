import { and, eq, gt, inArray, isNotNull, not, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import webpush from 'web-push';
import type { ReminderPayload } from '../../../shared/api/reminders.ts';
import type { Language } from '../../../shared/constants.ts';
import { message } from '../../../shared/messages.ts';
import { jailEntryOpensAt } from '../../../shared/reservations.ts';
import { clockLabel, formatDateTime, timeZoneOfBrowserOffset, toLocal } from '../../../shared/time-zone.ts';
import type { Database } from '../../db/database.ts';
import { guests, pushDevices, remindersSent, reservations } from '../../db/schema/index.ts';
import type { Clock } from '../../lib/clock.ts';
import { isHeld } from '../pause-sql.ts';
import { PeriodicWorker } from '../../lib/periodic-worker.ts';
import type { Outbox } from '../../lib/outbox.ts';
import { type CallGuard, callTrigger } from '../triggers/caller.ts';
import type { VapidKeys } from './keys.ts';
import { isPushServiceAddress, MAX_PUSH_DEVICES_PER_GUEST } from './push-services.ts';
import { MINUTE_MS } from '../../../shared/durations.ts';

/** How long a push service keeps an undelivered reminder: no use once the jail has begun. */
const PUSH_TTL_SECONDS = 60 * 60;
const CLAIMS_PER_PASS = 200;

/** One reminder to send: an occurrence and where it goes. */
interface DueReminder {
  reservationId: number;
  startTime: number;
  work: string;
  guestId: number;
  language: Language;
  timezone: number;
  email: string;
  target: string;
  device: { id: number; endpoint: string; p256dh: string; auth: string } | null;
}

export interface ReminderSite {
  appUrl: string;
  vapid: VapidKeys;
  vapidSubject: string;
}

/** What the notification says and opens, in the guest's language and zone. */
export function reminderPayload(
  reminder: Pick<DueReminder, 'reservationId' | 'startTime' | 'work' | 'language' | 'timezone'>,
  appUrl: string,
  now: number,
): ReminderPayload {
  const timeZone = timeZoneOfBrowserOffset(reminder.timezone);
  const time = clockLabel(toLocal(reminder.startTime, timeZone).minutes);
  const opensAt = jailEntryOpensAt(reminder.startTime);
  const title =
    reminder.work.trim() === ''
      ? message(reminder.language, 'reminder_title_no_work', { time })
      : message(reminder.language, 'reminder_title', { time, work: reminder.work });
  const body =
    now >= opensAt
      ? message(reminder.language, 'reminder_body_open')
      : message(reminder.language, 'reminder_body_before', {
          minutes: Math.max(1, Math.round((reminder.startTime - now) / MINUTE_MS)),
          opens: clockLabel(toLocal(opensAt, timeZone).minutes),
        });
  return {
    title,
    body,
    tag: `jail-${reminder.reservationId}-${reminder.startTime}`,
    prepUrl: `${appUrl}/jail/prep/${reminder.reservationId}`,
    detailUrl: `${appUrl}/reservation/${reminder.reservationId}`,
    entryOpensAt: opensAt,
  };
}

/** How one sending went, as `reminders_sent.outcome` keeps it. */
type Outcome = 'sent' | 'failed' | 'gone';

/**
 * Sends one push through the guarded caller: only to a push service
 * (push-services.ts; the test allowance aside), never to an internal
 * address. The push service's 404 and 410 say the subscription is gone, as
 * does an address outside the push services (one kept before they were
 * checked): it is never called.
 */
export async function sendPush(
  device: { endpoint: string; p256dh: string; auth: string },
  payload: ReminderPayload,
  site: ReminderSite,
  guard: CallGuard,
): Promise<Outcome> {
  if (!isPushServiceAddress(device.endpoint, guard.allowHosts)) return 'gone';
  const details = webpush.generateRequestDetails({ endpoint: device.endpoint, keys: { p256dh: device.p256dh, auth: device.auth } }, JSON.stringify(payload), {
    vapidDetails: { subject: site.vapidSubject, publicKey: site.vapid.publicKey, privateKey: site.vapid.privateKey },
    TTL: PUSH_TTL_SECONDS,
    urgency: 'high',
    topic: payload.tag.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 32),
  });
  const headers = Object.fromEntries(Object.entries(details.headers).map(([name, value]) => [name, String(value)]));
  const outcome = await callTrigger({ method: 'POST', url: details.endpoint, body: details.body, headers, httpsOnly: true }, guard);
  if (outcome.ok) return 'sent';
  return outcome.statusCode === 404 || outcome.statusCode === 410 ? 'gone' : 'failed';
}

/**
 * The reminder worker (docs/reminders.md): each pass finds the occurrences
 * whose reminder is due, claims one reminder per occurrence and target by
 * inserting its `reminders_sent` row (the primary key lets one server have
 * it; a server killed after the claim leaves it unsent, never sent twice),
 * then sends outside any transaction and records how it went.
 */
export class ReminderWorker extends PeriodicWorker {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly guard: CallGuard,
    private readonly outbox: Outbox,
    private readonly site: ReminderSite,
    private readonly log: FastifyBaseLogger,
    intervalMs = 15_000,
  ) {
    super(intervalMs);
  }

  protected async pass(): Promise<void> {
    try {
      const now = this.clock.now();
      const claimed = await this.claimDue(now);
      await Promise.all(claimed.map((reminder) => this.send(reminder, now)));
    } catch (error) {
      this.log.error({ err: error }, 'reminder pass failed');
    }
  }

  /**
   * The reminders due at `now`: occurrences to come (booked ones, not
   * try-anyway) of guests with reminders on, within their lead of the start,
   * whose reminder moment came after the occurrence was booked (a jail booked
   * for ten minutes from now needs no reminder); one per push device, or one
   * e-mail for a guest with no device who chose e-mail. Claimed here.
   */
  private async claimDue(now: number): Promise<DueReminder[]> {
    const due = await this.db
      .select({
        reservationId: reservations.id,
        startTime: reservations.startTime,
        work: reservations.work,
        guestId: guests.id,
        language: guests.language,
        timezone: guests.timezone,
        email: guests.email,
        remindByEmail: guests.remindByEmail,
      })
      .from(reservations)
      .innerJoin(guests, eq(guests.id, reservations.guestId))
      .where(
        and(
          sql`${reservations.finishReason} is null`,
          eq(reservations.isTrial, false),
          isNotNull(guests.reminderLeadMinutes),
          gt(reservations.startTime, now),
          sql`${reservations.startTime} - ${guests.reminderLeadMinutes} * ${MINUTE_MS} <= ${now}`,
          sql`${reservations.startTime} - ${guests.reminderLeadMinutes} * ${MINUTE_MS} >= ${reservations.createdAt}`,
          // A held occurrence (docs/rules.md, Pauses) does not happen: nothing to remind of.
          not(isHeld),
        ),
      )
      .limit(CLAIMS_PER_PASS);
    if (due.length === 0) return [];
    const devices = await this.db
      .select()
      .from(pushDevices)
      .where(
        inArray(
          pushDevices.guestId,
          due.map((row) => row.guestId),
        ),
      );
    const wanted = due.flatMap((row): DueReminder[] => {
      // The newest devices up to the limit: older ones kept from before it get none.
      const own = devices
        .filter((device) => device.guestId === row.guestId)
        .sort((first, second) => second.createdAt - first.createdAt || second.id - first.id)
        .slice(0, MAX_PUSH_DEVICES_PER_GUEST);
      if (own.length > 0) return own.map((device) => ({ ...row, target: `push:${device.id}`, device }));
      return row.remindByEmail ? [{ ...row, target: 'email', device: null }] : [];
    });
    if (wanted.length === 0) return [];
    const claimed = await this.db
      .insert(remindersSent)
      .values(wanted.map((reminder) => ({ reservationId: reminder.reservationId, startTime: reminder.startTime, target: reminder.target, claimedAt: now })))
      .onConflictDoNothing()
      .returning({ reservationId: remindersSent.reservationId, startTime: remindersSent.startTime, target: remindersSent.target });
    return wanted.filter((reminder) =>
      claimed.some((row) => row.reservationId === reminder.reservationId && row.startTime === reminder.startTime && row.target === reminder.target),
    );
  }

  private async send(reminder: DueReminder, now: number): Promise<void> {
    const outcome = reminder.device === null ? this.sendEmail(reminder, now) : await this.sendToDevice(reminder, reminder.device, now);
    await this.db
      .update(remindersSent)
      .set({ outcome })
      .where(
        and(
          eq(remindersSent.reservationId, reminder.reservationId),
          eq(remindersSent.startTime, reminder.startTime),
          eq(remindersSent.target, reminder.target),
        ),
      );
  }

  private async sendToDevice(reminder: DueReminder, device: NonNullable<DueReminder['device']>, now: number): Promise<Outcome> {
    const outcome = await sendPush(device, reminderPayload(reminder, this.site.appUrl, now), this.site, this.guard);
    // The browser unsubscribed or the push service forgot it: it will never take a reminder again.
    if (outcome === 'gone') await this.db.delete(pushDevices).where(eq(pushDevices.id, device.id));
    if (outcome === 'failed') this.log.warn({ deviceId: device.id, reservationId: reminder.reservationId }, 'a push reminder failed');
    return outcome;
  }

  private sendEmail(reminder: DueReminder, now: number): Outcome {
    const timeZone = timeZoneOfBrowserOffset(reminder.timezone);
    const { language } = reminder;
    const opensAt = jailEntryOpensAt(reminder.startTime);
    const params = {
      work: reminder.work,
      start: formatDateTime(reminder.startTime, timeZone, language),
      opens: clockLabel(toLocal(opensAt, timeZone).minutes),
      url: now >= opensAt ? `${this.site.appUrl}/jail/prep/${reminder.reservationId}` : `${this.site.appUrl}/reservation/${reminder.reservationId}`,
      settingsUrl: `${this.site.appUrl}/reminders`,
    };
    const time = clockLabel(toLocal(reminder.startTime, timeZone).minutes);
    this.outbox.send({
      channel: 'email',
      to: reminder.email,
      subject: message(language, 'reminder_email_subject', { time }),
      text: message(language, reminder.work.trim() === '' ? 'reminder_email_text_no_work' : 'reminder_email_text', params),
    });
    return 'sent';
  }
}

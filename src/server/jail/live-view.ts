import { and, desc, eq, gt, inArray, sql } from 'drizzle-orm';
import { ALIVE_CHECK_INTERVAL_MS, JAIL_LOG_PAGE } from '../../shared/constants.ts';
import { ALERT_WINDOW_MS } from '../../shared/penalties.ts';
import type { ActivityLogEntry, GuestJail, LiveJail, RelayWarden } from '../../shared/relay.ts';
import type { Database } from '../db/database.ts';
import { activityLogs, featureImages, guests, jailAlerts, jails, reservations, wardens, type JailRow } from '../db/schema/index.ts';

/**
 * How jails look to the guest and to the wardens' console, read from the
 * database (so every server shows the same, whoever changed it).
 */

/** A device counts as connected while its alive checks (every 30 s) keep coming. */
export const CONNECTED_WITHIN_MS = 2 * ALIVE_CHECK_INTERVAL_MS + 15_000;

export function guestJailOf(jail: JailRow, work: string): GuestJail {
  return {
    reservationId: jail.reservationId,
    work,
    startTime: jail.startTime,
    endTime: jail.endTime,
    jailStatus: jail.jailStatus,
    statusSince: jail.statusSince,
    commands: jail.commands,
  };
}

/** The reservation's work, for the guest's view of a jail. */
export async function workOf(db: Database, reservationId: number): Promise<string> {
  const [row] = await db.select({ work: reservations.work }).from(reservations).where(eq(reservations.id, reservationId));
  return row?.work ?? '';
}

/** The guest's approved scenes (their whitelist), oldest first. */
export async function featureImagesOf(db: Database, guestId: number): Promise<{ id: number; data: string }[]> {
  return db.select({ id: featureImages.id, data: featureImages.data }).from(featureImages).where(eq(featureImages.guestId, guestId)).orderBy(featureImages.id);
}

export async function wardenOf(db: Database, wardenId: number | null): Promise<RelayWarden | null> {
  if (wardenId === null) return null;
  const [row] = await db.select({ id: wardens.id, title: wardens.title }).from(wardens).where(eq(wardens.id, wardenId));
  return row ?? null;
}

/**
 * The live jails as the console lists them: all of them, or those of
 * `reservationIds`. Each with the latest patrol image, since when the seat
 * has looked empty (away), and the alerts of the last 20 minutes.
 */
export async function liveJails(db: Database, now: number, reservationIds?: readonly number[]): Promise<LiveJail[]> {
  const conditions = [eq(jails.state, 'live')];
  if (reservationIds !== undefined) conditions.push(inArray(jails.reservationId, [...reservationIds]));
  const rows = await db
    .select({
      jail: jails,
      work: reservations.work,
      guestTitle: guests.title,
      wardenTitle: wardens.title,
      latestPatrol: sql<{ data: string; time: number } | null>`(
        select json_build_object('data', ${activityLogs.entry}->'patrol'->>'data', 'time', ${activityLogs.time})
        from ${activityLogs}
        where ${activityLogs.reservationId} = ${jails.reservationId} and ${activityLogs.entry}->>'type' = 'patrol'
        order by ${activityLogs.time} desc, ${activityLogs.id} desc limit 1
      )`,
      // The latest away, back or status log: an away there means the seat is empty now.
      awaySince: sql<number | null>`(
        select case when ${activityLogs.entry}->'motion'->>'kind' = 'away' then ${activityLogs.time} end
        from ${activityLogs}
        where ${activityLogs.reservationId} = ${jails.reservationId}
          and (${activityLogs.entry}->'motion'->>'kind' in ('away', 'back') or ${activityLogs.entry}->>'type' = 'status')
        order by ${activityLogs.time} desc, ${activityLogs.id} desc limit 1
      )`,
      alerts: sql<{ kind: LiveJail['alerts'][number]['kind']; time: number }[]>`coalesce((
        select json_agg(json_build_object('kind', ${jailAlerts.kind}, 'time', ${jailAlerts.time}) order by ${jailAlerts.time})
        from ${jailAlerts}
        where ${jailAlerts.reservationId} = ${jails.reservationId} and ${jailAlerts.time} > ${now - ALERT_WINDOW_MS}
      ), '[]'::json)`,
    })
    .from(jails)
    .innerJoin(reservations, eq(reservations.id, jails.reservationId))
    .innerJoin(guests, eq(guests.id, jails.guestId))
    .leftJoin(wardens, eq(wardens.id, jails.wardenId))
    .where(and(...conditions))
    .orderBy(jails.endTime, jails.reservationId);
  return rows.map(({ jail, work, guestTitle, wardenTitle, latestPatrol, awaySince, alerts }) => ({
    reservationId: jail.reservationId,
    guest: { id: jail.guestId, title: guestTitle },
    work,
    startTime: jail.startTime,
    endTime: jail.endTime,
    jailStatus: jail.jailStatus,
    statusSince: jail.statusSince,
    connected: jail.lastAliveAt !== null && now - jail.lastAliveAt < CONNECTED_WITHIN_MS,
    enteredAt: jail.enteredAt,
    latestPatrol: latestPatrol === null ? null : { data: latestPatrol.data, time: Number(latestPatrol.time) },
    awaySince: awaySince === null ? null : Number(awaySince),
    alerts: alerts.map((alert) => ({ kind: alert.kind, time: Number(alert.time) })),
    commands: jail.commands,
    warden: jail.wardenId === null || wardenTitle === null ? null : { id: jail.wardenId, title: wardenTitle },
  }));
}

/**
 * A page of a jail's logs for the console: the newest `JAIL_LOG_PAGE` of
 * them, or of those before the log `before` (by time, then id), given
 * oldest first with their ids, and whether earlier ones remain.
 */
export async function logPageOf(
  db: Database,
  reservationId: number,
  before: number | null,
): Promise<{ logs: (ActivityLogEntry & { id: number })[]; hasEarlier: boolean }> {
  const earlier =
    before === null
      ? undefined
      : sql`(${activityLogs.time}, ${activityLogs.id}) < (select ${activityLogs.time}, ${activityLogs.id} from ${activityLogs}
          where ${activityLogs.id} = ${before} and ${activityLogs.reservationId} = ${reservationId})`;
  const rows = await db
    .select({ id: activityLogs.id, entry: activityLogs.entry })
    .from(activityLogs)
    .where(and(eq(activityLogs.reservationId, reservationId), earlier))
    .orderBy(desc(activityLogs.time), desc(activityLogs.id))
    .limit(JAIL_LOG_PAGE + 1);
  const page = rows.slice(0, JAIL_LOG_PAGE).reverse();
  return { logs: page.map(({ id, entry }) => ({ ...entry, id })), hasEarlier: rows.length > JAIL_LOG_PAGE };
}

/** The most recent jail of the guest that is live, or finished with its report still open at `now`. */
export async function openJailOf(db: Database, guestId: number, now: number): Promise<JailRow | null> {
  const [row] = await db
    .select()
    .from(jails)
    .where(and(eq(jails.guestId, guestId), sql`(${jails.state} = 'live' or ${gt(jails.logsSettleAt, now)})`))
    .orderBy(desc(jails.startTime))
    .limit(1);
  return row ?? null;
}

import { and, eq, sql, type SQL } from 'drizzle-orm';
import { JAIL_MAX_LOGS, PATROL_MAX_LOGS_PER_SESSION } from '../../shared/constants.ts';
import type { ActivityLog } from '../../shared/api/reservation.ts';
import type { Database, NamedStatement, PrepareNamed } from '../db/database.ts';
import { activityLogs, jails } from '../db/schema/index.ts';
import { TurnBatch } from '../lib/turn-batch.ts';
import { RelayRefusal } from './jail-changes.ts';
import { openJailOf } from './live-view.ts';

/**
 * Decides where a streamed log (motion, dialog, patrol) is written and
 * whether it is new: the guest's open jail (live, or finished with its report
 * still taking late events), once per eventId, while the jail has room,
 * without a transaction. Each log waits for the next turn of the event loop
 * and goes in with the others that came meanwhile, one statement for the
 * motion and dialog logs and one for the patrols. Every log counts itself on
 * its jail's row (and a patrol also as a patrol), whose lock keeps two
 * batches at once from passing a jail's cap (`JAIL_MAX_LOGS`) or its patrol
 * limit.
 */

/** What adding a streamed log answers: the open jail it went to, and the new log's id (null: a retry). */
interface AppendedRow {
  reservation_id: number;
  state: 'live' | 'finished';
  entered_at: number | null;
  log_id: number | null;
}

interface QueuedLog {
  guestId: number;
  entry: ActivityLog;
  eventId: string;
}

/** What the streamed events need of the jail they went to. */
export interface StreamedJail {
  reservationId: number;
  state: 'live' | 'finished';
}

/** A streamed log written: its jail, whether the guest had come in before, and its id (null: a retry). */
export interface WrittenLog {
  jail: StreamedJail;
  entered: boolean;
  logId: number | null;
}

/**
 * A batch statement's rows (numbered by `ord` from 1) in the batch's order:
 * none for a log that found no place (the statement takes one copy of an
 * event sent twice in a batch; the other is its retry, `whyNotAdded`).
 */
function answerInOrder(batch: readonly QueuedLog[], rows: readonly (AppendedRow & { ord: number })[]): (AppendedRow | undefined)[] {
  const byOrder = new Map(rows.map((row) => [row.ord, row]));
  return batch.map((_, index) => byOrder.get(index + 1));
}

/** The placeholders' values for a batch of queued logs (`QUEUED_OPEN_JAILS`). */
function queuedValues(batch: readonly QueuedLog[]): Record<string, unknown[]> {
  return {
    guestIds: batch.map((log) => log.guestId),
    times: batch.map((log) => log.entry.time),
    entries: batch.map((log) => JSON.stringify(log.entry)),
    eventIds: batch.map((log) => log.eventId),
  };
}

/**
 * The queued logs numbered from 1 (`ord`) in `input`, and in `open_jail`
 * each with its guest's open jail: live, or finished with its report still
 * taking late events, the latest to start of those.
 */
const QUEUED_OPEN_JAILS = sql`input as (
    select * from unnest(${sql.placeholder('guestIds')}::int[], ${sql.placeholder('times')}::bigint[], ${sql.placeholder('entries')}::jsonb[],
      ${sql.placeholder('eventIds')}::text[]) with ordinality as input(guest_id, time, entry, event_id, ord)
  ), open_jail as (
    select distinct on (input.ord) input.ord, ${jails.reservationId} as reservation_id, ${jails.state} as state,
      ${jails.enteredAt}::float8 as entered_at, input.time, input.entry, input.event_id
    from input join ${jails} on ${jails.guestId} = input.guest_id and (${jails.state} = 'live' or ${jails.logsSettleAt} > input.time)
    order by input.ord, ${jails.startTime} desc
  )`;

const column = (name: string) => sql.identifier(name);

/**
 * Adds the queued logs that are new (their jail has no log with their
 * eventId; the first of a batch's copies) in their order while their jail
 * has room: `JAIL_MAX_LOGS` in all, and for patrols also
 * `PATROL_MAX_LOGS_PER_SESSION`. The jails are locked in the order of their
 * ids, so two batches at once wait for each other instead of deadlocking,
 * and their counts go up by the logs really inserted. Answers a row for
 * each log that had room (`log_id` null: a copy that came at the same time
 * through another batch); none for the rest.
 */
function appendStatement(patrols: boolean): SQL {
  const patrolRoom = patrols ? sql`and fresh.place <= ${PATROL_MAX_LOGS_PER_SESSION} - locked.patrol_count` : sql``;
  const patrolCounted = patrols ? sql`, ${column(jails.patrolCount.name)} = ${jails.patrolCount} + added_count.count` : sql``;
  return sql`with ${QUEUED_OPEN_JAILS}, fresh as (
      select distinct on (open_jail.reservation_id, open_jail.event_id) open_jail.* from open_jail
      where not exists (select 1 from ${activityLogs}
        where ${activityLogs.reservationId} = open_jail.reservation_id and ${activityLogs.eventId} = open_jail.event_id)
      order by open_jail.reservation_id, open_jail.event_id, open_jail.ord
    ), locked as (
      select ${jails.reservationId} as reservation_id, ${jails.state} as state, ${jails.enteredAt}::float8 as entered_at,
        ${jails.logCount} as log_count, ${jails.patrolCount} as patrol_count
      from ${jails} where ${jails.reservationId} in (select reservation_id from fresh)
      order by ${jails.reservationId}
      for no key update
    ), accepted as (
      select fresh.ord, fresh.reservation_id, fresh.time, fresh.entry, fresh.event_id, locked.state, locked.entered_at
      from (select fresh.*, row_number() over (partition by fresh.reservation_id order by fresh.ord) as place from fresh) as fresh
      join locked on locked.reservation_id = fresh.reservation_id
      where fresh.place <= ${JAIL_MAX_LOGS} - locked.log_count ${patrolRoom}
    ), added as (
      insert into ${activityLogs} (${column(activityLogs.reservationId.name)}, ${column(activityLogs.time.name)}, ${column(activityLogs.entry.name)}, ${column(activityLogs.eventId.name)})
      select reservation_id, time, entry, event_id from accepted order by ord
      on conflict do nothing
      returning ${activityLogs.id} as id, ${activityLogs.reservationId} as reservation_id, ${activityLogs.eventId} as event_id
    ), counted as (
      update ${jails} set ${column(jails.logCount.name)} = ${jails.logCount} + added_count.count ${patrolCounted}
      from (select reservation_id, count(*)::int as count from added group by reservation_id) as added_count
      where ${jails.reservationId} = added_count.reservation_id
    )
    select accepted.ord::int as ord, accepted.reservation_id, accepted.state, accepted.entered_at, added.id as log_id
    from accepted left join added on added.reservation_id = accepted.reservation_id and added.event_id = accepted.event_id`;
}

export class LogWriter {
  /** Motion and dialog logs of one turn of the event loop, added together (`addLogs`). */
  private readonly logs = new TurnBatch<QueuedLog, AppendedRow | undefined>((batch) => this.addLogs(batch));
  /** Patrols of one turn, added together (`addPatrols`). */
  private readonly patrols = new TurnBatch<QueuedLog, AppendedRow | undefined>((batch) => this.addPatrols(batch));

  private readonly appendLogs: NamedStatement<AppendedRow & { ord: number }>;
  private readonly appendPatrols: NamedStatement<AppendedRow & { ord: number }>;

  constructor(
    private readonly db: Database,
    prepareNamed: PrepareNamed,
  ) {
    this.appendLogs = prepareNamed('warden_append_logs', appendStatement(false));
    this.appendPatrols = prepareNamed('warden_append_patrols', appendStatement(true));
  }

  /**
   * Adds the guest's log to their open jail, once per eventId. Without an
   * open jail, or without room in it, the event is refused.
   */
  async append(guestId: number, entry: ActivityLog, eventId: string): Promise<WrittenLog> {
    const row = await (entry.type === 'patrol' ? this.patrols : this.logs).add({ guestId, entry, eventId });
    if (row === undefined) return this.whyNotAdded(guestId, entry, eventId);
    return { jail: { reservationId: row.reservation_id, state: row.state }, entered: row.entered_at !== null, logId: row.log_id };
  }

  /** Adds every queued motion and dialog log in one statement, each to its guest's open jail. */
  private async addLogs(batch: readonly QueuedLog[]): Promise<(AppendedRow | undefined)[]> {
    return answerInOrder(batch, await this.appendLogs(queuedValues(batch)));
  }

  /** Adds every queued patrol in one statement, each to its guest's open jail. */
  private async addPatrols(batch: readonly QueuedLog[]): Promise<(AppendedRow | undefined)[]> {
    return answerInOrder(batch, await this.appendPatrols(queuedValues(batch)));
  }

  /** Why a log found no place: no open jail, a retry of one it has, or no room left (for any log, or for patrols). */
  private async whyNotAdded(guestId: number, entry: ActivityLog, eventId: string): Promise<WrittenLog> {
    const jail = await openJailOf(this.db, guestId, entry.time);
    if (jail === null) throw new RelayRefusal('no_live_jail');
    const [existing] = await this.db
      .select({ id: activityLogs.id })
      .from(activityLogs)
      .where(and(eq(activityLogs.reservationId, jail.reservationId), eq(activityLogs.eventId, eventId)));
    if (existing !== undefined) return { jail: { reservationId: jail.reservationId, state: jail.state }, entered: jail.enteredAt !== null, logId: null };
    if (jail.logCount >= JAIL_MAX_LOGS) throw new RelayRefusal('jail_logs_full', { max: JAIL_MAX_LOGS });
    if (entry.type === 'patrol') throw new RelayRefusal('patrol_limit_reached');
    // The jail finished (or its report closed) between the statement and this look.
    throw new RelayRefusal('no_live_jail');
  }
}

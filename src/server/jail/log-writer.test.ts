import { readFileSync } from 'node:fs';
import { asc, eq, type SQL } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { ActivityLog, Reservation } from '../../shared/api/reservation.ts';
import type { PrepareNamed } from '../db/database.ts';
import { JAIL_MAX_LOGS, PATROL_MAX_LOGS_PER_SESSION } from '../../shared/constants.ts';
import { activityLogs, jails } from '../db/schema/index.ts';
import { apiBlock, credentials, signUp, succeed, useTestServer, verifyEmail, type TestGuest } from '../test/harness.ts';
import { eventId } from '../test/relay-client.ts';
import { tally } from '../test/tally.ts';
import { RelayRefusal } from './jail-changes.ts';
import { LogWriter } from './log-writer.ts';

/**
 * The batched log writer alone, on a real database: the streamed logs of one
 * turn of the event loop go in as one statement, each to its guest's open
 * jail, once per eventId; the patrols of a turn in another, within each
 * jail's limit.
 */

const server = useTestServer();

/** A guest in a live try-anyway jail (started by a scheduler tick). */
async function guestInJail(): Promise<{ guest: TestGuest; reservation: Reservation }> {
  const guest = await signUp(server.app);
  await verifyEmail(server.app, guest);
  const answer = await succeed(server.app, '/reservation/try', {
    api: apiBlock(),
    guest: credentials(guest),
    reservation: { work: 'Sort the mail', duration: 1 },
  });
  await server.app.jailScheduler.tick();
  return { guest, reservation: answer.reservation as Reservation };
}

/** A writer whose statements are counted by name. */
function countingWriter(): { writer: LogWriter; statements: string[] } {
  const statements: string[] = [];
  const prepareNamed: PrepareNamed = <Row>(name: string, query: SQL) => {
    const statement = server.app.prepareNamed<Row>(name, query);
    return (values: Record<string, unknown>) => {
      statements.push(name);
      return statement(values);
    };
  };
  return { writer: new LogWriter(server.app.db, prepareNamed), statements };
}

/**
 * The same logs written by two writers at once, each its own batch of the
 * same turn (two statements at once on PostgreSQL): each answer's refusal,
 * or 'written'.
 */
async function writtenByTwoBatches(guestId: number, entries: readonly (() => ActivityLog)[]): Promise<string[]> {
  const writers = [countingWriter().writer, countingWriter().writer];
  const answers = await Promise.allSettled(writers.flatMap((writer) => entries.map((entry) => writer.append(guestId, entry(), eventId()))));
  return answers.map((answer) => {
    if (answer.status === 'fulfilled') return 'written';
    return answer.reason instanceof RelayRefusal ? answer.reason.key : String(answer.reason);
  });
}

function motion(): ActivityLog {
  return { type: 'motion', time: server.clock.now(), motion: { type: 0, kind: 'no_motion' } };
}

const patrolData = `data:image/jpeg;base64,${readFileSync(new URL('./fixtures/canvas-100x75.jpg', import.meta.url)).toString('base64')}`;

function patrolLog(): ActivityLog {
  return { type: 'patrol', time: server.clock.now(), patrol: { data: patrolData } };
}

async function patrolCountOf(reservationId: number): Promise<number | undefined> {
  const [jail] = await server.app.db.select({ patrolCount: jails.patrolCount }).from(jails).where(eq(jails.reservationId, reservationId));
  return jail?.patrolCount;
}

function logsOf(reservationId: number) {
  return server.app.db.select().from(activityLogs).where(eq(activityLogs.reservationId, reservationId)).orderBy(asc(activityLogs.id));
}

describe('the batched log writer', () => {
  it('writes the logs of one turn in one statement, each in its guest’s jail, and a resend as a retry', async () => {
    const first = await guestInJail();
    const second = await guestInJail();
    const { writer, statements } = countingWriter();
    const resent = eventId();
    const written = await Promise.all([
      writer.append(first.guest.id, motion(), resent),
      writer.append(second.guest.id, { type: 'dialog', time: server.clock.now(), dialog: { type: 0, text: 'Hello' } }, eventId()),
      writer.append(first.guest.id, motion(), resent),
    ]);
    expect(statements).toEqual(['warden_append_logs']);
    expect(written.map(({ jail }) => jail)).toEqual([
      { reservationId: first.reservation.id, state: 'live' },
      { reservationId: second.reservation.id, state: 'live' },
      { reservationId: first.reservation.id, state: 'live' },
    ]);
    // Nobody has come in yet: the writer says so, for the caller to mark the jail entered.
    expect(written.map(({ entered }) => entered)).toEqual([false, false, false]);
    expect(written[0]?.logId).toEqual(expect.any(Number));
    expect(written[1]?.logId).toEqual(expect.any(Number));
    expect(written[2]?.logId).toBeNull();

    // The same event in a later turn is a retry too.
    expect((await writer.append(first.guest.id, motion(), resent)).logId).toBeNull();
    expect(statements).toEqual(['warden_append_logs', 'warden_append_logs']);
    const stored = await logsOf(first.reservation.id);
    expect(stored.filter((log) => log.eventId === resent)).toHaveLength(1);
    expect((await logsOf(second.reservation.id)).filter((log) => log.entry.type === 'dialog' && log.entry.dialog.type === 0)).toHaveLength(1);
  });

  it('refuses the log of a guest without an open jail and still writes the rest of its batch', async () => {
    const inJail = await guestInJail();
    const outside = await signUp(server.app);
    const { writer, statements } = countingWriter();
    const [refused, written] = await Promise.allSettled([writer.append(outside.id, motion(), eventId()), writer.append(inJail.guest.id, motion(), eventId())]);
    expect(statements).toEqual(['warden_append_logs']);
    expect(refused.status === 'rejected' && refused.reason instanceof RelayRefusal && refused.reason.key).toBe('no_live_jail');
    expect(written.status === 'fulfilled' && written.value.logId).toEqual(expect.any(Number));
  });

  it('writes the patrols of one turn in one statement beside the other logs, each in its guest’s jail, once per eventId', async () => {
    const first = await guestInJail();
    const second = await guestInJail();
    const { writer, statements } = countingWriter();
    const resent = eventId();
    const [patrol, other, resend, motionLog] = await Promise.all([
      writer.append(first.guest.id, patrolLog(), resent),
      writer.append(second.guest.id, patrolLog(), eventId()),
      writer.append(first.guest.id, patrolLog(), resent),
      writer.append(first.guest.id, motion(), eventId()),
    ]);
    expect(statements.sort()).toEqual(['warden_append_logs', 'warden_append_patrols']);
    expect([patrol, other, resend].map(({ jail }) => jail.reservationId)).toEqual([first.reservation.id, second.reservation.id, first.reservation.id]);
    expect(patrol.logId).toEqual(expect.any(Number));
    expect(other.logId).toEqual(expect.any(Number));
    expect(resend.logId).toBeNull();
    expect(motionLog.logId).toEqual(expect.any(Number));
    // A later turn's resend is a retry too.
    expect((await writer.append(first.guest.id, patrolLog(), resent)).logId).toBeNull();
    expect((await logsOf(first.reservation.id)).filter((log) => log.entry.type === 'patrol')).toHaveLength(1);
    expect(await patrolCountOf(first.reservation.id)).toBe(1);
    expect(await patrolCountOf(second.reservation.id)).toBe(1);
  });

  it('takes a batch’s patrols in their order while the jail has room, refuses the rest, and answers each guest apart', async () => {
    const full = await guestInJail();
    const other = await guestInJail();
    const outside = await signUp(server.app);
    await server.app.db
      .update(jails)
      .set({ patrolCount: PATROL_MAX_LOGS_PER_SESSION - 1 })
      .where(eq(jails.reservationId, full.reservation.id));
    const { writer, statements } = countingWriter();
    const sent = [eventId(), eventId(), eventId()];
    const answers = await Promise.allSettled([
      ...sent.map((id) => writer.append(full.guest.id, patrolLog(), id)),
      writer.append(outside.id, patrolLog(), eventId()),
      writer.append(other.guest.id, patrolLog(), eventId()),
    ]);
    expect(statements.filter((name) => name === 'warden_append_patrols')).toHaveLength(1);
    const refusals = answers.map((answer) => (answer.status === 'rejected' && answer.reason instanceof RelayRefusal ? answer.reason.key : answer.status));
    expect(refusals).toEqual(['fulfilled', 'patrol_limit_reached', 'patrol_limit_reached', 'no_live_jail', 'fulfilled']);
    const stored = (await logsOf(full.reservation.id)).filter((log) => log.entry.type === 'patrol');
    expect(stored.map((log) => log.eventId)).toEqual([sent[0]]);
    expect(await patrolCountOf(full.reservation.id)).toBe(PATROL_MAX_LOGS_PER_SESSION);
  });

  it('keeps the limit of a jail when two batches write to it at once', async () => {
    const { guest, reservation } = await guestInJail();
    await server.app.db
      .update(jails)
      .set({ patrolCount: PATROL_MAX_LOGS_PER_SESSION - 2 })
      .where(eq(jails.reservationId, reservation.id));
    expect(tally(await writtenByTwoBatches(guest.id, [patrolLog, patrolLog]))).toEqual({ written: 2, patrol_limit_reached: 2 });
    expect((await logsOf(reservation.id)).filter((log) => log.entry.type === 'patrol')).toHaveLength(2);
    expect(await patrolCountOf(reservation.id)).toBe(PATROL_MAX_LOGS_PER_SESSION);
  });

  it('keeps the cap on a jail’s logs when two batches of motion and patrols write to it at once, and counts every log it adds', async () => {
    const { guest, reservation } = await guestInJail();
    await server.app.db
      .update(jails)
      .set({ logCount: JAIL_MAX_LOGS - 3 })
      .where(eq(jails.reservationId, reservation.id));
    expect(tally(await writtenByTwoBatches(guest.id, [motion, patrolLog, motion]))).toEqual({ written: 3, jail_logs_full: 3 });
    const [jail] = await server.app.db.select({ logCount: jails.logCount }).from(jails).where(eq(jails.reservationId, reservation.id));
    expect(jail?.logCount).toBe(JAIL_MAX_LOGS);
  });

  it('acknowledges nobody of a batch whose statement fails', async () => {
    const { guest, reservation } = await guestInJail();
    const failing: PrepareNamed = <Row>(name: string, query: SQL) => {
      const statement = server.app.prepareNamed<Row>(name, query);
      return async (values: Record<string, unknown>) => {
        if (name === 'warden_append_patrols') throw new Error('the database went away');
        return statement(values);
      };
    };
    const writer = new LogWriter(server.app.db, failing);
    const answers = await Promise.allSettled([writer.append(guest.id, patrolLog(), eventId()), writer.append(guest.id, patrolLog(), eventId())]);
    expect(answers.map((answer) => answer.status)).toEqual(['rejected', 'rejected']);
    expect((await logsOf(reservation.id)).filter((log) => log.entry.type === 'patrol')).toHaveLength(0);
  });
});

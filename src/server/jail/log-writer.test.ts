import { readFileSync } from 'node:fs';
import { asc, eq, type SQL } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { ActivityLog, Reservation } from '../../shared/api/reservation.ts';
import type { NamedQuery } from '../db/database.ts';
import { activityLogs } from '../db/schema/index.ts';
import { apiBlock, credentials, signUp, succeed, useTestServer, verifyEmail, type TestGuest } from '../test/harness.ts';
import { eventId } from '../test/relay-client.ts';
import { RelayRefusal } from './jail-changes.ts';
import { LogWriter } from './log-writer.ts';

/**
 * The batched log writer alone, on a real database: the streamed logs of one
 * turn of the event loop go in as one statement, each to its guest's open
 * jail, once per eventId; a patrol goes alone.
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
  const queryNamed: NamedQuery = (name: string, query: SQL) => {
    statements.push(name);
    return server.app.queryNamed(name, query);
  };
  return { writer: new LogWriter(server.app.db, queryNamed), statements };
}

function motion(): ActivityLog {
  return { type: 'motion', time: server.clock.now(), motion: { type: 0, kind: 'no_motion' } };
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

  it('writes a patrol alone, once per eventId', async () => {
    const { guest, reservation } = await guestInJail();
    const { writer, statements } = countingWriter();
    const data = `data:image/jpeg;base64,${readFileSync(new URL('./fixtures/canvas-100x75.jpg', import.meta.url)).toString('base64')}`;
    const patrolEvent = eventId();
    const [patrol, other] = await Promise.all([
      writer.append(guest.id, { type: 'patrol', time: server.clock.now(), patrol: { data } }, patrolEvent),
      writer.append(guest.id, motion(), eventId()),
    ]);
    expect(statements.sort()).toEqual(['warden_append_logs', 'warden_append_patrol']);
    expect(patrol.logId).toEqual(expect.any(Number));
    expect(other.logId).toEqual(expect.any(Number));
    expect((await writer.append(guest.id, { type: 'patrol', time: server.clock.now(), patrol: { data } }, patrolEvent)).logId).toBeNull();
    expect((await logsOf(reservation.id)).filter((log) => log.entry.type === 'patrol')).toHaveLength(1);
  });
});

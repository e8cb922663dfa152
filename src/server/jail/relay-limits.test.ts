import { count, eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import type { RelayAck } from '../../shared/relay.ts';
import { runAdmin } from '../admin.ts';
import { activityLogs } from '../db/schema/index.ts';
import { startWardenSession } from '../services/wardens.ts';
import { apiBlock, bookJail, credentials, moveClockTo, readyGuest, useListeningTestServer, type TestGuest } from '../test/harness.ts';
import { eventId, RelayClient } from '../test/relay-client.ts';
import { RELAY_EVENT_BUDGET } from './event-budget.ts';

/**
 * What a relay client may send (docs/jail.md, Relay: Budgets): every event
 * spends its socket's and its account's budget first, and one over budget
 * is refused in its ack and stored nowhere.
 */

const server = useListeningTestServer();
const clients: RelayClient[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  await moveClockTo(server.app, Date.now());
});

const OVER_BUDGET = 'Too many events in a short time. Wait a few seconds, then try again.';

async function connect(auth: Record<string, unknown>): Promise<RelayClient> {
  const client = await RelayClient.connect(server.url, auth);
  clients.push(client);
  return client;
}

/** A ready guest in the first minute of a live jail; its reservation id. */
async function guestInJail(): Promise<{ guest: TestGuest; reservationId: number }> {
  const guest = await readyGuest(server.app);
  const reservation = await bookJail(server.app, guest, 2);
  await moveClockTo(server.app, reservation.startTime + 1_000);
  return { guest, reservationId: reservation.id };
}

function snitch(guest: TestGuest, language: 'en' | 'ja' = 'en') {
  return { api: apiBlock(language), guest: { id: guest.id }, eventId: eventId(), dialog: { text: 'They are on their phone.' } };
}

/** How many answers each outcome had ('ok' or the refusal). */
function tally(acks: readonly RelayAck[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const ack of acks) {
    const outcome = ack.ok ? 'ok' : ack.error;
    counts[outcome] = (counts[outcome] ?? 0) + 1;
  }
  return counts;
}

async function logCount(reservationId: number): Promise<number> {
  const [row] = await server.app.db.select({ logs: count() }).from(activityLogs).where(eq(activityLogs.reservationId, reservationId));
  return row?.logs ?? 0;
}

describe('the event budgets', () => {
  it('stores the first events of a burst on one socket up to its budget and refuses the rest in their acks', async () => {
    const { guest, reservationId } = await guestInJail();
    const device = await connect({ guest: credentials(guest) });
    const before = await logCount(reservationId);
    const acks = await Promise.all(Array.from({ length: 300 }, () => device.send('snitch_dialog_event_from_guest', snitch(guest))));
    expect(tally(acks)).toEqual({ ok: RELAY_EVENT_BUDGET.perSocket, [OVER_BUDGET]: 300 - RELAY_EVENT_BUDGET.perSocket });
    expect((await logCount(reservationId)) - before).toBe(RELAY_EVENT_BUDGET.perSocket);
    // The refusal speaks the event's language.
    expect(await device.send('snitch_dialog_event_from_guest', snitch(guest, 'ja'))).toEqual({
      ok: false,
      error: '短い時間に送られたイベントが多すぎます。数秒待ってから、もう一度お試しください。',
    });
  });

  it("holds a guest's devices together to the account's budget", async () => {
    const { guest, reservationId } = await guestInJail();
    const devices = await Promise.all([1, 2, 3].map(() => connect({ guest: credentials(guest) })));
    const before = await logCount(reservationId);
    const sent = devices.flatMap((device) => Array.from({ length: 100 }, () => device.send('snitch_dialog_event_from_guest', snitch(guest))));
    const acks = await Promise.all(sent);
    expect(tally(acks)).toEqual({ ok: RELAY_EVENT_BUDGET.perAccount, [OVER_BUDGET]: 300 - RELAY_EVENT_BUDGET.perAccount });
    expect((await logCount(reservationId)) - before).toBe(RELAY_EVENT_BUDGET.perAccount);
  });

  it('counts every event, those the relay does not know too', async () => {
    const { guest } = await guestInJail();
    const device = await connect({ guest: credentials(guest) });
    for (let sent = 0; sent < RELAY_EVENT_BUDGET.perSocket; sent += 1) device.socket.emit('no_such_event', { junk: sent });
    expect(await device.send('check_alive_from_guest', { api: apiBlock(), guest: { id: guest.id }, jailStatus: 'injail' })).toEqual({
      ok: false,
      error: OVER_BUDGET,
    });
  });

  it("holds a warden's console to the same budget, refused in the warden's language", async () => {
    const [created] = await runAdmin(
      ['create-warden', '--title', 'Budget Warden', '--email', 'budget-warden@example.com'],
      server.app.db,
      server.clock,
      server.app.config,
    );
    const wardenId = Number(/^warden (\d+)/.exec(created ?? '')?.[1]);
    const token = await startWardenSession(server.app.db, wardenId, server.clock.now());
    const console = await connect({ warden: { token, language: 'ja' } });
    const acks = await Promise.all(Array.from({ length: 150 }, () => console.send('close_jail_from_warden', { reservationId: 1 })));
    expect(tally(acks)).toEqual({
      ok: RELAY_EVENT_BUDGET.perSocket,
      '短い時間に送られたイベントが多すぎます。数秒待ってから、もう一度お試しください。': 150 - RELAY_EVENT_BUDGET.perSocket,
    });
  });
});

import { count, eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { JAIL_LOG_PAGE, JAIL_MAX_LOGS } from '../../shared/constants.ts';
import type { ActivityLogEntry, LiveJail, RelayAck } from '../../shared/relay.ts';
import { runAdmin } from '../admin.ts';
import { activityLogs, jails } from '../db/schema/index.ts';
import { startWardenSession } from '../services/wardens.ts';
import { apiBlock, bookJail, credentials, moveClockTo, readyGuest, useListeningTestServer, type TestGuest } from '../test/harness.ts';
import { eventId, RelayClient } from '../test/relay-client.ts';
import { tally } from '../test/tally.ts';
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

let wardenCount = 0;

/** A console of a new warden. */
async function connectWarden(language: 'en' | 'ja' = 'en'): Promise<RelayClient> {
  wardenCount += 1;
  const email = `limits-warden-${wardenCount}@example.com`;
  const [created] = await runAdmin(
    ['create-warden', '--title', `Limits Warden ${wardenCount}`, '--email', email],
    server.app.db,
    server.clock,
    server.app.config,
  );
  const wardenId = Number(/^warden (\d+)/.exec(created ?? '')?.[1]);
  const token = await startWardenSession(server.app.db, wardenId, server.clock.now());
  return connect({ warden: { token, language } });
}

function snitch(guest: TestGuest, language: 'en' | 'ja' = 'en') {
  return { api: apiBlock(language), guest: { id: guest.id }, eventId: eventId(), dialog: { text: 'They are on their phone.' } };
}

/** How many acks each outcome had ('ok' or the refusal). */
function tallyAcks(acks: readonly RelayAck[]): Record<string, number> {
  return tally(acks.map((ack) => (ack.ok ? 'ok' : ack.error)));
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
    expect(tallyAcks(acks)).toEqual({ ok: RELAY_EVENT_BUDGET.perSocket, [OVER_BUDGET]: 300 - RELAY_EVENT_BUDGET.perSocket });
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
    expect(tallyAcks(acks)).toEqual({ ok: RELAY_EVENT_BUDGET.perAccount, [OVER_BUDGET]: 300 - RELAY_EVENT_BUDGET.perAccount });
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
    const console = await connectWarden('ja');
    const acks = await Promise.all(Array.from({ length: 150 }, () => console.send('close_jail_from_warden', { reservationId: 1 })));
    expect(tallyAcks(acks)).toEqual({
      ok: RELAY_EVENT_BUDGET.perSocket,
      '短い時間に送られたイベントが多すぎます。数秒待ってから、もう一度お試しください。': 150 - RELAY_EVENT_BUDGET.perSocket,
    });
  });
});

describe("a jail's logs", () => {
  const FULL = `This jail's log is full (${JAIL_MAX_LOGS} entries, the most a jail keeps): nothing more can be added to it.`;

  it("takes the guest's events up to the cap, counted at once, and refuses the rest; the server's own logs still go in", async () => {
    const { guest, reservationId } = await guestInJail();
    const device = await connect({ guest: credentials(guest) });
    const envelope = { api: apiBlock(), guest: { id: guest.id } };
    expect(await device.send('check_alive_from_guest', { ...envelope, jailStatus: 'injail' })).toEqual({ ok: true });
    const [before] = await server.app.db.select({ logCount: jails.logCount }).from(jails).where(eq(jails.reservationId, reservationId));
    expect(before?.logCount).toBe(await logCount(reservationId));
    // Two places left: five motion events at once.
    await server.app.db
      .update(jails)
      .set({ logCount: JAIL_MAX_LOGS - 2 })
      .where(eq(jails.reservationId, reservationId));
    const stored = await logCount(reservationId);
    const motions = Array.from({ length: 5 }, () => ({ ...envelope, eventId: eventId(), motion: { type: 1 } }));
    const acks = await Promise.all(motions.map((motion) => device.send('motion_event_from_guest', motion)));
    expect(tallyAcks(acks)).toEqual({ ok: 2, [FULL]: 3 });
    expect((await logCount(reservationId)) - stored).toBe(2);
    // A stored event sent again is still its retry; a status, which logs too, is refused.
    const storedMotion = motions[acks.findIndex((ack) => ack.ok)];
    expect(await device.send('motion_event_from_guest', storedMotion)).toEqual({ ok: true, duplicate: true });
    expect(await device.send('jail_status_from_guest', { ...envelope, eventId: eventId(), jailStatus: 'leaving' })).toEqual({ ok: false, error: FULL });
    // The early finish goes through, with the server's logs of it.
    const early = { ...envelope, eventId: eventId(), reservation: { id: reservationId }, instruction: { text: 'I have to go' } };
    expect(await device.send('jail_finish_early_from_guest', early)).toEqual({ ok: true });
    const [after] = await server.app.db.select({ logCount: jails.logCount, state: jails.state }).from(jails).where(eq(jails.reservationId, reservationId));
    expect(after?.state).toBe('finished');
    expect(after?.logCount).toBeGreaterThan(JAIL_MAX_LOGS);
  });

  it('gives the console the newest page on opening and earlier pages on demand, only of the jail it has open', async () => {
    const { reservationId } = await guestInJail();
    const start = server.clock.now();
    await server.app.db.insert(activityLogs).values(
      Array.from({ length: 2 * JAIL_LOG_PAGE + 50 }, (_, index) => {
        const time = start + index * 1_000;
        return { reservationId, time, entry: { type: 'dialog' as const, time, dialog: { type: 2 as const, text: `line ${index}` } } };
      }),
    );
    const every = await server.app.db
      .select({ id: activityLogs.id })
      .from(activityLogs)
      .where(eq(activityLogs.reservationId, reservationId))
      .orderBy(activityLogs.time, activityLogs.id);
    const console = await connectWarden();
    type Page = RelayAck & { logs: (ActivityLogEntry & { id: number })[]; hasEarlier: boolean; jail?: LiveJail };
    const ids = (page: Page) => page.logs.map((log) => log.id);
    const idsOf = (rows: typeof every) => rows.map((row) => row.id);

    expect(await console.send('jail_logs_from_warden', { reservationId, before: every[0]?.id ?? 1 })).toEqual({ ok: false, error: 'Open this jail first.' });
    const opened = await console.send<Page>('open_jail_from_warden', { reservationId });
    expect([ids(opened), opened.hasEarlier]).toEqual([idsOf(every.slice(-JAIL_LOG_PAGE)), true]);
    const second = await console.send<Page>('jail_logs_from_warden', { reservationId, before: ids(opened)[0] });
    expect([ids(second), second.hasEarlier]).toEqual([idsOf(every.slice(-2 * JAIL_LOG_PAGE, -JAIL_LOG_PAGE)), true]);
    const last = await console.send<Page>('jail_logs_from_warden', { reservationId, before: ids(second)[0] });
    expect([ids(last), last.hasEarlier]).toEqual([idsOf(every.slice(0, -2 * JAIL_LOG_PAGE)), false]);
    expect(await console.send('close_jail_from_warden', { reservationId })).toEqual({ ok: true });
    expect(await console.send('jail_logs_from_warden', { reservationId, before: ids(second)[0] })).toEqual({ ok: false, error: 'Open this jail first.' });
  });
});

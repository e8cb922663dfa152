import { afterAll, describe, expect, it } from 'vitest';
import type { Reservation } from '../../shared/api/reservation.ts';
import type { RelayAck } from '../../shared/relay.ts';
import { eventId, RelayClient } from '../test/relay-client.ts';
import { bookOver, freePort, killed, PASS_DATABASE, postApi, readyGuestOver, setClockOver, startServerProcess, waitUntilUp } from '../test/server-process.ts';
import { freshServerData } from '../test/server-data.ts';

/**
 * The jail survives its server: SIGKILL in the middle of a stream of
 * events, a restart on the same data (the pass's database), the device
 * sending again what it had sent; every acknowledged log is there exactly
 * once and the jail still finishes at its end time.
 */

const EVENTS = 100;

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe(`a server killed in the middle of a jail on ${PASS_DATABASE}`, () => {
  it('keeps every acknowledged log exactly once and finishes the jail on time', async () => {
    const env = await freshServerData(cleanups);
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    let server = startServerProcess(port, env);
    const clients: RelayClient[] = [];
    try {
      await waitUntilUp(port);
      const guest = await readyGuestOver(baseUrl);
      const jail = await bookOver(baseUrl, guest, 2);
      await setClockOver(baseUrl, jail.startTime + 60_000);

      const device = await RelayClient.connect(baseUrl, { guest });
      clients.push(device);
      const events = Array.from({ length: EVENTS }, () => ({
        api: { language: 'en' },
        guest: { id: guest.id },
        eventId: eventId(),
        motion: { type: 1 },
      }));
      // A stream of events, one every 10 ms, as a device catching up would send them; the kill comes once a fifth are acknowledged.
      const acknowledged = new Set<string>();
      const sent: Promise<void>[] = [];
      for (const event of events) {
        sent.push(
          device
            .send<RelayAck>('motion_event_from_guest', event, 5_000)
            .then((ack) => {
              if (ack.ok) acknowledged.add(event.eventId);
              if (acknowledged.size === EVENTS / 5) server.kill('SIGKILL');
            })
            .catch(() => undefined),
        );
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      await Promise.all(sent);
      expect(acknowledged.size).toBeGreaterThanOrEqual(EVENTS / 5);
      expect(acknowledged.size).toBeLessThan(EVENTS);
      device.close();

      // Back on the same data; the clock offset lives in memory, so it is set again.
      server = startServerProcess(port, env);
      await waitUntilUp(port);
      await setClockOver(baseUrl, jail.startTime + 2 * 60_000);
      const again = await RelayClient.connect(baseUrl, { guest });
      clients.push(again);
      for (const event of events) {
        const ack = await again.send<RelayAck>('motion_event_from_guest', event);
        // What was acknowledged before the kill is already there.
        if (acknowledged.has(event.eventId)) expect(ack, event.eventId).toEqual({ ok: true, duplicate: true });
        else expect(ack.ok).toBe(true);
      }

      const finished = again.next<{ reservationId: number; finish: string }>('jail_finish_to_guest');
      await setClockOver(baseUrl, jail.endTime + 1_000);
      expect(await finished).toEqual({ reservationId: jail.id, finish: 'ended' });
      const answer = await postApi(baseUrl, '/reservation/read', { guest, reservation: { id: jail.id } });
      const report = answer.reservation as Reservation;
      expect(report.status).toBe('finished');
      expect(report.activityLogs.filter((log) => log.type === 'motion')).toHaveLength(EVENTS);
    } finally {
      for (const client of clients) client.close();
      await killed(server);
    }
  }, 120_000);
});

import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { DAY_MS } from '../../shared/durations.ts';
import { runAdmin } from '../admin.ts';
import { wardenAudit } from '../db/schema/index.ts';
import { signedInWarden } from '../test/console.ts';
import { bookJail, credentials, moveClockTo, readyGuest, useListeningTestServer } from '../test/harness.ts';
import { RelayClient } from '../test/relay-client.ts';
import { purgeExpired } from './purge.ts';
import { WARDEN_AUDIT_RETENTION_DAYS } from './warden-audit.ts';

/**
 * The audit trail (docs/privacy.md): a warden's console opening a live jail
 * and starting its live video leaves a row each, written before the jail's
 * logs or the offer go out; the operator reads them with `npm run admin --
 * audit`, and the purge drops them after the retention the privacy page states.
 */

const server = useListeningTestServer();
const clients: RelayClient[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  await moveClockTo(server.app, Date.now());
});

async function connect(auth: Record<string, unknown>): Promise<RelayClient> {
  const client = await RelayClient.connect(server.url, auth);
  clients.push(client);
  return client;
}

function admin(...args: string[]): Promise<string[]> {
  return runAdmin(args, server.app.db, server.clock, server.app.config);
}

describe('the audit trail of wardens', () => {
  it('records every jail opened and every live video started, which the operator reads, until the retention ends', async () => {
    const guest = await readyGuest(server.app);
    const reservation = await bookJail(server.app, guest, 1);
    await moveClockTo(server.app, reservation.startTime + 1_000);
    const device = await connect({ guest: credentials(guest) });
    const warden = await signedInWarden(server, '10.32.0.1');
    const watching = await connect({ warden: { token: warden.token, language: 'en' } });
    const rows = () =>
      server.app.db
        .select({ action: wardenAudit.action, reservationId: wardenAudit.reservationId, guestId: wardenAudit.guestId, at: wardenAudit.at })
        .from(wardenAudit)
        .where(eq(wardenAudit.wardenId, warden.id))
        .orderBy(wardenAudit.id);

    // A jail that is not live shows nothing and records nothing.
    expect(await watching.send('open_jail_from_warden', { reservationId: reservation.id + 1_000 })).toMatchObject({ ok: false });
    expect(await rows()).toEqual([]);

    const openedAt = server.clock.now();
    expect(await watching.send('open_jail_from_warden', { reservationId: reservation.id })).toMatchObject({ ok: true });
    const offered = device.next<{ type: string }>('webrtc_handshake');
    const offer = { to: `guest:${guest.id}`, type: 'offer', description: { type: 'offer', sdp: 'v=0' } };
    expect(await watching.send('webrtc_handshake', offer)).toEqual({ ok: true });
    expect((await offered).type).toBe('offer');
    // The rest of the call's signalling is no new video.
    expect(await watching.send('webrtc_handshake', { to: `guest:${guest.id}`, type: 'hangup' })).toEqual({ ok: true });

    const recorded = await rows();
    expect(recorded.map(({ action, reservationId, guestId }) => ({ action, reservationId, guestId }))).toEqual([
      { action: 'jail_opened', reservationId: reservation.id, guestId: guest.id },
      { action: 'live_video_started', reservationId: reservation.id, guestId: guest.id },
    ]);
    for (const row of recorded) expect(row.at - openedAt).toBeLessThan(60_000);

    // The operator's view: newest first, by warden or by guest, within the days asked.
    const byWarden = await admin('audit', '--warden', warden.email);
    expect(byWarden).toEqual([
      expect.stringMatching(
        new RegExp(`\\twarden ${warden.id} ${warden.title} <${warden.email}>\\tstarted live video\\treservation ${reservation.id}\\tguest ${guest.id}$`),
      ),
      expect.stringMatching(new RegExp(`^\\d{4}-\\d\\d-\\d\\dT.*\\topened the jail\\treservation ${reservation.id}\\tguest ${guest.id}$`)),
    ]);
    expect(await admin('audit', '--guest', String(guest.id))).toEqual(byWarden);
    expect(await admin('audit', '--guest', String(guest.id), '--days', '1')).toEqual(byWarden);
    await expect(admin('audit', '--days', String(WARDEN_AUDIT_RETENTION_DAYS + 1))).rejects.toThrow('--days is not valid');
    await expect(admin('audit', '--warden', 'nobody@example.com')).rejects.toThrow('no warden has the address nobody@example.com');

    // Kept through the retention, then purged.
    const earliest = Math.min(...recorded.map((row) => row.at));
    const latest = Math.max(...recorded.map((row) => row.at));
    await purgeExpired(server.app.db, earliest + WARDEN_AUDIT_RETENTION_DAYS * DAY_MS - 1);
    expect(await rows()).toHaveLength(2);
    await purgeExpired(server.app.db, latest + WARDEN_AUDIT_RETENTION_DAYS * DAY_MS);
    expect(await rows()).toEqual([]);
    expect(await admin('audit', '--warden', warden.email)).toEqual(['no entries']);
  });
});

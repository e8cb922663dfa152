import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Reservation } from '../../shared/api/reservation.ts';
import { guests, jails, type JailRow } from '../db/schema/index.ts';
import { apiBlock, credentials, signUp, succeed, useTestServer, verifyEmail, type TestGuest } from '../test/harness.ts';
import { JailChanges, type AfterCommit } from './jail-changes.ts';
import { Penalties } from './penalties.ts';

/**
 * The penalties alone, on a real database: when alerts force a jail's end
 * (more than 3 within 20 minutes), and the early finish block (until the
 * jail's planned end, never shortened). The whole jails of jail.test.ts show
 * them through the relay, with lazy alerts and suspensions.
 */

const MINUTE = 60_000;
const server = useTestServer();

function penalties(): Penalties {
  const { app } = server;
  return new Penalties(
    new JailChanges({
      db: app.db,
      prepareNamed: app.prepareNamed,
      clock: server.clock,
      outbox: app.outbox,
      config: app.config,
      log: app.log,
      invalidateGuest: async () => {},
    }),
  );
}

/** A guest in a live try-anyway jail (started by a scheduler tick), and its row. */
async function guestInJail(duration = 1): Promise<{ guest: TestGuest; jail: JailRow }> {
  const guest = await signUp(server.app);
  await verifyEmail(server.app, guest);
  const answer = await succeed(server.app, '/reservation/try', {
    api: apiBlock(),
    guest: credentials(guest),
    reservation: { work: 'Sort the mail', duration },
  });
  await server.app.jailScheduler.tick();
  const [jail] = await server.app.db
    .select()
    .from(jails)
    .where(eq(jails.reservationId, (answer.reservation as Reservation).id));
  if (jail === undefined) throw new Error('the jail did not start');
  return { guest, jail };
}

describe('penalties', () => {
  it('forces the end at the fourth alert within 20 minutes, counting only those of the window', async () => {
    const { jail } = await guestInJail();
    const rules = penalties();
    const record = () => server.app.db.transaction((tx) => rules.recordAlert(tx, jail, 'no_motion'));
    const start = server.clock.offsetMs;
    try {
      expect(await record()).toEqual({ alertsInWindow: 1, forcesEnd: false });
      expect(await record()).toEqual({ alertsInWindow: 2, forcesEnd: false });
      server.clock.offsetMs += 21 * MINUTE;
      // The first two fell out of the window.
      expect(await record()).toEqual({ alertsInWindow: 1, forcesEnd: false });
      expect(await record()).toEqual({ alertsInWindow: 2, forcesEnd: false });
      expect(await record()).toEqual({ alertsInWindow: 3, forcesEnd: false });
      expect(await record()).toEqual({ alertsInWindow: 4, forcesEnd: true });
    } finally {
      server.clock.offsetMs = start;
    }
  });

  it('blocks booking until the planned end of a jail finished early, and never shortens a longer block', async () => {
    const { guest, jail } = await guestInJail();
    const rules = penalties();
    const finishEarly = (row: JailRow) =>
      server.app.db.transaction(async (tx) => {
        const [guestRow] = await tx.select().from(guests).where(eq(guests.id, guest.id));
        if (guestRow === undefined) throw new Error('the guest is gone');
        const after: AfterCommit = [];
        await rules.ofFinish(tx, after, row, guestRow, 'Sort the mail', 'early');
        expect(after).toEqual([]);
      });
    const blockOf = async () => (await server.app.db.select({ until: guests.earlyFinishBlockUntil }).from(guests).where(eq(guests.id, guest.id)))[0]?.until;

    await finishEarly(jail);
    expect(await blockOf()).toBe(jail.endTime);
    await finishEarly({ ...jail, endTime: jail.endTime - 30 * MINUTE });
    expect(await blockOf()).toBe(jail.endTime);
    await finishEarly({ ...jail, endTime: jail.endTime + 30 * MINUTE });
    expect(await blockOf()).toBe(jail.endTime + 30 * MINUTE);
  });
});

import { describe, expect, it } from 'vitest';
import { message } from '../../../shared/messages.ts';
import { getTableName, is } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import * as schema from '../../db/schema/index.ts';
import { wardens } from '../../db/schema/index.ts';
import { approvedScenePath, patrolImagePath } from '../../services/data-export.ts';
import { startSession } from '../../services/guests.ts';
import { fillAccount } from '../../test/full-account.ts';
import { insertPastJails } from '../../test/jail-history.ts';
import { unzip } from '../../test/unzip.ts';
import { apiBlock, credentials, fail, signUp, useTestServer, type TestGuest } from '../../test/harness.ts';

const server = useTestServer();
const DAY = 86_400_000;

async function exportOf(guest: TestGuest, token = guest.token) {
  const response = await server.app.inject({ method: 'POST', url: '/api/guest/export', payload: { api: apiBlock(), guest: { id: guest.id, token } } });
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toBe('application/zip');
  return { response, files: await unzip(response.rawPayload) };
}

interface ExportedJson {
  format: string;
  version: number;
  account: { email: string; phone: string | null; subscription: { card: { brand: string; last4: string } | null } };
  sessions: { openedByFacilitator: boolean }[];
  reservations: {
    id: number;
    work: string;
    jail: { finish: string } | null;
    alerts: { kind: string }[];
    activityLogs: { type: string; patrol?: { image: string } }[];
  }[];
  lazyAlerts: unknown[];
  approvedScenes: { image: string }[];
  payments: { providerPaymentId: string; amountYen: number }[];
  forumPosts: { text: string }[];
  errorLogs: { text: string }[];
  collaboration: { webhook: { enabled: boolean }; trigger: { url: string | null } };
  triggerDeliveries: { status: string }[];
  reminders: { byEmail: boolean; devices: { label: string; pushService: string }[] };
  calendarFeed: { on: boolean };
  remindersSent: { to: string; outcome: string | null }[];
  facilitatorLinks: { createdAt: string; usedAt: string | null }[];
  pauses: { from: string; resumes: string }[];
}

/**
 * Where each table's rows of the guest are in warden.json. A table added to
 * the schema fails the test below until it is placed here or in NOT_EXPORTED.
 */
const EXPORTED: Record<string, keyof ExportedJson> = {
  guests: 'account',
  sessions: 'sessions',
  reservations: 'reservations',
  jails: 'reservations',
  jail_alerts: 'reservations',
  activity_logs: 'reservations',
  lazy_alerts: 'lazyAlerts',
  pauses: 'pauses',
  feature_images: 'approvedScenes',
  payments: 'payments',
  forum_messages: 'forumPosts',
  error_logs: 'errorLogs',
  trigger_deliveries: 'triggerDeliveries',
  push_devices: 'reminders',
  reminders_sent: 'remindersSent',
  facilitator_tokens: 'facilitatorLinks',
};

/** Tables left out, and why. */
const NOT_EXPORTED: Record<string, string> = {
  email_tokens: 'a mailed link’s secret, deleted once used or expired',
  phone_codes: 'an SMS code’s secret, deleted within a day of expiring',
  local_cards: 'the local payment stand-in’s cards; the account holds the brand and last four',
  payment_events: 'Stripe’s event ids, no guest in them',
  rate_limit_buckets: 'counters of calls, gone within the hour',
  server_keys: 'the server’s own keys',
  wardens: 'the wardens’ accounts',
  warden_sessions: 'the wardens’ sessions',
  deleted_account_contacts: 'what is kept of accounts that no longer exist',
  verified_contacts: 'hashes of the addresses and phone numbers the guest verified, which tell the guest nothing',
  warden_audit: 'the operator’s audit of the wardens’ work (which warden opened a jail or watched it live), kept for the operator',
  warden_sign_ins: 'the wardens’ sign-ins waiting for their second factor',
};

describe('POST /api/guest/export', () => {
  it('holds every kind of the guest’s data, the kept images as files, and no secret', async () => {
    const guest = await signUp(server.app);
    const other = await signUp(server.app);
    const now = server.clock.now();
    const mine = await fillAccount(server.app.db, guest.id, now);
    const theirs = await fillAccount(server.app.db, other.id, now);

    const { response, files } = await exportOf(guest);
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="warden-\d{4}-\d{2}-\d{2}\.zip"$/);
    expect(response.headers['cache-control']).toBe('no-store');
    expect([...files.keys()].sort()).toEqual([approvedScenePath(mine.scene.id), patrolImagePath(mine.patrol.logId), 'warden.json'].sort());
    expect(files.get(patrolImagePath(mine.patrol.logId))).toEqual(mine.patrol.bytes);
    expect(files.get(approvedScenePath(mine.scene.id))).toEqual(mine.scene.bytes);

    const text = files.get('warden.json')?.toString('utf8') ?? '';
    const data = JSON.parse(text) as ExportedJson;
    expect(data).toMatchObject({ format: 'warden-export', version: 1 });
    expect(data.account.email).toBe(guest.email);
    expect(data.account.phone).toMatch(/^\+8190/);
    expect(data.account.subscription.card).toEqual({ brand: 'visa', last4: '4242' });
    expect(data.sessions.map((session) => session.openedByFacilitator).sort()).toEqual([false, true]);
    expect(data.reservations.map((reservation) => reservation.id)).toEqual(mine.reservationIds);
    const [held, ignored] = data.reservations;
    expect(held?.jail?.finish).toBe('ended');
    expect(ignored?.jail?.finish).toBe('ignored');
    expect(held?.alerts).toEqual([{ kind: 'no_motion', time: expect.any(String) }]);
    expect(held?.activityLogs.map((log) => log.type)).toEqual(['patrol', 'dialog']);
    expect(held?.activityLogs[0]?.patrol).toEqual({ image: `patrols/${mine.patrol.logId}.jpg` });
    expect(data.lazyAlerts).toHaveLength(1);
    expect(data.pauses).toEqual([{ from: expect.any(String), resumes: expect.any(String), createdAt: expect.any(String) }]);
    expect(data.approvedScenes).toEqual([expect.objectContaining({ image: `approved-scenes/${mine.scene.id}.jpg` })]);
    expect(data.payments).toEqual([expect.objectContaining({ providerPaymentId: `pay_${mine.marker}`, amountYen: 7500 })]);
    expect(data.forumPosts.map((post) => post.text)).toEqual([`Hello from ${mine.marker}`]);
    expect(data.errorLogs.map((log) => log.text)).toEqual([`TypeError near ${mine.marker}`]);
    expect(data.collaboration).toMatchObject({ webhook: { enabled: true }, trigger: { url: `https://hooks.example.com/${mine.marker}` } });
    expect(data.triggerDeliveries.map((delivery) => delivery.status)).toEqual(['delivered']);
    expect(data.reminders).toEqual({
      leadMinutes: 15,
      byEmail: true,
      devices: [{ label: 'Chrome on Android', pushService: 'fcm.googleapis.com', addedAt: expect.any(String) }],
    });
    expect(data.calendarFeed).toEqual({ on: true });
    expect(data.remindersSent).toEqual([expect.objectContaining({ to: 'device', outcome: 'sent' })]);
    expect(data.facilitatorLinks).toEqual([{ createdAt: expect.any(String), expiresAt: expect.any(String), usedAt: null }]);
    // Every table is either exported (and this guest's section of it has rows) or left out for a reason.
    const tables = (Object.values(schema) as unknown[]).flatMap((value) => (is(value, PgTable) ? [getTableName(value)] : []));
    expect([...Object.keys(EXPORTED), ...Object.keys(NOT_EXPORTED)].sort()).toEqual(tables.sort());
    for (const [table, section] of Object.entries(EXPORTED)) {
      const held: unknown = data[section];
      expect(Array.isArray(held) ? held.length : Object.keys(held ?? {}).length, `${table} in ${section}`).toBeGreaterThan(0);
    }

    // Nothing of another guest's, and no secret: not the password hash, token hashes, keys or the push address.
    const archiveText = [...files.values()].map((file) => file.toString('latin1')).join('\n');
    expect(archiveText).not.toContain(theirs.marker);
    for (const secret of mine.secrets) expect(text).not.toContain(secret);
    expect(text).not.toContain(guest.token);
    expect(text).not.toContain('data:image');
  });

  it('reads a long history a page at a time, all of it in order', async () => {
    const guest = await signUp(server.app);
    const now = server.clock.now();
    const ids = await insertPastJails(
      server.app.db,
      guest.id,
      '+09:00',
      Array.from({ length: 47 }, (_, index) => ({ startTime: now - (100 - index) * DAY, durationMinutes: 60, finish: 'ended' as const, focusedMs: 60_000 })),
    );
    const { response, files } = await exportOf(guest);
    // Sent as it is written: no length known in advance.
    expect(response.headers['content-length']).toBeUndefined();
    const data = JSON.parse(files.get('warden.json')?.toString('utf8') ?? '') as ExportedJson;
    expect(data.reservations.map((reservation) => reservation.id)).toEqual(ids);
  });

  it('is refused to a facilitator’s session and to a session that ended', async () => {
    const guest = await signUp(server.app);
    const now = server.clock.now();
    const [warden] = await server.app.db
      .insert(wardens)
      .values({ title: `facilitator-${guest.id}`, email: `facilitator-${guest.id}@example.com`, passwordHash: 'not-a-real-hash', createdAt: now })
      .returning({ id: wardens.id });
    const facilitatorToken = await startSession(server.app.db, guest.id, now, warden?.id ?? null);
    expect(await fail(server.app, '/guest/export', { api: apiBlock(), guest: { id: guest.id, token: facilitatorToken } })).toBe(
      message('en', 'facilitator_not_allowed'),
    );
    expect(await fail(server.app, '/guest/export', { api: apiBlock(), guest: { ...credentials(guest), token: 'not-a-session' } })).toBe(
      message('en', 'authentication_failed'),
    );
  });
});

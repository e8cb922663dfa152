import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Reminders } from '../../../shared/api/reminders.ts';
import type { Reservation } from '../../../shared/api/reservation.ts';
import type { Language } from '../../../shared/constants.ts';
import { guests, pushDevices, remindersSent } from '../../db/schema/index.ts';
import { vapidKeys } from '../../services/reminders/keys.ts';
import { LocalPushService, type ReceivedPush, type TestBrowser, vapidClaims } from '../../test/push-service.ts';
import { apiBlock, credentials, fail, lastMessageTo, outbox, readyGuest, signIn, succeed, useTestServer, type TestGuest } from '../../test/harness.ts';

// The local push service listens on loopback, which only this allowance lets the server call (and over http).
// Stubbed for this file alone: the files of a worker share its process (vite.config.ts, isolate).
vi.stubEnv('PUSH_ALLOW_HOSTS', '127.0.0.1');
afterAll(() => vi.unstubAllEnvs());
const APP_URL = 'https://warden.example';
const server = useTestServer({ publicUrl: APP_URL });

/** An instant `days` after Monday 7 January 2030 at `hour`:`minute` in Tokyo (the test guests' zone). */
function tokyo(days: number, hour: number, minute = 0): number {
  return Date.UTC(2030, 0, 7 + days, hour - 9, minute);
}

const pushService = new LocalPushService();
beforeAll(() => pushService.listen());
afterAll(() => pushService.close());

beforeEach(async () => {
  pushService.reset();
  await setNow(tokyo(0, 9));
});

async function setNow(instant: number): Promise<void> {
  const response = await server.app.inject({ method: 'POST', url: '/dev/clock', payload: { offsetMs: Math.round(instant - Date.now()) } });
  expect(response.statusCode).toBe(200);
}

function body(guest: TestGuest, fields: Record<string, unknown> = {}, language: Language = 'en') {
  return { api: apiBlock(language), guest: credentials(guest), ...fields };
}

async function turnOn(guest: TestGuest, browser: TestBrowser, label = 'Chrome on Android'): Promise<Reminders> {
  return (await succeed(server.app, '/guest/addPushDevice', body(guest, { device: browser.subscription(label) }))).reminders as Reminders;
}

async function book(guest: TestGuest, startTime: number, extra: Record<string, unknown> = {}): Promise<Reservation> {
  const reservation = {
    work: 'Write the chapter',
    duration: 1,
    startTime,
    repeatType: 'none',
    dailyRepeatSettings: [0, 1, 2, 3, 4, 5, 6],
    schedules: [],
    ...extra,
  };
  return (await succeed(server.app, '/reservation/create', body(guest, { reservation }))).reservation as Reservation;
}

describe('reminders by Web Push', () => {
  it('reach each browser once, when the jail opens, encrypted to it and signed by the server', async () => {
    const guest = await readyGuest(server.app);
    const phone = pushService.newBrowser();
    const laptop = pushService.newBrowser();
    await turnOn(guest, phone);
    const settings = await turnOn(guest, laptop, 'Firefox on Windows');
    expect(settings).toMatchObject({ leadMinutes: 15, byEmail: false });
    expect(settings.devices.map((device) => device.label)).toEqual(['Chrome on Android', 'Firefox on Windows']);
    const jail = await book(guest, tokyo(1, 10));

    await setNow(tokyo(1, 9, 44));
    expect(pushService.received).toHaveLength(0);
    await setNow(tokyo(1, 9, 45));
    expect(phone.messages(pushService)).toHaveLength(1);
    expect(laptop.messages(pushService)).toHaveLength(1);
    const [toPhone] = phone.messages(pushService);
    if (toPhone === undefined) throw new Error('no push to the phone');
    expect(phone.open(toPhone)).toEqual({
      title: 'Jail at 10:00: Write the chapter',
      body: 'You can enter it now. Tap to get ready.',
      tag: `jail-${jail.id}-${jail.startTime}`,
      prepUrl: `${APP_URL}/jail/prep/${jail.id}`,
      detailUrl: `${APP_URL}/reservation/${jail.id}`,
      entryOpensAt: tokyo(1, 9, 45),
    });
    expect(toPhone.headers).toMatchObject({ 'content-encoding': 'aes128gcm', ttl: '3600', urgency: 'high' });
    const claims = vapidClaims(toPhone, settings.publicKey);
    expect(claims?.aud).toBe(pushService.url);
    expect(claims?.sub).toMatch(/^mailto:/);
    // Another pass before the start sends nothing more; nor does the start.
    await setNow(tokyo(1, 9, 50));
    await setNow(tokyo(1, 10, 1));
    expect(pushService.received).toHaveLength(2);
  });

  it('goes out at the lead the guest chose, in their language, once for each occurrence of a repeat, never for a skipped one', async () => {
    const guest = await readyGuest(server.app);
    const browser = pushService.newBrowser();
    await turnOn(guest, browser);
    await succeed(server.app, '/guest/updateReminders', body(guest, { reminders: { leadMinutes: 60, byEmail: false } }));
    await server.app.db.update(guests).set({ language: 'ja' }).where(eq(guests.id, guest.id));
    await server.app.invalidateReadCache(guest.id);
    const weekly = await book(guest, tokyo(1, 10), { repeatType: 'weekly', work: '' });

    await setNow(tokyo(1, 8, 59));
    expect(pushService.received).toHaveLength(0);
    await setNow(tokyo(1, 9));
    expect(pushService.received).toHaveLength(1);
    expect(browser.open(pushService.received[0] as ReceivedPush)).toMatchObject({
      title: '10:00からのジェイル',
      body: 'あと60分で始まります。09:45から入室できます。',
    });

    // The next Tuesday is skipped: no reminder; the one after gets its own.
    await setNow(tokyo(1, 12));
    const signedIn = await signIn(server.app, guest);
    const list = (await succeed(server.app, '/reservation/read_list', body(signedIn))).reservations as Reservation[];
    const next = list.find((reservation) => reservation.startTime === tokyo(8, 10));
    if (next === undefined) throw new Error('no next occurrence');
    expect(weekly.id).not.toBe(next.id);
    await succeed(server.app, '/reservation/skip', body(signedIn, { reservation: { id: next.id } }));
    await setNow(tokyo(8, 9, 30));
    expect(pushService.received).toHaveLength(1);
    await setNow(tokyo(15, 9));
    expect(pushService.received).toHaveLength(2);
    expect(browser.open(pushService.received[1] as ReceivedPush).tag).toMatch(new RegExp(`-${tokyo(15, 10)}$`));
  });

  it('sends nothing when reminders are off, for a cancelled jail, or one booked inside its lead', async () => {
    const guest = await readyGuest(server.app);
    await turnOn(guest, pushService.newBrowser());
    const cancelled = await book(guest, tokyo(1, 10));
    await succeed(server.app, '/reservation/destroy', body(guest, { reservation: { id: cancelled.id } }));
    await setNow(tokyo(1, 9, 50));
    // Booked ten minutes before its start: the guest needs no reminder of what they just did.
    await book(guest, tokyo(1, 10, 0));
    await setNow(tokyo(1, 9, 55));
    expect(pushService.received).toHaveLength(0);

    await succeed(server.app, '/guest/updateReminders', body(guest, { reminders: { leadMinutes: null, byEmail: true } }));
    await book(guest, tokyo(2, 10));
    await setNow(tokyo(2, 9, 46));
    expect(pushService.received).toHaveLength(0);
    expect((await outbox(server.app)).filter((mail) => mail.to === guest.email && mail.subject.includes('your jail at'))).toHaveLength(0);
  });

  it('drops a browser whose push service answers 404 or 410, and keeps one that failed otherwise', async () => {
    const guest = await readyGuest(server.app);
    const gone = pushService.newBrowser();
    const flaky = pushService.newBrowser();
    await turnOn(guest, gone, 'Gone');
    await turnOn(guest, flaky, 'Flaky');
    await book(guest, tokyo(1, 10));
    pushService.statuses.push(410, 500);
    await setNow(tokyo(1, 9, 45));
    expect(pushService.received).toHaveLength(2);
    const reminders = (await succeed(server.app, '/guest/readReminders', body(guest))).reminders as Reminders;
    // Which of the two got which answer depends on their order: one is gone, the other kept.
    expect(reminders.devices).toHaveLength(1);
    const outcomes = await server.app.db
      .select({ outcome: remindersSent.outcome })
      .from(remindersSent)
      .innerJoin(pushDevices, eq(pushDevices.guestId, guest.id));
    expect(outcomes.map((row) => row.outcome)).toContain('failed');
  });

  it('never sends twice: an occurrence already claimed (a server killed between the claim and the send) stays unsent', async () => {
    const guest = await readyGuest(server.app);
    await turnOn(guest, pushService.newBrowser());
    const jail = await book(guest, tokyo(1, 10));
    const [device] = await server.app.db.select().from(pushDevices).where(eq(pushDevices.guestId, guest.id));
    await server.app.db
      .insert(remindersSent)
      .values({ reservationId: jail.id, startTime: jail.startTime, target: `push:${device?.id}`, claimedAt: tokyo(1, 9, 45) });
    await setNow(tokyo(1, 9, 46));
    expect(pushService.received).toHaveLength(0);
    const [claim] = await server.app.db
      .select()
      .from(remindersSent)
      .where(and(eq(remindersSent.reservationId, jail.id), eq(remindersSent.startTime, jail.startTime)));
    expect(claim?.outcome).toBeNull();
  });

  it('falls back to e-mail for a guest with no browser who chose it, in their language', async () => {
    const guest = await readyGuest(server.app);
    await succeed(server.app, '/guest/updateReminders', body(guest, { reminders: { leadMinutes: 30, byEmail: true } }));
    const jail = await book(guest, tokyo(1, 10));
    await setNow(tokyo(1, 9, 30));
    const mail = await lastMessageTo(server.app, guest.email);
    expect(mail.subject).toBe('Warden: your jail at 10:00');
    expect(mail.text).toContain('Your jail "Write the chapter" starts at');
    expect(mail.text).toContain('You can enter it from 09:45');
    expect(mail.text).toContain(`${APP_URL}/reservation/${jail.id}`);
    expect(mail.text).toContain(`${APP_URL}/reminders`);
    expect(pushService.received).toHaveLength(0);
  });

  it('keeps the key pair it made: every later start, and every server on the database, signs with it', async () => {
    const guest = await readyGuest(server.app);
    const { publicKey } = (await succeed(server.app, '/guest/readReminders', body(guest))).reminders as Reminders;
    expect(publicKey).toMatch(/^[A-Za-z0-9_-]{87}$/);
    expect((await vapidKeys(server.app.db, null)).publicKey).toBe(publicKey);
    const configured = { publicKey: 'p', privateKey: 'q' };
    expect(await vapidKeys(server.app.db, configured)).toBe(configured);
  });

  it('another guest’s device cannot be removed', async () => {
    const guest = await readyGuest(server.app);
    const other = await readyGuest(server.app);
    const settings = await turnOn(other, pushService.newBrowser());
    const id = settings.devices[0]?.id;
    await succeed(server.app, '/guest/removePushDevice', body(guest, { device: { id } }));
    expect(((await succeed(server.app, '/guest/readReminders', body(other))).reminders as Reminders).devices).toHaveLength(1);
    await succeed(server.app, '/guest/removePushDevice', body(other, { device: { id } }));
    expect(((await succeed(server.app, '/guest/readReminders', body(other))).reminders as Reminders).devices).toHaveLength(0);
  });
});

/** A subscription at `endpoint` with made-up keys, as `/guest/addPushDevice` takes it. */
function subscriptionAt(endpoint: string, keys = { p256dh: 'BAAA', auth: 'AAAA' }) {
  return { endpoint, keys, label: 'Test' };
}

async function devicesOf(guest: TestGuest): Promise<Reminders['devices']> {
  return ((await succeed(server.app, '/guest/readReminders', body(guest))).reminders as Reminders).devices;
}

describe('push addresses', () => {
  const refusedAddress = 'This browser cannot take reminders from Warden: its push address is not at the push service of Google, Mozilla, Microsoft or Apple.';

  it('are taken only at the push services’ own hosts, over https on port 443', async () => {
    const guest = await readyGuest(server.app);
    const accepted = [
      'https://fcm.googleapis.com/fcm/send/abc',
      'https://android.googleapis.com/gcm/send/abc',
      'https://updates.push.services.mozilla.com/wpush/v2/abc',
      'https://wns2-par02p.notify.windows.com/w/?token=abc',
      'https://web.push.apple.com/abc',
      'https://fcm.googleapis.com:443/fcm/send/def',
    ];
    for (const endpoint of accepted) await succeed(server.app, '/guest/addPushDevice', body(guest, { device: subscriptionAt(endpoint) }));
    expect((await devicesOf(guest)).map((device) => device.endpoint)).toEqual(accepted);

    const other = await readyGuest(server.app);
    const refused = [
      'https://push.example.com/x',
      'https://fcm.googleapis.com:22/x',
      'http://fcm.googleapis.com/x',
      'https://fcm.googleapis.com.evil.example/x',
      'https://evilfcm.googleapis.com/x',
      'https://push.apple.com.evil.example/x',
      'https://evilpush.apple.com/x',
      'https://user:secret@fcm.googleapis.com/x',
      'https://127.0.0.2/x',
      'https://10.0.0.1/push',
      'https://[::1]/push',
    ];
    for (const endpoint of refused) {
      expect(await fail(server.app, '/guest/addPushDevice', body(other, { device: subscriptionAt(endpoint) })), endpoint).toBe(refusedAddress);
    }
    expect(await devicesOf(other)).toEqual([]);
  });

  it('at most 10 browsers a guest: the 11th is refused until one is removed, and one already there may be added again', async () => {
    const guest = await readyGuest(server.app);
    const endpoints = Array.from({ length: 11 }, (_, index) => `https://fcm.googleapis.com/fcm/send/device-${index}`);
    for (const endpoint of endpoints.slice(0, 10)) await succeed(server.app, '/guest/addPushDevice', body(guest, { device: subscriptionAt(endpoint) }));
    await succeed(server.app, '/guest/addPushDevice', body(guest, { device: subscriptionAt(endpoints[0] ?? '') }));
    const eleventh = { device: subscriptionAt(endpoints[10] ?? '') };
    expect(await fail(server.app, '/guest/addPushDevice', body(guest, eleventh))).toBe(
      'Reminders are on in 10 browsers, the most Warden keeps. Remove one from the list of devices, then try again.',
    );
    expect(await fail(server.app, '/guest/addPushDevice', body(guest, eleventh, 'ja'))).toBe(
      'リマインダーを受け取れるブラウザは10台までです。デバイスの一覧からどれかを削除してから、もう一度お試しください。',
    );
    const devices = await devicesOf(guest);
    expect(devices).toHaveLength(10);
    await succeed(server.app, '/guest/removePushDevice', body(guest, { device: { id: devices[3]?.id } }));
    await succeed(server.app, '/guest/addPushDevice', body(guest, eleventh));
    expect(await devicesOf(guest)).toHaveLength(10);
  });

  it('counts the limit before storing: 15 browsers added at once leave 10', async () => {
    const guest = await readyGuest(server.app);
    const answers = await Promise.all(
      Array.from({ length: 15 }, (_, index) =>
        server.app.inject({
          method: 'POST',
          url: '/api/guest/addPushDevice',
          payload: body(guest, { device: subscriptionAt(`https://fcm.googleapis.com/fcm/send/parallel-${index}`) }),
        }),
      ),
    );
    expect(answers.filter((answer) => answer.json<{ api: { status: string } }>().api.status === 'success')).toHaveLength(10);
    expect(await devicesOf(guest)).toHaveLength(10);
  });

  it('adding is limited: 20 adds an hour a guest, refused or not', async () => {
    const guest = await readyGuest(server.app);
    for (let index = 0; index < 20; index += 1) {
      await server.app.inject({
        method: 'POST',
        url: '/api/guest/addPushDevice',
        payload: body(guest, { device: subscriptionAt(`https://fcm.googleapis.com/fcm/send/many-${index}`) }),
      });
    }
    const next = body(guest, { device: subscriptionAt('https://push.example.com/x') });
    expect(await fail(server.app, '/guest/addPushDevice', next)).toBe('Too many attempts. Please wait a few minutes and try again.');
    // The window is an hour from the first add.
    await setNow(tokyo(0, 10, 1));
    expect(await fail(server.app, '/guest/addPushDevice', next)).toBe(refusedAddress);
  });

  it('a browser another guest has moves only with the keys kept for it', async () => {
    const owner = await readyGuest(server.app);
    const other = await readyGuest(server.app);
    const browser = pushService.newBrowser();
    await turnOn(owner, browser);
    const { endpoint, keys } = browser.subscription('Chrome on Android');
    for (const guessed of [
      { p256dh: 'BAAA', auth: 'AAAA' },
      { p256dh: keys.p256dh, auth: 'AAAA' },
      { p256dh: 'BAAA', auth: keys.auth },
    ]) {
      expect(await fail(server.app, '/guest/addPushDevice', body(other, { device: subscriptionAt(endpoint, guessed) }))).toBe(
        'This push address belongs to another account, and this browser did not prove it is the same browser. Turn reminders off in that account, then try again.',
      );
    }
    expect((await devicesOf(owner)).map((device) => device.endpoint)).toEqual([endpoint]);
    expect(await devicesOf(other)).toEqual([]);

    // The same browser signed in to another account gives the same keys: the device moves.
    await turnOn(other, browser, 'Shared laptop');
    expect(await devicesOf(owner)).toEqual([]);
    expect((await devicesOf(other)).map((device) => device.label)).toEqual(['Shared laptop']);
  });

  it('a reminder goes only to the newest 10 browsers, never to an address kept from before the push services were checked', async () => {
    const guest = await readyGuest(server.app);
    const browsers = Array.from({ length: 12 }, () => pushService.newBrowser());
    // Kept before the limit and the hosts were checked: written straight into the table.
    await server.app.db.insert(pushDevices).values([
      ...browsers.map((browser, index) => {
        const { endpoint, keys } = browser.subscription('Old');
        return { guestId: guest.id, endpoint, p256dh: keys.p256dh, auth: keys.auth, label: `Old ${index}`, createdAt: tokyo(0, 8, index) };
      }),
      { guestId: guest.id, endpoint: 'https://push.example.com/old', p256dh: 'BAAA', auth: 'AAAA', label: 'Elsewhere', createdAt: tokyo(0, 8, 30) },
    ]);
    await book(guest, tokyo(1, 10));
    await setNow(tokyo(1, 9, 45));
    expect(pushService.received).toHaveLength(9);
    expect(browsers.slice(3).every((browser) => browser.messages(pushService).length === 1)).toBe(true);
    expect((await devicesOf(guest)).map((device) => device.label)).not.toContain('Elsewhere');
  });
});

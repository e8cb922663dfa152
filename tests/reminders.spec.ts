/**
 * Reminders before a jail (docs/reminders.md) against the built client, its
 * service worker and the real server. Chromium reaches a real push service
 * only over the internet, so the page's Push API answers with a subscription
 * at a local push service in this process (`LocalPushService`, which the
 * server may call because playwright.config.ts sets PUSH_ALLOW_HOSTS); the
 * server's message is then decrypted here as the browser would, and handed
 * to the service worker as a push event to show its notification.
 */
import { expect, type Page, test } from '@playwright/test';
import type { ReminderPayload } from '../src/shared/api/reminders.ts';
import { LocalPushService, type TestBrowser } from '../src/server/test/push-service.ts';
import { chromiumWithCamera } from './chromium.ts';
import { setClockOffset } from './guest-device.ts';
import { book, call, checkA11y, readyGuest, signedIn, VIEWPORTS, watchMissingTexts } from './helpers.ts';

// The full browser, not the headless shell the other specs use (tests/chromium.ts): the shell
// answers every page that notifications are denied, even when the context grants them.
test.use({ launchOptions: chromiumWithCamera() });

const pushService = new LocalPushService();
test.beforeAll(() => pushService.listen());
test.afterAll(() => pushService.close());
test.afterEach(async ({ request }) => {
  await setClockOffset(request, 0);
});

/** Makes the page's Push API subscribe at the local push service as `browser` (the keys are the test's, so it can decrypt). */
async function useLocalPushService(page: Page, browser: TestBrowser): Promise<void> {
  const subscription = browser.subscription('');
  await page.addInitScript(({ endpoint, keys }) => {
    // Kept across the page's loads, as a browser keeps its subscription.
    const key = 'local-push-subscribed';
    const fake = {
      endpoint,
      toJSON: () => ({ endpoint, keys }),
      unsubscribe: async () => {
        sessionStorage.removeItem(key);
        return true;
      },
    };
    PushManager.prototype.subscribe = async () => {
      sessionStorage.setItem(key, '1');
      return fake as unknown as PushSubscription;
    };
    PushManager.prototype.getSubscription = async () => (sessionStorage.getItem(key) === '1' ? (fake as unknown as PushSubscription) : null);
  }, subscription);
}

async function remindersOf(request: Parameters<typeof call>[0], guest: { id: number; token: string }) {
  return (await call(request, '/guest/readReminders', { guest: { id: guest.id, token: guest.token } })).reminders as {
    leadMinutes: number | null;
    byEmail: boolean;
    devices: { endpoint: string; label: string }[];
  };
}

test.describe('reminders in English at a phone size', () => {
  test.use({ viewport: VIEWPORTS[0].viewport, locale: 'en-US', timezoneId: 'Asia/Tokyo', serviceWorkers: 'allow', permissions: ['notifications'] });

  test('turned on in this browser, at the lead chosen: the push arrives, and the service worker shows it and opens the jail', async ({
    page,
    request,
    context,
  }) => {
    const missing = watchMissingTexts(page);
    const browser = pushService.newBrowser();
    await useLocalPushService(page, browser);
    const guest = await readyGuest(request);
    await signedIn(page, guest, '/guest/show');
    await page.getByRole('link', { name: 'Reminders and calendar' }).click();
    await expect(page.getByRole('heading', { name: 'Reminders before a jail' })).toBeVisible();
    await expect(page.getByTestId('this-browser')).toHaveText('Reminders do not come to this browser.');
    await checkA11y(page, '/reminders (reminders off)');

    await page.getByRole('button', { name: 'Turn on in this browser' }).click();
    await expect(page.getByTestId('this-browser')).toHaveText('Reminders come to this browser.');
    await expect(page.getByTestId('push-device')).toContainText('Chrome on Linux (this browser)');
    await page.getByRole('radio', { name: '30 min' }).check();
    await expect.poll(async () => (await remindersOf(request, guest)).leadMinutes).toBe(30);
    expect((await remindersOf(request, guest)).devices.map((device) => device.endpoint)).toEqual([browser.endpoint]);
    await checkA11y(page, '/reminders (reminders on)');

    // Thirty minutes before the jail, by the server's clock, the push goes out.
    const jail = await book(request, guest, 1);
    await setClockOffset(request, jail.startTime - 30 * 60_000 - Date.now());
    await expect.poll(() => browser.messages(pushService).length).toBe(1);
    const [message] = browser.messages(pushService);
    if (message === undefined) throw new Error('no push');
    const payload: ReminderPayload = browser.open(message);
    expect(payload).toMatchObject({ title: 'Jail at 10:00: Write the report', body: 'It starts in 30 minutes. You can enter it from 09:45.' });

    // The service worker shows it; a tap before the jail opens goes to its detail page.
    await page.reload();
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
    const [worker] = context.serviceWorkers();
    if (worker === undefined) throw new Error('no service worker');
    const shown = await worker.evaluate(async (data) => {
      // The worker's own globals, which the tests' DOM types do not name.
      const scope = self as unknown as {
        registration: { getNotifications(): Promise<Notification[]> };
        dispatchEvent(event: Event): boolean;
        PushEvent: new (type: 'push', init: { data: string }) => Event;
        NotificationEvent: new (type: 'notificationclick', init: { notification: Notification }) => Event;
      };
      scope.dispatchEvent(new scope.PushEvent('push', { data }));
      for (let wait = 0; wait < 50; wait += 1) {
        const notifications = await scope.registration.getNotifications();
        const [notification] = notifications;
        if (notification !== undefined) {
          scope.dispatchEvent(new scope.NotificationEvent('notificationclick', { notification }));
          return { title: notification.title, body: notification.body, tag: notification.tag };
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return null;
    }, JSON.stringify(payload));
    expect(shown).toEqual({ title: payload.title, body: payload.body, tag: payload.tag });
    await expect(page).toHaveURL(new RegExp(`/reservation/${jail.id}$`));

    await page.goto('/reminders');
    await page.getByRole('button', { name: 'Turn off in this browser' }).click();
    await expect(page.getByTestId('this-browser')).toHaveText('Reminders do not come to this browser.');
    await expect.poll(async () => (await remindersOf(request, guest)).devices).toEqual([]);
    expect(missing).toEqual([]);
  });

  test('on an iPhone that has not added Warden to the Home Screen, it says how, and e-mail stands in', async ({ browser: chromium }) => {
    const context = await chromium.newContext({
      viewport: VIEWPORTS[0].viewport,
      locale: 'en-US',
      userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
      serviceWorkers: 'block',
    });
    const page = await context.newPage();
    const request = context.request;
    const guest = await readyGuest(request);
    await signedIn(page, guest, '/reminders');
    await expect(page.getByText('On an iPhone or iPad, reminders come to Warden on your Home Screen')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Turn on in this browser' })).toHaveCount(0);
    await page.getByRole('switch', { name: 'E-mail me the reminder when no device has reminders on' }).check();
    await expect.poll(async () => (await remindersOf(request, guest)).byEmail).toBe(true);
    await checkA11y(page, '/reminders (iPhone)');
    await context.close();
  });
});

test.describe('reminders in Japanese at a desktop size', () => {
  test.use({ viewport: VIEWPORTS[1].viewport, locale: 'ja-JP', timezoneId: 'Asia/Tokyo', serviceWorkers: 'allow', permissions: ['notifications'] });

  test('after a booking, the offer turns them on from its button', async ({ page, request }) => {
    const missing = watchMissingTexts(page);
    const browser = pushService.newBrowser();
    await useLocalPushService(page, browser);
    const guest = await readyGuest(request, { language: 'ja' });
    await signedIn(page, guest, '/reservation/added');
    const offer = page.getByRole('region', { name: 'ジェイルの前にお知らせしましょうか？' });
    await expect(offer).toBeVisible();
    await checkA11y(page, '/reservation/added (the offer)');
    await offer.getByRole('button', { name: 'リマインダーを受け取る' }).click();
    await expect(page.getByText('このブラウザでリマインダーを受け取ります。')).toBeVisible();
    expect((await remindersOf(request, guest)).devices).toEqual([expect.objectContaining({ endpoint: browser.endpoint, label: 'Linux の Chrome' })]);

    await page.goto('/reminders');
    await expect(page.getByTestId('this-browser')).toHaveText('このブラウザにリマインダーが届きます。');
    await checkA11y(page, '/reminders (ja)');
    expect(missing).toEqual([]);
  });

  test('with reminders on in ten browsers already, the screen says why this one is refused', async ({ page, request }) => {
    await useLocalPushService(page, pushService.newBrowser());
    const guest = await readyGuest(request, { language: 'ja' });
    for (let index = 0; index < 10; index += 1) {
      const device = { endpoint: `https://fcm.googleapis.com/fcm/send/other-${index}`, keys: { p256dh: 'BAAA', auth: 'AAAA' }, label: `Android ${index}` };
      expect((await call(request, '/guest/addPushDevice', { guest: { id: guest.id, token: guest.token }, device })).api.status).toBe('success');
    }
    await signedIn(page, guest, '/reminders');
    await page.getByRole('button', { name: 'このブラウザで受け取る' }).click();
    await expect(page.getByRole('region', { name: 'ジェイル前のリマインダー' }).getByRole('alert')).toHaveText(
      'リマインダーを受け取れるブラウザは10台までです。デバイスの一覧からどれかを削除してから、もう一度お試しください。',
    );
    await expect(page.getByTestId('this-browser')).toHaveText('このブラウザにはリマインダーが届きません。');
    await expect(page.getByTestId('push-device')).toHaveCount(10);
  });
});

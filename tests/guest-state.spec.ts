/**
 * What only time and jails produce, set up through the development routes
 * (`/dev/admin`, `/dev/guest-state`, `/dev/activity-logs`; docs/api.md):
 * the facilitator sign-in link, the lazy-alert warnings and the suspension,
 * the trial banner, and the report's 'maximum patrols' note; at a phone and a
 * desktop size, each screen scanned with axe (WCAG 2.1 AA).
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { formatDateTime, timeZoneOfBrowserOffset } from '../src/shared/time-zone.ts';
import { book, checkA11y, createGuest, DAY, HOUR, readyGuest, signedIn, uniqueName, VIEWPORTS, watchMissingTexts } from './helpers.ts';

async function admin(request: APIRequestContext, args: string[]): Promise<string[]> {
  const response = await request.post('/dev/admin', { data: { args } });
  expect(response.status(), args.join(' ')).toBe(200);
  return ((await response.json()) as { lines: string[] }).lines;
}

async function setGuestState(request: APIRequestContext, state: Record<string, unknown>) {
  expect((await request.post('/dev/guest-state', { data: state })).status()).toBe(200);
}

/** The session the page keeps in the local database, if any. */
function storedAuth(page: Page): Promise<unknown> {
  return page.evaluate(
    () =>
      new Promise((resolve, reject) => {
        const open = indexedDB.open('Warden_PWA', 4);
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const get = open.result.transaction('auth').objectStore('auth').get('auth');
          get.onsuccess = () => {
            open.result.close();
            resolve((get.result as { data?: unknown } | undefined)?.data ?? null);
          };
          get.onerror = () => reject(get.error);
        };
      }),
  );
}

test.afterEach(async ({ request }) => {
  await request.post('/dev/clock', { data: { offsetMs: 0 } });
});

/**
 * What stops booking is said on /reservation/add before any form, with the
 * way on: at the phone size in Japanese and the desktop size in English.
 */
for (const { name, viewport, locale, words } of [
  {
    ...VIEWPORTS[0],
    locale: 'ja-JP',
    words: {
      suspended: '予約は一時停止中です',
      early: 'まもなく予約できるようになります',
      ended: 'プランの期間が終了しました',
      rules: 'ルールを読む',
      plans: 'プランを見る',
      lightLeft: 'ライトプラン：今月の残りは3.5時間です。',
      lightUsed: '今月の残り時間がありません',
    },
  },
  {
    ...VIEWPORTS[1],
    locale: 'en-US',
    words: {
      suspended: 'Booking is paused for now',
      early: 'You can book again soon',
      ended: 'Your plan has ended',
      rules: 'Read the rules',
      plans: 'See plans',
      lightLeft: 'Light plan: 3.5 hours left this month.',
      lightUsed: 'No hours left this month',
    },
  },
]) {
  test.describe(`booking blocks at ${name} in ${locale}`, () => {
    test.use({ viewport, locale, timezoneId: 'Asia/Tokyo', serviceWorkers: 'block' });

    test('a suspension, an early finish, an ended plan and a used-up light plan are said before the form, each with what to do', async ({ page, request }) => {
      const missing = watchMissingTexts(page);
      const guest = await readyGuest(request, { language: locale === 'ja-JP' ? 'ja' : 'en' });
      const block = page.getByTestId('booking-block');
      const until = Date.now() + 2 * DAY;
      // The guest's zone (-540) is the browser's (Asia/Tokyo): the times show without a zone.
      const zone = timeZoneOfBrowserOffset(-540);
      const language = locale === 'ja-JP' ? 'ja' : 'en';

      await setGuestState(request, { guestId: guest.id, suspendedUntil: until });
      await signedIn(page, guest, '/reservation/add');
      await expect(block.getByRole('heading', { name: words.suspended })).toBeVisible();
      await expect(block).toContainText(formatDateTime(until, zone, language, 'Asia/Tokyo'));
      await expect(block.getByRole('link', { name: words.rules })).toHaveAttribute('href', '/rules');
      await expect(page.getByRole('button', { name: /^(Book|予約する)$/ })).toHaveCount(0);
      await checkA11y(page, '/reservation/add, suspended');

      await setGuestState(request, { guestId: guest.id, suspendedUntil: null, earlyFinishBlockUntil: until - DAY });
      await page.reload();
      await expect(block.getByRole('heading', { name: words.early })).toBeVisible();
      await expect(block).toContainText(formatDateTime(until - DAY, zone, language, 'Asia/Tokyo'));

      await setGuestState(request, { guestId: guest.id, earlyFinishBlockUntil: null, subscriptionExpiredAt: Date.now() - HOUR });
      await page.reload();
      await expect(block.getByRole('heading', { name: words.ended })).toBeVisible();
      await expect(block.getByRole('link', { name: words.plans })).toHaveAttribute('href', '/subscription');
      await checkA11y(page, '/reservation/add, plan ended');

      // The light plan: its 15 hours used up, then 3.5 of them left, said above the form.
      await setGuestState(request, { guestId: guest.id, subscriptionExpiredAt: null, subscriptionPlan: 'light', totalDurationThisMonth: 15 });
      await page.reload();
      await expect(block.getByRole('heading', { name: words.lightUsed })).toBeVisible();
      await expect(block.getByRole('link', { name: words.plans })).toHaveAttribute('href', '/subscription');
      await checkA11y(page, '/reservation/add, light plan used');
      await setGuestState(request, { guestId: guest.id, totalDurationThisMonth: 11.5 });
      await page.reload();
      await expect(block).toHaveCount(0);
      await expect(page.getByText(words.lightLeft)).toBeVisible();

      // Nothing in the way: the form.
      await setGuestState(request, { guestId: guest.id, subscriptionPlan: 'trial', totalDurationThisMonth: 0 });
      await page.reload();
      await expect(block).toHaveCount(0);
      await expect(page.getByText(words.lightLeft)).toHaveCount(0);
      await expect(page.getByRole('group', { name: /^(Start date|開始日)$/ })).toBeVisible();
      expect(missing).toEqual([]);
    });
  });
}

for (const { name, viewport } of VIEWPORTS) {
  test.describe(`guest state at ${name}`, () => {
    test.use({ viewport, locale: 'en-US', timezoneId: 'Asia/Tokyo', serviceWorkers: 'block' });

    test('a facilitator link replaces the signed-in guest and goes on to /filters; a bad link says so', async ({ page, request }) => {
      const missing = watchMissingTexts(page);
      const [someoneElse, guest] = [await createGuest(request), await createGuest(request)];
      const wardenEmail = `${uniqueName('warden')}@example.com`;
      await admin(request, ['create-warden', '--title', uniqueName('Warden'), '--email', wardenEmail]);
      const [, token, link] = await admin(request, ['facilitator-token', '--warden', wardenEmail, '--guest', String(guest.id)]);
      expect(link).toMatch(new RegExp(`/guest/loginAsLimFacilitator/${token}/${guest.id}$`));

      await signedIn(page, someoneElse, '/reservations');
      await expect(page.getByRole('heading', { level: 1, name: 'Your jails' })).toBeVisible();
      await page.goto(new URL(link ?? '').pathname);
      await expect(page.getByRole('heading', { level: 1, name: 'Signing in' })).toBeVisible();
      await expect(page).toHaveURL(/\/filters$/);
      const stored = (await storedAuth(page)) as { id: number; token: string };
      expect(stored.id).toBe(guest.id);
      expect(stored.token).not.toBe(guest.token);
      await page.goto('/guest/edit');
      await expect(page.getByText(guest.title, { exact: true })).toBeVisible();

      // A token that was never issued.
      await page.goto(`/guest/loginAsLimFacilitator/${'x'.repeat(43)}/${guest.id}`);
      await expect(page.getByRole('alertdialog')).toContainText('The facilitator link is invalid or has expired.');
      await expect(page).toHaveURL(/\/guest\/loginAsLimFacilitator\//);
      await checkA11y(page, '/guest/loginAsLimFacilitator (refused)');
      expect(await storedAuth(page)).toBeNull();
      expect(missing).toEqual([]);
    });

    test('one and two ignored jails warn; three within a week suspend booking with the resume time', async ({ page, request }) => {
      const missing = watchMissingTexts(page);
      const guest = await readyGuest(request);
      const now = Date.now();
      await setGuestState(request, { guestId: guest.id, lazyAlerts: [now - 2 * DAY] });
      await signedIn(page, guest, '/reservations');
      await expect(page.getByText('You ignored a booked jail. Please attend the jails you book.')).toBeVisible();
      await checkA11y(page, '/reservations (one lazy alert)');

      await setGuestState(request, { guestId: guest.id, lazyAlerts: [now - 2 * DAY, now - DAY] });
      await page.reload();
      await expect(page.getByText('You ignored two booked jails. One more within a week suspends your account for a week.')).toBeVisible();

      // Three within the week: suspended until the oldest + 7 days, shown in the guest's zone (Tokyo, -540).
      const oldest = now - 3 * DAY;
      const resumeAt = oldest + 7 * DAY;
      await setGuestState(request, { guestId: guest.id, lazyAlerts: [oldest, now - DAY, now - HOUR], suspendedUntil: resumeAt });
      await page.reload();
      const resumeDateTime = formatDateTime(resumeAt, timeZoneOfBrowserOffset(-540), 'en', 'Asia/Tokyo');
      await expect(
        page.getByText(`Your account is temporarily suspended because of three ignored jail within a week. Back to available at ${resumeDateTime}`),
      ).toBeVisible();
      await checkA11y(page, '/reservations (suspended)');

      // Booking says it in the same words before any form (the server refuses one in them too).
      await page.goto('/reservation/add');
      await expect(page.getByTestId('booking-block')).toContainText(
        `Your account is temporarily suspended because of three ignored jail within a week. Back to available at ${resumeDateTime}`,
      );
      expect(missing).toEqual([]);
    });

    test('the trial banner counts the days left, then says the trial has expired', async ({ page, request }) => {
      const guest = await readyGuest(request);
      await setGuestState(request, { guestId: guest.id, subscriptionExpiredAt: Date.now() + 3 * DAY + 12 * HOUR });
      await signedIn(page, guest, '/reservations');
      await expect(page.getByRole('link', { name: 'Trial: 3 days left. See plans' })).toHaveAttribute('href', '/subscription');
      await setGuestState(request, { guestId: guest.id, subscriptionExpiredAt: Date.now() - 1 });
      await page.reload();
      await expect(page.getByRole('link', { name: 'Your trial has expired. See plans' })).toBeVisible();
      await checkA11y(page, '/reservations (trial expired)');
    });

    test("a finished jail's report shows its 30 patrols in time order with the 'maximum patrols' note", async ({ page, request }) => {
      const guest = await readyGuest(request);
      const jail = await book(request, guest, 1);
      await signedIn(page, guest, '/camera-check');
      // Thirty real JPEG thumbnails, drawn by the browser the way a patrol is.
      const images = await page.evaluate(() =>
        Array.from({ length: 30 }, (_, index) => {
          const canvas = document.createElement('canvas');
          canvas.width = 80;
          canvas.height = 60;
          const context = canvas.getContext('2d');
          if (context === null) throw new Error('no 2d canvas');
          context.fillStyle = `hsl(${index * 12}, 60%, 50%)`;
          context.fillRect(0, 0, 80, 60);
          return canvas.toDataURL('image/jpeg', 0.7);
        }),
      );
      const logs = [
        { type: 'dialog', time: jail.startTime + 1_000, dialog: { type: 1, text: 'Good luck with the report.' } },
        ...images.map((data, index) => ({ type: 'patrol', time: jail.startTime + (index + 1) * 60_000, patrol: { data } })),
      ];
      expect((await request.post('/dev/activity-logs', { data: { reservationId: jail.id, logs } })).status()).toBe(200);

      const afterEnd = jail.startTime + 2 * HOUR;
      await request.post('/dev/clock', { data: { offsetMs: afterEnd - Date.now() } });
      await page.clock.install({ time: afterEnd });
      await page.goto(`/reservation/${jail.id}`);
      const report = page.getByRole('region', { name: 'Report' });
      await expect(report.getByText('The maximum of 30 patrols was reached in this jail.')).toBeVisible();
      await expect(report.getByRole('img')).toHaveCount(30);
      await expect(report.getByText('Good luck with the report.')).toBeVisible();
      await checkA11y(page, '/reservation/:id (30 patrols)');
    });
  });
}

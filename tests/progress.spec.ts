/**
 * The progress screen (docs/progress.md) against the built client and the
 * real server: reached from the navigation, empty before the first jail,
 * then the streaks, attendance, this week's time, the weekly chart's text
 * equivalent and the last jails, after jails run by the server's clock with
 * a guest's device connected, and a try-it-now jail that is left out and
 * said so. In English at a phone size and in Japanese at a desktop size,
 * with axe; the five jails' screen is looked at in both sizes.
 */
import { expect, test } from '@playwright/test';
import { enterJail, eventId, fromGuest, setClockOffset } from './guest-device.ts';
import { book, call, checkA11y, HOUR, readyGuest, signedIn, VIEWPORTS, watchMissingTexts } from './helpers.ts';

const CASES = [
  {
    language: 'en',
    viewport: VIEWPORTS[0],
    locale: 'en-US',
    words: {
      nav: 'Progress',
      emptyTitle: 'Your progress starts with your first jail',
      emptyAction: 'Add booking',
      failedTitle: 'Your progress could not be loaded',
      retry: 'Try again',
      currentStreak: ['Current streak', '3 days'],
      bestStreak: ['Best streak', '3 days'],
      attendance: ['Attendance', '80%', '4 of your last 5 jails entered'],
      finished: 'Finished',
      early: 'Finished early',
      ignored: 'Ignored',
      tableCaption: 'Focused time per week, last 12 weeks',
      weeklyTotal: /focused in the last 12 weeks$/,
      trials: 'Try-it-now jails are not counted here (1 try-it-now jail so far).',
    },
  },
  {
    language: 'ja',
    viewport: VIEWPORTS[1],
    locale: 'ja-JP',
    words: {
      nav: '記録',
      emptyTitle: '最初のジェイルから記録が始まります',
      emptyAction: '予約を追加',
      failedTitle: '進捗を読み込めませんでした',
      retry: 'もう一度試す',
      currentStreak: ['連続日数', '3日'],
      bestStreak: ['最長連続日数', '3日'],
      attendance: ['出席率', '80%', '直近5回のジェイルのうち4回に入室'],
      finished: '終了',
      early: '早めに終了',
      ignored: '欠席',
      tableCaption: '週ごとの集中時間（直近12週間）',
      weeklyTotal: /^直近12週間で.+集中しました$/,
      trials: 'お試しジェイルはここでは数えません（これまでに1回）。',
    },
  },
] as const;

test.afterEach(async ({ request }) => {
  await setClockOffset(request, 0);
});

for (const { language, viewport, locale, words } of CASES) {
  test.describe(`progress in ${language} at ${viewport.name}`, () => {
    test.use({ viewport: viewport.viewport, locale, timezoneId: 'Asia/Tokyo', serviceWorkers: 'block' });

    test('before the first jail: reached from the navigation, it says how it starts', async ({ page, request }) => {
      const missing = watchMissingTexts(page);
      const guest = await readyGuest(request, { language });
      await signedIn(page, guest, '/reservations');
      await page.getByRole('navigation').getByRole('link', { name: words.nav }).click();
      await expect(page).toHaveURL(/\/progress$/);
      await expect(page.getByRole('heading', { level: 1, name: words.nav })).toBeVisible();
      await expect(page.getByRole('heading', { name: words.emptyTitle })).toBeVisible();
      await expect(page.getByRole('link', { name: words.emptyAction }).last()).toHaveAttribute('href', '/reservation/add');
      await checkA11y(page, `/progress (${language}, empty)`);
      expect(missing).toEqual([]);
    });

    test('opened as the network drops, it says so, then loads by itself when the network returns', async ({ page, request, context }) => {
      const guest = await readyGuest(request, { language });
      await signedIn(page, guest, '/reservations');
      // The screen's code loads; its data does not, as when the connection drops on the way.
      const progressRead = '**/api/progress/read';
      await page.route(progressRead, (route) => route.abort('internetdisconnected'));
      await page.getByRole('navigation').getByRole('link', { name: words.nav }).click();
      await expect(page.getByRole('heading', { name: words.failedTitle })).toBeVisible();
      await expect(page.getByRole('button', { name: words.retry })).toBeVisible();
      await context.setOffline(true);
      await page.unroute(progressRead);
      await context.setOffline(false);
      await expect(page.getByRole('heading', { name: words.emptyTitle })).toBeVisible();
      await expect(page.getByRole('heading', { name: words.failedTitle })).toBeHidden();
    });

    test('after five jails: streaks, attendance, the weeks and the last jails', async ({ page, request, baseURL }) => {
      if (baseURL === undefined) throw new Error('playwright.config.ts sets baseURL');
      const missing = watchMissingTexts(page);
      const guest = await readyGuest(request, { language });
      // Five days in a row at 10:00 Tokyo time: ignored, finished early, then three held to the end.
      const jails = [];
      for (const day of [1, 2, 3, 4, 5]) jails.push(await book(request, guest, day, { work: `Chapter ${day}` }));
      const [ignored, early, ...held] = jails;
      if (ignored === undefined || early === undefined) throw new Error('five jails were booked');
      // A try-it-now jail, starting now: it finishes on the way to the others and counts for nothing but its line.
      const auth = { id: guest.id, token: guest.token };
      const trial = await call(request, '/reservation/try', { guest: auth, reservation: { work: 'Just trying', duration: 1 } });
      expect(trial.api).toEqual({ status: 'success' });
      // Its jail starts at the scheduler's next tick; a window the clock jumps over before that would never start.
      const trialId = (trial.reservation as { id: number }).id;
      await expect
        .poll(
          async () =>
            ((await call(request, '/reservation/read', { guest: auth, reservation: { id: trialId } })).reservation as { logsPending: boolean }).logsPending,
        )
        .toBe(true);

      // The first starts by the server's clock with no device: it finishes as ignored.
      await setClockOffset(request, ignored.startTime + 60_000 - Date.now());
      const earlyDevice = await enterJail(request, baseURL, guest, early);
      expect(
        await earlyDevice.emitWithAck('jail_finish_early_from_guest', {
          ...fromGuest(guest),
          eventId: eventId(),
          reservation: { id: early.id },
          instruction: { text: 'A delivery came' },
        }),
      ).toEqual({ ok: true });
      earlyDevice.close();
      for (const jail of held) {
        const device = await enterJail(request, baseURL, guest, jail);
        await setClockOffset(request, jail.startTime + HOUR + 2 * 60_000 - Date.now());
        device.close();
      }
      const last = held.at(-1);
      if (last === undefined) throw new Error('three jails were held');
      await setClockOffset(request, last.startTime + 2 * HOUR - Date.now());
      await page.clock.install({ time: last.startTime + 2 * HOUR });

      await signedIn(page, guest, '/progress');
      const tile = (testId: string) => page.getByTestId(testId);
      await expect(tile('current-streak')).toContainText(words.currentStreak[0]);
      await expect(tile('current-streak')).toContainText(words.currentStreak[1]);
      await expect(tile('best-streak')).toContainText(words.bestStreak[1]);
      for (const text of words.attendance) await expect(tile('attendance')).toContainText(text);

      // The chart's text equivalent: twelve weeks, and the total of the three held jails and the early one.
      const table = page.getByRole('table', { name: words.tableCaption });
      await expect(table.getByRole('row')).toHaveCount(13);
      await expect(page.getByText(words.weeklyTotal)).toBeVisible();

      const recent = page.getByTestId('recent-jail');
      await expect(recent).toHaveCount(5);
      await expect(recent.first()).toContainText('Chapter 5');
      await expect(recent.first()).toContainText(words.finished);
      await expect(recent.nth(3)).toContainText(words.early);
      await expect(recent.nth(4)).toContainText(words.ignored);
      await expect(recent.first().getByRole('link')).toHaveAttribute('href', `/reservation/${last.id}`);
      await expect(page.getByTestId('trial-jails')).toHaveText(words.trials);
      await expect(recent.filter({ hasText: 'Just trying' })).toHaveCount(0);
      await checkA11y(page, `/progress (${language})`);
      // The other size on the same page: the line and the screen as the guest sees them.
      for (const { viewport: size } of VIEWPORTS) {
        await page.setViewportSize(size);
        await expect(page.getByTestId('trial-jails')).toBeVisible();
        await page.screenshot({ path: test.info().outputPath(`progress-${language}-${size.width}.png`), fullPage: true });
      }
      await page.setViewportSize(viewport.viewport);

      await recent.first().getByRole('link').click();
      await expect(page).toHaveURL(new RegExp(`/reservation/${last.id}$`));
      expect(missing).toEqual([]);
    });
  });
}

/**
 * The calendar feed and "Add to calendar" (docs/calendar.md) against the
 * built client and the real server: the Reminders and calendar screen makes
 * an address that serves the guest's jails, shows it once, replaces it and
 * stops it; a jail's detail page downloads that one jail as an event. In
 * English at a phone size and in Japanese at a desktop size, with axe.
 */
import { readFile } from 'node:fs/promises';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { book, checkA11y, readyGuest, signedIn, uniqueAddress, VIEWPORTS, watchMissingTexts } from './helpers.ts';

const CASES = [
  {
    language: 'en',
    viewport: VIEWPORTS[0],
    locale: 'en-US',
    texts: {
      menu: 'Reminders and calendar',
      start: 'Get my calendar address',
      ready: 'Your calendar address is ready.',
      address: 'Calendar address',
      copy: 'Copy',
      copied: 'Copied',
      google: 'Google Calendar',
      active: 'Your jails are published at an address ending in',
      renew: 'Make a new address',
      stop: 'Stop publishing',
      stopped: 'Your jails are no longer published.',
      addToCalendar: 'Add to calendar',
      onlyThisDate: 'This adds this date only.',
      everyJail: 'Get every jail in your calendar',
      calendarName: 'Warden jails',
    },
  },
  {
    language: 'ja',
    viewport: VIEWPORTS[1],
    locale: 'ja-JP',
    texts: {
      menu: 'リマインダーとカレンダー',
      start: 'カレンダー用のアドレスを作成',
      ready: 'カレンダー用のアドレスができました。',
      address: 'カレンダー用のアドレス',
      copy: 'コピー',
      copied: 'コピーしました',
      google: 'Google カレンダー',
      active: '末尾が',
      renew: '新しいアドレスを作成',
      stop: '公開を停止',
      stopped: 'ジェイルの公開を停止しました。',
      addToCalendar: 'カレンダーに追加',
      onlyThisDate: 'この日のジェイルだけを追加します。',
      everyJail: 'すべてのジェイルをカレンダーに表示',
      calendarName: 'Warden のジェイル',
    },
  },
] as const;

/** Reads a feed as a calendar app would: a plain GET of the address. */
async function readFeed(request: APIRequestContext, url: string): Promise<{ status: number; type: string; text: string }> {
  const response = await request.get(url, { headers: { 'x-forwarded-for': uniqueAddress() } });
  return { status: response.status(), type: response.headers()['content-type'] ?? '', text: await response.text() };
}

async function shownAddress(page: Page, label: string): Promise<string> {
  const value = await page.getByLabel(label, { exact: true }).inputValue();
  expect(value).toMatch(/\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
  return value;
}

for (const { language, viewport, locale, texts } of CASES) {
  test.describe(`the calendar in ${language} at ${viewport.name}`, () => {
    test.use({ viewport: viewport.viewport, locale, timezoneId: 'Asia/Tokyo', serviceWorkers: 'block' });

    test('the feed: made from the account menu, shown once, copied, replaced and stopped', async ({ page, request, context }) => {
      const missing = watchMissingTexts(page);
      const guest = await readyGuest(request, { language });
      const booked = await book(request, guest, 2, { work: language === 'ja' ? '論文の第二章' : 'Thesis chapter 2' });
      await signedIn(page, guest, '/guest/show');
      await page.getByRole('link', { name: texts.menu }).click();
      await expect(page).toHaveURL(/\/reminders$/);
      await expect(page.getByRole('heading', { level: 1, name: texts.menu })).toBeVisible();
      await checkA11y(page, `/reminders (${language}, no feed)`);

      await page.getByRole('button', { name: texts.start }).click();
      await expect(page.getByText(texts.ready)).toBeVisible();
      const first = await shownAddress(page, texts.address);
      const feed = await readFeed(request, first);
      expect(feed).toMatchObject({ status: 200, type: 'text/calendar; charset=utf-8' });
      expect(feed.text).toContain(`X-WR-CALNAME:${texts.calendarName}`);
      expect(feed.text).toContain(`URL:${new URL(first).origin}/reservation/${booked.id}`);
      expect(feed.text).toContain(language === 'ja' ? 'SUMMARY:論文の第二章' : 'SUMMARY:Thesis chapter 2');
      const google = new URL((await page.getByRole('link', { name: texts.google }).getAttribute('href')) ?? '');
      expect(google.searchParams.get('cid')).toBe(first.replace(/^https?:/, 'webcal:'));
      await checkA11y(page, `/reminders (${language}, new address)`);

      await context.grantPermissions(['clipboard-read', 'clipboard-write']);
      await page.getByRole('button', { name: texts.copy, exact: true }).click();
      await expect(page.getByRole('button', { name: texts.copied })).toBeVisible();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(first);

      // Once left, the address is not shown again: only its last characters.
      await page.reload();
      await expect(page.getByText(texts.active)).toBeVisible();
      await expect(page.getByTestId('calendar-feed-hint')).toContainText(`…${first.slice(-'.ics'.length - 4, -'.ics'.length)}`);
      await expect(page.getByLabel(texts.address, { exact: true })).toHaveCount(0);

      // A new address replaces the old one, after a confirmation.
      await page.getByRole('button', { name: texts.renew }).click();
      const sheet = page.getByRole('dialog');
      await expect(sheet).toBeVisible();
      await checkA11y(page, `/reminders (${language}, confirm a new address)`);
      await sheet.getByRole('button', { name: texts.renew }).click();
      await expect(sheet).toBeHidden();
      const second = await shownAddress(page, texts.address);
      expect(second).not.toBe(first);
      expect((await readFeed(request, first)).status).toBe(404);
      expect((await readFeed(request, second)).status).toBe(200);

      // Stopping ends the address.
      await page.getByRole('button', { name: texts.stop }).click();
      await page.getByRole('dialog').getByRole('button', { name: texts.stop }).click();
      await expect(page.getByText(texts.stopped)).toBeVisible();
      await expect(page.getByRole('button', { name: texts.start })).toBeVisible();
      expect((await readFeed(request, second)).status).toBe(404);
      await checkA11y(page, `/reminders (${language}, stopped)`);
      expect(missing).toEqual([]);
    });

    test('"Add to calendar" downloads the one jail; a repeating one points to the feed', async ({ page, request }) => {
      const missing = watchMissingTexts(page);
      const guest = await readyGuest(request, { language });
      const once = await book(request, guest, 3, { work: 'Read chapter 4; take notes' });
      await signedIn(page, guest, `/reservation/${once.id}`);
      await expect(page.getByRole('button', { name: texts.addToCalendar })).toBeVisible();
      await expect(page.getByText(texts.onlyThisDate)).toHaveCount(0);
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: texts.addToCalendar }).click()]);
      const localDate = new Date(once.startTime + 9 * 3_600_000).toISOString().slice(0, 10);
      expect(download.suggestedFilename()).toBe(`warden-${localDate}.ics`);
      const text = await readFile(await download.path(), 'utf8');
      expect(text.match(/BEGIN:VEVENT/g)).toHaveLength(1);
      expect(text).toContain('SUMMARY:Read chapter 4\\; take notes');
      expect(text).toContain(`/reservation/${once.id}`);
      expect(text).toContain('TRIGGER:-PT15M');

      const weekly = await book(request, guest, 5, { repeatType: 'weekly' });
      await page.goto(`/reservation/${weekly.id}`);
      await expect(page.getByText(texts.onlyThisDate)).toBeVisible();
      await page.getByRole('link', { name: texts.everyJail }).click();
      await expect(page).toHaveURL(/\/reminders$/);
      await expect(page.getByRole('button', { name: texts.start })).toBeVisible();
      await page.goto(`/reservation/${weekly.id}`);
      await checkA11y(page, `/reservation/:id (${language}, add to calendar)`);
      expect(missing).toEqual([]);
    });
  });
}

/**
 * Pausing the repeats (docs/rules.md, Pauses) against the built client and
 * the real server: from the list, set a pause (a mistake shown beside its
 * field first), see it on the list and on the held jail, and end it; in
 * English and Japanese, at a phone and a desktop size on one page each.
 */
import { expect, test } from '@playwright/test';
import { book, checkA11y, expectFieldError, readyGuest, signedIn, VIEWPORTS, watchMissingTexts } from './helpers.ts';

const WORDS = {
  en: {
    pause: 'Pause repeats',
    first: 'First day',
    last: 'Last day',
    submit: 'Pause',
    before: 'The last day must be on or after the first day.',
    banner: /Repeats paused from .+ to .+\./,
    held: /Paused until /,
    end: 'End the pause',
  },
  ja: {
    pause: '繰り返しをお休みする',
    first: '開始日',
    last: '最終日',
    submit: 'お休みにする',
    before: '最終日は開始日と同じ日か、それより後にしてください。',
    banner: /から.+まで、繰り返しはお休みです。/,
    held: /までお休み/,
    end: 'お休みを終える',
  },
} as const;

for (const language of ['en', 'ja'] as const) {
  test.describe(() => {
    test.use({ locale: language === 'ja' ? 'ja-JP' : 'en-US', timezoneId: 'Asia/Tokyo', serviceWorkers: 'block' });
    test(`pause the repeats from the list and end the pause (${language})`, async ({ page, request }) => {
      const words = WORDS[language];
      const missing = watchMissingTexts(page);
      const guest = await readyGuest(request, { language });
      // Every week, from the day after tomorrow: the form's first offer (the first day more than 6 hours ahead,
      // tomorrow or, in the evening, the day after, and six more) holds its next time at any hour of the run.
      await book(request, guest, 2, { repeatType: 'weekly' });
      await signedIn(page, guest, '/reservations');
      for (const { name, viewport } of VIEWPORTS) {
        await page.setViewportSize(viewport);
        const item = page.getByTestId('reservation-item').first();
        await expect(item).toBeVisible();
        await page.getByRole('button', { name: words.pause }).click();
        const first = page.getByLabel(words.first);
        const last = page.getByLabel(words.last);
        // A last day before the first is shown beside the last day.
        const firstDay = await first.inputValue();
        await last.fill('2000-01-01');
        await page.getByRole('button', { name: words.submit, exact: true }).click();
        await expectFieldError(last, words.before);
        await checkA11y(page, `the pause form (${language}, ${name})`);
        await page.screenshot({ path: `/tmp/shots-5/pause-form-${language}-${viewport.width}.png`, fullPage: true });

        await last.fill(new Date(Date.parse(`${firstDay}T00:00:00Z`) + 6 * 86_400_000).toISOString().slice(0, 10));
        await page.getByRole('button', { name: words.submit, exact: true }).click();
        const banner = page.getByTestId('pause-banner');
        await expect(banner).toContainText(words.banner);
        await expect(item).toContainText(words.held);
        await checkA11y(page, `the list with a pause (${language}, ${name})`);
        await page.screenshot({ path: `/tmp/shots-5/pause-list-${language}-${viewport.width}.png`, fullPage: true });

        await banner.getByRole('button', { name: words.end }).click();
        await expect(banner).toHaveCount(0);
        await expect(item).not.toContainText(words.held);
      }
      // A repeating jail's detail offers the same.
      await page.getByTestId('reservation-item').first().getByRole('link').click();
      await expect(page).toHaveURL(/\/reservation\/\d+$/);
      await expect(page.getByTestId('reservation-item')).toHaveCount(0);
      await expect(page.getByRole('button', { name: words.pause })).toBeVisible();
      await page.screenshot({ path: `/tmp/shots-5/pause-detail-${language}.png`, fullPage: true });
      expect(missing).toEqual([]);
    });
  });
}

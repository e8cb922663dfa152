/**
 * "Download your data" (docs/privacy.md, Export) against the built client
 * and the real server: reached from the account menu, the download is a ZIP
 * whose warden.json holds the guest's account and bookings. At a phone and
 * a desktop size in both languages, with axe.
 */
import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { unzip } from '../src/server/test/unzip.ts';
import { book, checkA11y, readyGuest, signedIn, VIEWPORTS, watchMissingTexts } from './helpers.ts';

const WORDS = {
  en: { menu: 'Your data', heading: 'Download your data', button: 'Download my data', saved: /^Saved warden-\d{4}-\d{2}-\d{2}\.zip to your downloads\.$/ },
  ja: {
    menu: 'あなたのデータ',
    heading: 'データのダウンロード',
    button: 'データをダウンロード',
    saved: /^warden-\d{4}-\d{2}-\d{2}\.zip をダウンロードフォルダに保存しました。$/,
  },
} as const;

for (const language of ['en', 'ja'] as const) {
  for (const { name, viewport } of VIEWPORTS) {
    test.describe(`export in ${language} at ${name}`, () => {
      test.use({ viewport, locale: language === 'en' ? 'en-US' : 'ja-JP', timezoneId: 'Asia/Tokyo', serviceWorkers: 'block' });

      test('downloads the guest’s data as a ZIP from the account menu', async ({ page, request }) => {
        const words = WORDS[language];
        const missing = watchMissingTexts(page);
        const guest = await readyGuest(request, { language });
        const reservation = await book(request, guest, 2);
        await signedIn(page, guest, '/guest/show');
        await page.getByRole('link', { name: words.menu }).click();
        await expect(page).toHaveURL(/\/guest\/data$/);
        const section = page.getByRole('region', { name: words.heading });
        await expect(section).toBeVisible();
        await checkA11y(page);

        const downloading = page.waitForEvent('download');
        await section.getByRole('button', { name: words.button }).click();
        const download = await downloading;
        expect(download.suggestedFilename()).toMatch(/^warden-\d{4}-\d{2}-\d{2}\.zip$/);
        await expect(section.getByTestId('export-status')).toHaveText(words.saved);
        const files = await unzip(await readFile(await download.path()));
        const data = JSON.parse(files.get('warden.json')?.toString('utf8') ?? '{}') as {
          account?: { email: string; language: string };
          reservations?: { id: number; work: string }[];
        };
        expect(data.account).toMatchObject({ email: guest.email, language });
        expect(data.reservations?.map((booked) => booked.id)).toEqual([reservation.id]);
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
        expect(missing).toEqual([]);
      });
    });
  }
}

import { expect, test } from '@playwright/test';
import { JAIL_LOG_PAGE } from '../src/shared/constants.ts';
import { setClockOffset } from './guest-device.ts';
import { book, checkA11y, createWarden, freshAddress, readyGuest, signInToConsole } from './helpers.ts';

/**
 * The console reads a busy jail's logs a page at a time (docs/jail.md,
 * Relay): the newest page when the jail opens, the page before it each time
 * the warden asks, until the first log. The jail is finished at the end, so
 * that the consoles of later tests do not list it.
 */

/** How long `book` books a jail for. */
const JAIL_HOURS = 1;

test.afterEach(async ({ request }) => {
  await setClockOffset(request, 0);
});

test('a warden opens a busy jail on its newest logs and reads back to its first, a page at a time', async ({ page, context, request }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const guest = await readyGuest(request);
  const reservation = await book(request, guest, 1);
  const warden = await createWarden(request);
  await setClockOffset(request, reservation.startTime + 60_000 - Date.now());
  try {
    // More than a page of lines, a second apart, after what the start logged.
    const lines = JAIL_LOG_PAGE + 50;
    const logs = Array.from({ length: lines }, (_, index) => {
      const time = reservation.startTime + 2 * 60_000 + index * 1_000;
      return { type: 'dialog', time, dialog: { type: 2, text: `Snitch line ${index + 1}` } };
    });
    for (let from = 0; from < lines; from += 100) {
      expect((await request.post('/dev/activity-logs', { data: { reservationId: reservation.id, logs: logs.slice(from, from + 100) } })).status()).toBe(200);
    }

    await freshAddress(context);
    await page.goto('/warden');
    await signInToConsole(page, warden);
    await page.getByRole('article', { name: guest.title }).getByRole('button', { name: 'Open' }).click();
    const timeline = page.getByRole('list', { name: 'Timeline' });
    const entries = timeline.locator('li.log');
    await expect(entries).toHaveCount(JAIL_LOG_PAGE);
    await expect(entries.last()).toContainText(`Snitch line ${lines}`);
    await expect(entries.filter({ hasText: /Snitch line 1$/ })).toHaveCount(0);
    await checkA11y(page, 'console with a page of a busy jail');

    await timeline.getByRole('button', { name: 'Show earlier' }).click();
    await expect(timeline.getByRole('button', { name: 'Show earlier' })).toHaveCount(0);
    await expect(entries.filter({ hasText: /Snitch line \d+$/ })).toHaveCount(lines);
    await expect(entries.filter({ hasText: /Snitch line 1$/ })).toHaveCount(1);
    // The start's own logs, older than every line, came with the last page.
    await expect(entries.first()).not.toContainText('Snitch line');

    // In Japanese the button says the same.
    await page.getByLabel('Language').selectOption('ja');
    await page.getByRole('button', { name: '閉じる' }).click();
    await page.getByRole('article', { name: guest.title }).getByRole('button', { name: '開く' }).click();
    await expect(page.getByRole('list', { name: 'タイムライン' }).getByRole('button', { name: 'それ以前を表示' })).toBeVisible();
    await checkA11y(page, 'console with a page of a busy jail, in Japanese');
  } finally {
    // Past its end, so that the scheduler finishes it: no other test's console sees it live.
    await setClockOffset(request, reservation.startTime + JAIL_HOURS * 60 * 60_000 + 60_000 - Date.now());
  }
});

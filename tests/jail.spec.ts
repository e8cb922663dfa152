/**
 * The guest's jail screens against the built client and the real server
 * (docs/client.md, The jail screens), at a phone and a desktop size, each screen scanned with
 * axe. Speech is the browser's, replaced before the page loads by a
 * recording stand-in (headless Chromium has no voices).
 */
import { expect, test, type Page } from '@playwright/test';
import { book, checkA11y, readyGuest, signedIn, VIEWPORTS, watchMissingTexts } from './helpers.ts';
import { recordSpeech, spokenLines } from './speech.ts';

/** The live screen's status line (the shell has a loading status of its own). */
function liveStatus(page: Page) {
  return page.locator('.jail-screen').getByRole('status');
}

test.afterEach(async ({ request }) => {
  await request.post('/dev/clock', { data: { offsetMs: 0 } });
});

for (const { name, viewport } of VIEWPORTS) {
  test.describe(`jail screens at ${name}`, () => {
    test.use({ viewport, locale: 'en-US', serviceWorkers: 'block' });

    test('prep_before explains the sound and the camera; start says "Here we go" and goes on to the preparation', async ({ page, request }) => {
      const missing = watchMissingTexts(page);
      await recordSpeech(page);
      const guest = await readyGuest(request);
      const jail = await book(request, guest, 1);
      await signedIn(page, guest, `/jail/prep_before/${jail.id}`);
      await expect(page.getByRole('heading', { level: 1, name: 'Before your jail' })).toBeVisible();
      await expect(page.getByRole('heading', { level: 2, name: 'Sound' })).toBeVisible();
      await expect(page.getByRole('heading', { level: 2, name: 'Camera' })).toBeVisible();
      await checkA11y(page, '/jail/prep_before/:id');
      await page.getByRole('button', { name: 'Start' }).click();
      await expect(page).toHaveURL(new RegExp(`/jail/prep/${jail.id}$`));
      expect((await spokenLines(page))[0]).toEqual({ text: 'Here we go', lang: 'en-US' });
      expect(missing).toEqual([]);
    });

    test('live: leave the seat and come back, then finish early with a reason; the finish is announced and the report shows it', async ({ page, request }) => {
      const missing = watchMissingTexts(page);
      await recordSpeech(page);
      const guest = await readyGuest(request);
      const jail = await book(request, guest, 1);
      const inside = jail.startTime + 60_000;
      await request.post('/dev/clock', { data: { offsetMs: inside - Date.now() } });
      // The page's clock runs from the same moment, at its normal pace.
      await page.clock.install({ time: inside });
      await page.clock.resume();
      await signedIn(page, guest, `/jail/live/${jail.id}`);

      await expect(page.getByRole('heading', { level: 1, name: 'Write the report' })).toBeVisible();
      await expect(liveStatus(page)).toHaveText('In the jail');
      const commands = page.getByRole('region', { name: 'Commands' }).getByRole('button');
      await expect(commands).toHaveText(['1 Leave the seat', '2 Take a break', '3 Finish early', '4 Talk to the Warden']);
      await expect(commands.first()).toBeEnabled();
      await checkA11y(page, '/jail/live/:id');

      await page.getByRole('button', { name: '1 Leave the seat' }).click();
      await expect(liveStatus(page)).toHaveText(/^Out of your seat: back within [45]:\d\d$/);
      await expect(commands).toHaveText(['5 Back to the seat']);
      await page.getByRole('button', { name: '5 Back to the seat' }).click();
      await expect(liveStatus(page)).toHaveText('In the jail');

      await page.getByRole('button', { name: '3 Finish early' }).click();
      const send = page.getByRole('button', { name: 'Finish the jail' });
      await expect(send).toBeDisabled();
      await page.getByLabel('Why are you finishing early?').fill('A delivery came');
      await checkA11y(page, '/jail/live/:id (finish form)');
      await send.click();
      await expect(page).toHaveURL(new RegExp(`/reservation/${jail.id}$`));
      // Each line once: the answers to the commands and the finish are said on the device, not again from the server.
      const said = (await spokenLines(page)).map((line) => line.text);
      const once = [
        'All right. Please be back within 5 minutes.',
        'Welcome back. Let us carry on.',
        'Tell me why you are finishing early.',
        'Noted. This jail ends early. I hope to see you back soon.',
      ];
      expect(said.filter((text) => once.includes(text))).toEqual(once);
      await expect(page.getByTestId('report-finish-reason')).toHaveText('A delivery came');
      expect(missing).toEqual([]);
    });

    test('live: a reload while on a break restores the break, and ending it brings the commands back', async ({ page, request }) => {
      await recordSpeech(page);
      const guest = await readyGuest(request);
      const jail = await book(request, guest, 2);
      const inside = jail.startTime + 60_000;
      await request.post('/dev/clock', { data: { offsetMs: inside - Date.now() } });
      await page.clock.install({ time: inside });
      await page.clock.resume();
      await signedIn(page, guest, `/jail/live/${jail.id}`);
      await page.getByRole('button', { name: '2 Take a break' }).click();
      await expect(liveStatus(page)).toHaveText(/^On a break: (20:00|19:\d\d) left$/);
      await page.reload();
      // The server remembers the status and restores it on reconnecting (jail_resume_to_guest).
      await expect(liveStatus(page)).toHaveText(/^On a break: 19:\d\d left$/);
      const commands = page.getByRole('region', { name: 'Commands' }).getByRole('button');
      await expect(commands).toHaveText(['6 End the break']);
      await commands.first().click();
      await expect(liveStatus(page)).toHaveText('In the jail');
      await expect(commands).toHaveText(['1 Leave the seat', '2 Take a break', '3 Finish early', '4 Talk to the Warden']);
    });

    test('a visitor is sent to the start page', async ({ page }) => {
      await page.goto('/jail/prep_before/42');
      await expect(page).toHaveURL(/\/$/);
    });
  });
}

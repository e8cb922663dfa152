/**
 * Try-anyway (docs/try-anyway.md): a new guest
 * (e-mail verified, no phone) with an empty list clicks 'Try it now', fills
 * in the work and the duration, waits at /jail/live/try and lands on the live
 * screen of the new jail with `#try`, whose demo says its three lines. At a
 * phone and a desktop size, each screen scanned with axe.
 */
import { expect, test, type APIRequestContext } from '@playwright/test';
import { texts as jailTexts } from '../src/client/features/jail/texts.ts';
import { call, checkA11y, createGuest, lastMailTo, linkIn, signedIn, VIEWPORTS, watchMissingTexts, type TestGuest } from './helpers.ts';
import { recordSpeech, spokenLines } from './speech.ts';

/** A guest just signed up whose e-mail is verified: no phone, no booking. */
async function newGuest(request: APIRequestContext): Promise<TestGuest> {
  const guest = await createGuest(request);
  const token =
    linkIn((await lastMailTo(request, guest.email)).text)
      .split('/')
      .at(-1) ?? '';
  expect((await call(request, '/guest/verifyEmail', { guest: { token } })).api.status).toBe('success');
  return guest;
}

for (const { name, viewport } of VIEWPORTS) {
  test.describe(`try-anyway at ${name}`, () => {
    test.use({ viewport, locale: 'en-US', timezoneId: 'Asia/Tokyo', serviceWorkers: 'block' });

    test('from the empty list, Try it now makes a jail that starts now and opens its live screen with #try', async ({ page, request }) => {
      const missing = watchMissingTexts(page);
      await recordSpeech(page);
      const guest = await newGuest(request);
      await signedIn(page, guest, '/reservations');
      await expect(page.getByText('No jail booked yet.')).toBeVisible();
      await page.getByRole('button', { name: 'Try it now' }).click();
      await page.getByLabel('What will you work on?').fill('Tidy the desk');
      await page.getByLabel('How long (hours:minutes)').selectOption({ label: '1:30' });
      await checkA11y(page, '/reservations (try-anyway form)');
      await page.getByRole('button', { name: 'Start the jail' }).click();

      await expect(page).toHaveURL(/\/jail\/live\/\d+#try$/);
      const list = await call(request, '/reservation/read_list', { guest: { id: guest.id, token: guest.token } });
      const reservations = list.reservations as { id: number; work: string; duration: number; repeatType: string; status: string }[];
      expect(reservations).toEqual([expect.objectContaining({ work: 'Tidy the desk', duration: 1.5, repeatType: 'none', status: 'ready' })]);
      expect(new URL(page.url()).pathname).toBe(`/jail/live/${reservations[0]?.id}`);
      await expect(page.getByRole('heading', { level: 1, name: 'Tidy the desk' })).toBeVisible();
      // The demo of #try (the live screen's): its three lines are said.
      const demo: string[] = [jailTexts.en.try_demo_line_1, jailTexts.en.try_demo_line_2, jailTexts.en.try_demo_line_3];
      await expect.poll(async () => (await spokenLines(page)).map((line) => line.text).filter((text) => demo.includes(text))).toEqual(demo);
      expect(missing).toEqual([]);
    });

    test('/jail/live/try without a stored entry goes back to the list', async ({ page, request }) => {
      const guest = await newGuest(request);
      await signedIn(page, guest, '/jail/live/try');
      await expect(page).toHaveURL(/\/reservations$/);
    });
  });
}

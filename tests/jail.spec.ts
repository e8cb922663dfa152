/**
 * The guest's jail screens against the built client and the real server
 * (SPEC §2 /jail/*), at a phone and a desktop size, each screen scanned with
 * axe. Speech is the browser's, replaced before the page loads by a
 * recording stand-in (headless Chromium has no voices).
 */
import { expect, test, type Page } from '@playwright/test';
import { checkA11y, createGuest, signedIn, VIEWPORTS, watchMissingTexts } from './helpers.ts';

/** Replaces `speechSynthesis` with one that records what it is asked to say (read with `spokenLines`). */
async function recordSpeech(page: Page) {
  await page.addInitScript(() => {
    const spoken: { text: string; lang: string }[] = [];
    Object.defineProperty(window, 'spokenLines', { value: spoken });
    Object.defineProperty(window, 'speechSynthesis', {
      value: {
        speak(utterance: SpeechSynthesisUtterance) {
          spoken.push({ text: utterance.text, lang: utterance.lang });
          setTimeout(() => utterance.onend?.(new Event('end') as SpeechSynthesisEvent), 0);
        },
        cancel() {},
      },
    });
  });
}

function spokenLines(page: Page) {
  return page.evaluate(() => (window as unknown as { spokenLines: { text: string; lang: string }[] }).spokenLines);
}

for (const { name, viewport } of VIEWPORTS) {
  test.describe(`jail screens at ${name}`, () => {
    test.use({ viewport, locale: 'en-US', serviceWorkers: 'block' });

    test('prep_before explains the sound and the camera; start says "Here we go" and goes on to the preparation', async ({ page, request }) => {
      const missing = watchMissingTexts(page);
      await recordSpeech(page);
      const guest = await createGuest(request);
      await signedIn(page, guest, '/jail/prep_before/42');
      await expect(page.getByRole('heading', { level: 1, name: 'Before your jail' })).toBeVisible();
      await expect(page.getByRole('heading', { level: 2, name: 'Sound' })).toBeVisible();
      await expect(page.getByRole('heading', { level: 2, name: 'Camera' })).toBeVisible();
      await checkA11y(page, '/jail/prep_before/:id');
      await page.getByRole('button', { name: 'Start' }).click();
      await expect(page).toHaveURL(/\/jail\/prep\/42$/);
      expect(await spokenLines(page)).toEqual([{ text: 'Here we go', lang: 'en-US' }]);
      expect(missing).toEqual([]);
    });

    test('a visitor is sent to the start page', async ({ page }) => {
      await page.goto('/jail/prep_before/42');
      await expect(page).toHaveURL(/\/$/);
    });
  });
}

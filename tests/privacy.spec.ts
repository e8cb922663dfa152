/**
 * The privacy page (privacy.html, docs/privacy.md) against the built client
 * and the real server: reached from the introduction, from sign-up beside the
 * terms and from the account menu, each time in a tab of its own and in the
 * app's language; at a phone and a desktop size, in English and Japanese,
 * scanned with axe (WCAG 2.1 AA) in light and dark; no sideways scroll from
 * 320 px; the terms and privacy pages link to each other. That its figures
 * are the code's is src/server/privacy-page.test.ts.
 */
import { expect, test, type BrowserContext, type Locator, type Page } from '@playwright/test';
import { checkA11y, checkA11yLightAndDark, createGuest, signInPage, VIEWPORTS, watchMissingTexts } from './helpers.ts';

const LANGUAGES = [
  { language: 'en', locale: 'en-US', title: 'Privacy', otherTitle: 'プライバシー', yourData: 'Your data', terms: 'Terms and Conditions' },
  { language: 'ja', locale: 'ja-JP', title: 'プライバシー', otherTitle: 'Privacy', yourData: 'あなたのデータ', terms: '利用規約' },
] as const;
type Language = (typeof LANGUAGES)[number];

/** Clicks `link`, which opens a tab of its own, and answers that tab once loaded. */
async function openedBy(context: BrowserContext, link: Locator): Promise<Page> {
  await expect(link).toHaveAttribute('target', '_blank');
  await expect(link).toHaveAttribute('rel', /noopener/);
  const [opened] = await Promise.all([context.waitForEvent('page'), link.click()]);
  await opened.waitForLoadState();
  return opened;
}

/** Whether the page scrolls sideways: `scrollWidth` past the window's width. */
function scrollsSideways(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
}

/** The page shows the part of `language` alone, with its links, passes axe in light and dark, and fits its width. */
async function expectPrivacyPage(page: Page, { language, title, otherTitle, yourData, terms }: Language) {
  await expect(page).toHaveURL(new RegExp(`/privacy\\.html#${language}$`));
  await expect(page).toHaveTitle(/Privacy/);
  await expect(page.getByRole('heading', { level: 1, name: title, exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: otherTitle, exact: true })).toBeHidden();
  const part = page.locator(`article#${language}`);
  await expect(part.getByRole('link', { name: yourData, exact: true })).toHaveAttribute('href', '/guest/data');
  await expect(part.getByRole('link', { name: terms, exact: true })).toHaveAttribute('href', `/terms.html#${language}`);
  await expect(part.getByRole('link', { name: /@/ })).toHaveAttribute('href', /^mailto:[^%\s]+@[^%\s]+$/);
  expect(await scrollsSideways(page)).toBe(false);
  await checkA11yLightAndDark(page, `/privacy.html#${language}`);
}

for (const { name, viewport } of VIEWPORTS) {
  for (const part of LANGUAGES) {
    test.describe(`privacy page at ${name} in ${part.language}`, () => {
      test.use({ viewport, locale: part.locale, serviceWorkers: 'block' });

      test('the introduction links to it', async ({ page, context }) => {
        const missing = watchMissingTexts(page);
        await page.goto('/');
        const link = page.getByRole('link', { name: part.title, exact: true });
        await expect(link).toHaveAttribute('href', `/privacy.html#${part.language}`);
        await checkA11y(page, `/ with the privacy link (${part.language})`);
        await expectPrivacyPage(await openedBy(context, link), part);
        expect(missing).toEqual([]);
      });

      test('sign-up links to it beside the terms', async ({ page, context }) => {
        const missing = watchMissingTexts(page);
        await page.goto('/signup');
        await expect(page.getByRole('link', { name: part.terms, exact: true })).toBeVisible();
        const link = page.getByRole('link', { name: part.title, exact: true });
        await expect(link).toHaveAttribute('href', `/privacy.html#${part.language}`);
        await checkA11y(page, `/signup with the privacy link (${part.language})`);
        await expectPrivacyPage(await openedBy(context, link), part);
        expect(missing).toEqual([]);
      });

      test('the account menu links to it', async ({ page, context, request }) => {
        const missing = watchMissingTexts(page);
        const guest = await createGuest(request, { language: part.language });
        await signInPage(page, guest);
        await page.goto('/guest/show');
        const link = page.getByRole('link', { name: part.title, exact: true });
        await expect(link).toHaveAttribute('href', `/privacy.html#${part.language}`);
        await checkA11y(page, `/guest/show with the privacy link (${part.language})`);
        await expectPrivacyPage(await openedBy(context, link), part);
        expect(missing).toEqual([]);
      });

      test('the terms and the privacy page link to each other', async ({ page }) => {
        await page.goto(`/terms.html#${part.language}`);
        await page.locator(`article#${part.language}`).getByRole('link', { name: part.title, exact: true }).click();
        await expectPrivacyPage(page, part);
        await page.locator(`article#${part.language}`).getByRole('link', { name: part.terms, exact: true }).click();
        await expect(page).toHaveURL(new RegExp(`/terms\\.html#${part.language}$`));
        await expect(page.getByRole('heading', { level: 1, name: part.terms, exact: true })).toBeVisible();
      });
    });
  }
}

test.describe('at 320 px', () => {
  test.use({ viewport: { width: 320, height: 568 }, serviceWorkers: 'block' });

  for (const path of ['/privacy.html', '/privacy.html#en', '/privacy.html#ja', '/terms.html#en', '/terms.html#ja']) {
    test(`${path} does not scroll sideways, light or dark`, async ({ page }) => {
      await page.goto(path);
      await expect(page.locator('h1:visible').first()).toBeVisible();
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme });
        expect(await scrollsSideways(page)).toBe(false);
      }
    });
  }
});

/**
 * The client shell against the built client and the real server: the access
 * rules (docs/client.md, Screens and routes), the language switch, the network banner, and the app
 * shell opening offline from the service worker; at a phone and a desktop
 * size, each screen scanned with axe (WCAG 2.1 AA).
 */
import { expect, type Locator, test } from '@playwright/test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { checkA11y, createGuest, signInPage, VIEWPORTS, watchMissingTexts } from './helpers.ts';
import { thisWorkersServer } from './servers.ts';

for (const { name, viewport } of VIEWPORTS) {
  test.describe(`shell at ${name}`, () => {
    test.use({ viewport, locale: 'en-US', serviceWorkers: 'block' });

    test('a visitor is sent to / except on the public paths', async ({ page }) => {
      const missing = watchMissingTexts(page);
      for (const path of ['/reservations', '/reservation/add', '/guest/show', '/rules', '/no/such/page']) {
        await page.goto(path);
        await expect(page, path).toHaveURL(/\/$/);
      }
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await checkA11y(page, '/ (visitor)');
      for (const path of ['/signin', '/signup', '/guest/resetPasswordEmail', '/guest/updatePassword/abc', '/guest/verifyEmail/abc']) {
        await page.goto(path);
        await expect(page, path).toHaveURL(new RegExp(`${path}$`));
      }
      expect(missing).toEqual([]);
    });

    test('a signed-in guest is sent from /, signin, signup and index.html to /reservations, with the navigation (a bar on a phone, a side column on a desktop) that marks the page shown and moves in place', async ({
      page,
      request,
    }) => {
      const missing = watchMissingTexts(page);
      const guest = await createGuest(request);
      await signInPage(page, guest);
      for (const path of ['/', '/signin', '/signup', '/index.html']) {
        await page.goto(path);
        await expect(page, path).toHaveURL(/\/reservations$/);
      }
      const navigation = page.getByRole('navigation', { name: 'Main' });
      await expect(navigation.getByRole('link', { name: 'Add booking' })).toBeVisible();
      await expect(navigation.getByRole('link', { name: 'List' })).toBeVisible();
      await expect(navigation.getByRole('link', { name: 'Progress' })).toBeVisible();
      await expect(navigation.getByRole('link', { name: 'Account' })).toBeVisible();
      // The bar of a phone keeps four; the side column of a desktop adds the forum and the rules.
      const wide = viewport.width >= 1024;
      await expect(navigation.getByRole('link', { name: 'Forum' })).toBeVisible({ visible: wide });
      await expect(navigation.getByRole('link', { name: 'Rules' })).toBeVisible({ visible: wide });
      for (const link of await navigation.getByRole('link').filter({ visible: true }).all()) {
        const box = await link.boundingBox();
        expect(box?.height, 'a touch target').toBeGreaterThanOrEqual(44);
        expect(box?.width, 'a touch target').toBeGreaterThanOrEqual(44);
      }
      const side = await navigation.boundingBox();
      if (wide) expect(side?.x, 'the side column').toBe(0);
      else expect((side?.y ?? 0) + (side?.height ?? 0), 'the bar at the foot').toBe(viewport.height);
      // The page shown is marked; following a link changes the page in place (a mark on the window survives it).
      await expect(navigation.getByRole('link', { name: 'List' })).toHaveAttribute('aria-current', 'page');
      await page.evaluate(() => Object.assign(window, { appMark: true }));
      await navigation.getByRole('link', { name: 'Progress' }).click();
      await expect(page).toHaveURL(/\/progress$/);
      await expect(navigation.getByRole('link', { name: 'Progress' })).toHaveAttribute('aria-current', 'page');
      await expect(navigation.getByRole('link', { name: 'List' })).not.toHaveAttribute('aria-current');
      expect(await page.evaluate(() => (window as { appMark?: boolean }).appMark)).toBe(true);
      await page.goto('/guest/verifyEmail/abc');
      await expect(page).toHaveURL(/\/guest\/verifyEmail\/abc$/);
      await page.goto('/reservations');
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(page.getByTestId('loading-overlay')).toHaveCount(0);
      await checkA11y(page, '/reservations (guest)');
      expect(missing).toEqual([]);
    });

    /** The banner's coloured stripe is drawn inside its rounded box, which clips it at the corners. */
    async function expectStripeInsideCorners(banner: Locator) {
      const look = await banner.locator('.network-banner-box').evaluate((box) => {
        const own = getComputedStyle(box);
        const stripe = getComputedStyle(box, '::before');
        return {
          clipped: own.overflowX === 'clip' && own.overflowY === 'clip',
          rounded: Number.parseFloat(own.borderTopLeftRadius) > 0,
          evenBorder: own.borderLeftWidth === own.borderTopWidth,
          stripe: { position: stripe.position, left: stripe.left, width: stripe.width },
        };
      });
      expect(look).toEqual({ clipped: true, rounded: true, evenBorder: true, stripe: { position: 'absolute', left: '0px', width: '6px' } });
    }

    test('in dark mode the frame, the navigation and the error banner pass axe', async ({ page, request }) => {
      await page.emulateMedia({ colorScheme: 'dark' });
      const guest = await createGuest(request);
      await signInPage(page, guest);
      await page.goto('/reservations');
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(page.getByTestId('loading-overlay')).toHaveCount(0);
      await checkA11y(page, '/reservations (dark)');
      await page.route('**/api/guest/read', (route) => route.fulfill({ status: 502, contentType: 'text/html', body: '<h1>Bad Gateway</h1>' }));
      await page.reload();
      await expect(page.getByRole('alertdialog')).toContainText('A server error occurred.');
      await expectStripeInsideCorners(page.getByRole('alertdialog'));
      await checkA11y(page, '/reservations with the banner (dark)');
    });

    test('the language switches between English and Japanese and is remembered', async ({ page }) => {
      const missing = watchMissingTexts(page);
      await page.goto('/');
      await expect(page.locator('html')).toHaveAttribute('lang', 'en');
      // A group of two radios, each language named in itself.
      await page.getByRole('group', { name: 'Language', exact: true }).getByRole('radio', { name: '日本語' }).check();
      await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
      await expect(page.getByRole('group', { name: '言語', exact: true }).getByRole('radio', { name: '日本語' })).toBeChecked();
      await checkA11y(page, '/ in Japanese');
      await page.reload();
      await expect(page.getByRole('group', { name: '言語', exact: true }).getByRole('radio', { name: '日本語' })).toBeChecked();
      await page.getByRole('group', { name: '言語', exact: true }).getByRole('radio', { name: 'English' }).check();
      await expect(page.locator('html')).toHaveAttribute('lang', 'en');
      await expect(page.getByRole('group', { name: 'Language', exact: true }).getByRole('radio', { name: 'English' })).toBeChecked();
      expect(missing).toEqual([]);
    });

    test("the app's chunks come with the page on the app's addresses, not on a visitor's first screen; the list's with the guest's home", async ({
      request,
    }) => {
      // The app's own chunk (`shell`) and the list's (`home`): vite.config.ts, pageChunkOf.
      const preloadsTheApp = /<link rel="modulepreload" crossorigin href="\/assets\/shell-[^"]+\.js">/;
      expect(await (await request.get('/')).text()).not.toMatch(preloadsTheApp);
      for (const path of ['/reservations', '/signin', '/reservation/12']) expect(await (await request.get(path)).text(), path).toMatch(preloadsTheApp);
      // The guest's home (home.html) comes with the list's chunks too; the app's other addresses without them.
      const preloadsTheList = /<link rel="modulepreload" crossorigin href="\/assets\/home-[^"]+\.js">/;
      expect(await (await request.get('/reservations')).text()).toMatch(preloadsTheList);
      for (const path of ['/', '/signin', '/reservation/12']) expect(await (await request.get(path)).text(), path).not.toMatch(preloadsTheList);
    });

    test("the frame's header paints from the page alone: its styles come in the page and no stylesheet is fetched for it", async ({ browser }) => {
      // Without scripts, what shows is what the page paints before they run.
      const context = await browser.newContext({ viewport, javaScriptEnabled: false, serviceWorkers: 'block' });
      const page = await context.newPage();
      const fetched: string[] = [];
      page.on('request', (request) => fetched.push(request.url()));
      for (const path of ['/', '/reservations', '/signin']) {
        await page.goto(path);
        await expect(page.locator('.app-header'), path).toHaveCSS('display', 'flex');
        // The brand's size comes from a design token: both sheets (tokens.css, then the app's) are in.
        await expect(page.locator('.brand'), path).toHaveCSS('min-height', /^\d+px$/);
        // The page's stylesheets are in <style> elements; their links stay (disabled, of a type no browser styles with) and are not fetched.
        const linked = await page
          .locator('link[rel="stylesheet"]')
          .evaluateAll((links) => links.map((link) => ({ href: (link as HTMLLinkElement).href, disabled: (link as HTMLLinkElement).disabled })));
        expect(linked.length, path).toBeGreaterThan(0);
        for (const { href, disabled } of linked) {
          expect(disabled, href).toBe(true);
          expect(fetched, href).not.toContain(href);
        }
      }
      await context.close();
    });

    test("a visitor's first screen hands over to the app in place: no page load, the language chosen there, and Back returns to it", async ({ page }) => {
      const missing = watchMissingTexts(page);
      await page.goto('/');
      // The first screen comes without the app (main.tsx); a mark on the window shows that going on does not load the page again.
      await page.evaluate(() => Object.assign(window, { firstScreenMark: true }));
      const stillTheSamePage = () => page.evaluate(() => (window as { firstScreenMark?: boolean }).firstScreenMark === true);
      await page.getByRole('group', { name: 'Language', exact: true }).getByRole('radio', { name: '日本語' }).check();
      await page.locator('.intro-dot').last().click();
      await page.locator('a[href="/signup"]').click();
      await expect(page).toHaveURL(/\/signup$/);
      await expect(page.locator('input[type="password"]').first()).toBeVisible();
      await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
      expect(await stillTheSamePage()).toBe(true);
      // The app shows the intro too, when the visitor comes back to it.
      await page.goBack();
      await expect(page).toHaveURL(/\/$/);
      await expect(page.getByRole('group', { name: '言語', exact: true }).getByRole('radio', { name: '日本語' })).toBeChecked();
      await page.locator('.intro-dot').last().click();
      await page.locator('a[href="/signin"]').click();
      await expect(page).toHaveURL(/\/signin$/);
      expect(await stillTheSamePage()).toBe(true);
      expect(missing).toEqual([]);
    });

    test("a refused session is forgotten and the server's message shows in the banner; OK clears it", async ({ page }) => {
      await signInPage(page, { id: 2_000_000_000, token: 'not-a-session' });
      await page.goto('/reservations');
      const banner = page.getByRole('alertdialog');
      await expect(banner).toContainText('You are signed out. Please sign in again.');
      await expectStripeInsideCorners(banner);
      // The device had a guest signed in: it is sent to sign in again rather than to the intro.
      await expect(page).toHaveURL(/\/signin$/);
      // One message: the overlay behind the banner is still, no spinner turns behind the error.
      await expect(page.getByTestId('loading-overlay')).toHaveCount(1);
      await expect(page.getByTestId('loading-overlay').locator('.loading-spinner')).toHaveCount(0);
      await checkA11y(page, '/ with the error banner');
      await banner.getByRole('button', { name: 'OK' }).click();
      await expect(banner).toHaveCount(0);
      await expect(page.getByTestId('loading-overlay')).toHaveCount(0);
    });

    test('a server failure (HTTP 5xx) shows that a server error occurred; the session holds', async ({ page, request }) => {
      const guest = await createGuest(request);
      // A proxy in front of the server failing: the answer is not the envelope.
      await page.route('**/api/guest/read', (route) => route.fulfill({ status: 502, contentType: 'text/html', body: '<h1>Bad Gateway</h1>' }));
      await signInPage(page, guest);
      await page.goto('/reservations');
      const banner = page.getByRole('alertdialog');
      await expect(banner).toContainText('A server error occurred.');
      await checkA11y(page, '/reservations with the server-error banner');
      // The server is back: OK clears the banner and the session still holds.
      await page.unroute('**/api/guest/read');
      await banner.getByRole('button', { name: 'OK' }).click();
      await expect(banner).toHaveCount(0);
      await expect(page).toHaveURL(/\/reservations$/);
      await page.reload();
      await expect(page.getByRole('heading', { level: 1, name: 'Your jails' })).toBeVisible();
      await expect(banner).toHaveCount(0);
    });
  });
}

test.describe('offline', () => {
  test.use({ serviceWorkers: 'allow', locale: 'en-US' });

  for (const { name, viewport } of VIEWPORTS) {
    test(`the app shell opens offline once loaded online (${name})`, async ({ page, context }) => {
      await page.setViewportSize(viewport);
      await page.goto('/');
      await page.evaluate(async () => {
        const registration = await navigator.serviceWorker.ready;
        return registration.active?.state;
      });
      // The manifest is linked and installable.
      const manifest = await page.locator('link[rel="manifest"]').getAttribute('href');
      expect(manifest).toBeTruthy();
      const body = (await (await page.request.get(manifest!)).json()) as { icons: { sizes: string; purpose?: string }[]; display: string };
      expect(body.display).toBe('standalone');
      expect(body.icons.map((icon) => `${icon.sizes} ${icon.purpose ?? 'any'}`).sort()).toEqual(['192x192 any', '512x512 any', '512x512 maskable']);

      await context.setOffline(true);
      await page.reload();
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      // Chromium 150's network emulation gives a document loaded while offline navigator.onLine = true
      // until the emulation changes (a device really offline says false): set it again so the page is told.
      await context.setOffline(false);
      await context.setOffline(true);
      await expect(page.getByRole('group', { name: 'Language', exact: true })).toBeVisible();
      // Offline reads as one calm notice: no error banner, no overlay over the page.
      await expect(page.getByRole('status').filter({ hasText: 'You are offline. Some screens need the internet.' })).toBeVisible();
      await expect(page.getByRole('alertdialog')).toHaveCount(0);
      await expect(page.getByTestId('loading-overlay')).toHaveCount(0);
      await checkA11y(page, '/ offline');
      await context.setOffline(false);
      await expect(page.getByText('You are offline. Some screens need the internet.')).toHaveCount(0);
      await expect(page.getByRole('status').filter({ hasText: 'You are back online.' })).toBeVisible();
      await expect(page.getByRole('alertdialog')).toHaveCount(0);
      await expect(page.getByText('You are back online.')).toHaveCount(0, { timeout: 10_000 });
    });
  }
});

test.describe('update', () => {
  test.use({ serviceWorkers: 'allow', locale: 'en-US' });

  test('a waiting update is offered, and accepting it reloads the page into it', async ({ page }) => {
    // This worker's server serves a copy of the build of its own (tests/servers.ts): the other worker's pages keep the old one.
    const sw = join(thisWorkersServer().distDir, 'sw.js');
    const original = readFileSync(sw, 'utf8');
    // The build writes compressed copies beside it, which the server sends to the browser (docs/server.md).
    const copies = [
      { path: `${sw}.br`, compress: brotliCompressSync },
      { path: `${sw}.gz`, compress: gzipSync },
    ].map((copy) => ({ ...copy, original: readFileSync(copy.path) }));
    try {
      await page.goto('/');
      await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
      // Once more, so that the page is controlled by the installed worker.
      await page.reload();
      await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);

      // A new build: the worker's bytes change.
      const updated = `${original}\n// update ${Date.now()}\n`;
      writeFileSync(sw, updated);
      for (const copy of copies) writeFileSync(copy.path, copy.compress(updated));
      const dialog = page.waitForEvent('dialog');
      const reloaded = page.waitForEvent('load', { timeout: 30_000 });
      await page.evaluate(() => navigator.serviceWorker.getRegistration().then((registration) => registration?.update()));
      const prompt = await dialog;
      expect(prompt.type()).toBe('confirm');
      expect(prompt.message()).toBe('A new version of Warden is available. Reload now?');
      await prompt.accept();
      await reloaded;
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    } finally {
      writeFileSync(sw, original);
      for (const copy of copies) writeFileSync(copy.path, copy.original);
    }
  });
});

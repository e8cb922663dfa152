/**
 * `npm run screens`: every route of the guest app and the warden console
 * (tests/routes.ts, the sweep's) rendered at a phone (390x844) and a desktop
 * (1280x800) size, in English and Japanese, light and dark, as full-page
 * PNGs named route-width-language-scheme.png, for review. Builds the client
 * when its sources are newer than the build, and runs the production server
 * on a throw-away database with the development routes (scripts/production.ts).
 *
 *   npm run screens                       # into screens/ (git-ignored)
 *   npm run screens -- --out /tmp/shots --dist dist-mine --only reservation
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';
import { chromiumWithCamera } from '../tests/chromium.ts';
import { animationsDone, go, setUpWorld, slug, tour } from '../tests/routes.ts';
import { ensureBuilt, startProduction } from './production.ts';

const SIZES = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
] as const;
const LANGUAGES = [
  { language: 'en', locale: 'en-US' },
  { language: 'ja', locale: 'ja-JP' },
] as const;
const SCHEMES = ['light', 'dark'] as const;

const { values: options } = parseArgs({
  options: {
    out: { type: 'string', default: 'screens' },
    dist: { type: 'string', default: 'dist' },
    /** Only the routes whose label contains this text. */
    only: { type: 'string' },
  },
});

const out = resolve(options.out);
mkdirSync(out, { recursive: true });
ensureBuilt(options.dist);
const server = await startProduction(options.dist);
const browser = await chromium.launch(chromiumWithCamera());
const started = Date.now();
let count = 0;
try {
  const world = await setUpWorld(server.url);
  for (const { language, locale } of LANGUAGES) {
    for (const size of SIZES) {
      const context = await browser.newContext({ baseURL: server.url, locale, viewport: size, serviceWorkers: 'block' });
      // The browser's clock on the server's (moved) time.
      await context.clock.install({ time: world.now });
      await context.clock.resume();
      const page = await context.newPage();
      // The signed-in routes need the visits before them (signing in): all are visited, only the chosen ones kept.
      for (const visit of tour(world)) {
        const problems = await go(page, visit);
        if (options.only !== undefined && !visit.label.includes(options.only)) continue;
        if (problems.length > 0) console.warn(`${visit.label} ${size.width} ${language}: ${problems.join('; ')}`);
        for (const colorScheme of SCHEMES) {
          await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
          await animationsDone(page);
          const file = join(out, `${slug(visit.label)}-${size.width}-${language}-${colorScheme}.png`);
          await page.screenshot({ path: file, fullPage: true, animations: 'disabled' });
          count += 1;
        }
      }
      await context.close();
    }
  }
} finally {
  await browser.close();
  await server.stop();
}
console.log(`${count} screens in ${out} (${Math.round((Date.now() - started) / 1000)} s)`);

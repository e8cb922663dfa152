/**
 * The sweep: every route of the guest app (as a visitor, then as a signed-in
 * guest with an upcoming and a finished jail) and the warden console (signed
 * out, then in), tests/routes.ts, at 320, 360, 390 and 1280 px, in English
 * and Japanese, in light and dark. On each: no sideways scroll
 * (`scrollWidth <= innerWidth`) and axe with no WCAG 2.1 AA violation. Every
 * failure is collected and the list printed (route, width, language, scheme,
 * what failed) before the test fails, so that one run names every screen to
 * fix. The live jail is left to tests/jail-live.spec.ts (tests/routes.ts).
 *
 * One browser context per language and part of the tour. Each route is
 * loaded once, at the narrowest width, then checked at each width in turn
 * (the page's viewport resized) and in both schemes (`emulateMedia` switches
 * them live): every axe rule in light, the rules that read colours again in
 * dark. The app lays its screens out in CSS alone (no script reads the
 * window's width), so a route resized to a width is the screen a page loaded
 * at that width shows; loading it once instead of four times halved the
 * sweep.
 */
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { axeViolations } from './axe.ts';
import { watchMissingTexts } from './helpers.ts';
import { animationsDone, go, setUpWorld, tourParts, type Visit, type World } from './routes.ts';
import { setClockOver } from '../src/server/test/server-process.ts';

const WIDTHS = [320, 360, 390, 1280] as const;
const LANGUAGES = [
  { language: 'en', locale: 'en-US' },
  { language: 'ja', locale: 'ja-JP' },
] as const;
const SCHEMES = ['light', 'dark'] as const;

/** The heights beside each width: a small phone, two common phones, a laptop. */
const HEIGHT_OF_WIDTH: Record<(typeof WIDTHS)[number], number> = { 320: 568, 360: 640, 390: 844, 1280: 800 };

/** The tour is cut into this many parts per language, each a test of its own, so that the workers share it. */
const PARTS = 3;

/**
 * The rules of WCAG 2.1 AA that read colours. A scheme changes only colours
 * (the page's DOM, names, roles and layout are the same in both), so the
 * first scheme is checked against every rule and the second against these.
 */
const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

// A trace would snapshot every page axe scans: the sweep is slow enough without.
test.use({ trace: 'off' });

/** Set up by the first test a worker runs, for its others: each worker has a server of its own (tests/servers.ts). */
let world: Promise<World> | undefined;

test.afterAll(async ({ playwright }, testInfo) => {
  const request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  await request.post('/dev/clock', { data: { offsetMs: 0 } });
  await request.dispose();
});

interface Failure {
  route: string;
  /** The width checked ('360 px'), or where else the problem arose. */
  width: string;
  language: string;
  scheme: string;
  problem: string;
}

/** `scrollWidth > innerWidth`, with the elements that reach past the right edge, or null when it fits. */
async function sidewaysScroll(page: Page): Promise<string | null> {
  return page.evaluate(() => {
    const { scrollWidth } = document.documentElement;
    if (scrollWidth <= window.innerWidth) return null;
    const selectorOf = (element: Element) =>
      `${element.tagName.toLowerCase()}${element.id === '' ? '' : `#${element.id}`}${[...element.classList].map((name) => `.${name}`).join('')}`;
    const pastEdge = (element: Element) => element.getBoundingClientRect().right > window.innerWidth + 0.5;
    // What pushes the page wider: elements past the edge that also overflow their parent's box (not the boxes they stretch).
    const overflowsParent = (element: Element) => {
      const parent = element.parentElement;
      if (parent === null) return true;
      const style = getComputedStyle(parent);
      const contentRight = parent.getBoundingClientRect().right - Number.parseFloat(style.paddingRight) - Number.parseFloat(style.borderRightWidth);
      return element.getBoundingClientRect().right > contentRight + 0.5;
    };
    const past = [...document.body.querySelectorAll('*')].filter(pastEdge);
    const pushing = past.filter(overflowsParent);
    const wide = pushing.length > 0 ? pushing.reverse() : past.filter((element) => ![...element.children].some(pastEdge));
    const culprits = wide.slice(0, 3).map((element) => `${selectorOf(element)} (right ${Math.round(element.getBoundingClientRect().right)})`);
    return `scrollWidth ${scrollWidth} > ${window.innerWidth}${culprits.length > 0 ? `: ${culprits.join(', ')}` : ''}`;
  });
}

/** Checks the page as it is in both schemes, telling `fail` each problem. */
async function checkSchemes(page: Page, fail: (scheme: string, problem: string) => void): Promise<void> {
  for (const colorScheme of SCHEMES) {
    await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
    await animationsDone(page);
    const scroll = await sidewaysScroll(page);
    if (scroll !== null) fail(colorScheme, scroll);
    for (const { id, targets } of await axeViolations(page, colorScheme === SCHEMES[0] ? 'all' : COLOUR_RULES)) {
      fail(colorScheme, `axe ${id} ×${targets.length}: ${targets.slice(0, 3).join(', ')}${targets.length > 3 ? ', …' : ''}`);
    }
  }
}

/** Loads `visit` at the narrowest width and checks it at every width in both schemes; answers what failed. `missing` is the page's watch for missing texts. */
async function check(page: Page, visit: Visit, language: string, missing: string[]): Promise<Failure[]> {
  const failures: Failure[] = [];
  missing.length = 0;
  await page.setViewportSize({ width: WIDTHS[0], height: HEIGHT_OF_WIDTH[WIDTHS[0]] });
  await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' });
  for (const problem of await go(page, visit)) failures.push({ route: visit.label, width: `loaded at ${WIDTHS[0]} px`, language, scheme: 'both', problem });
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: HEIGHT_OF_WIDTH[width] });
    await checkSchemes(page, (scheme, problem) => failures.push({ route: visit.label, width: `${width} px`, language, scheme, problem }));
  }
  for (const text of new Set(missing)) failures.push({ route: visit.label, width: 'any width', language, scheme: 'both', problem: text });
  return failures;
}

async function newContext(browser: Browser, locale: string, now: number): Promise<BrowserContext> {
  const context = await browser.newContext({ locale, serviceWorkers: 'block' });
  // The browser's clock on the server's (moved) time.
  await context.clock.install({ time: now });
  await context.clock.resume();
  return context;
}

function format(failures: Failure[]): string {
  return failures.map((failure) => `${failure.route} | ${failure.width} | ${failure.language} | ${failure.scheme} | ${failure.problem}`).join('\n');
}

test.describe('sweep: every route, both languages, both schemes', () => {
  // Each language's part of the tour is a test of its own, spread over the workers: together they are the suite's longest file.
  test.describe.configure({ mode: 'parallel' });
  for (const { language, locale } of LANGUAGES) {
    for (let part = 0; part < PARTS; part += 1) {
      test(`${language} at every width, part ${part + 1} of ${PARTS} of the tour`, async ({ browser, baseURL }) => {
        test.setTimeout(10 * 60_000);
        if (baseURL === undefined) throw new Error('playwright.config.ts sets baseURL');
        world ??= setUpWorld(baseURL);
        const { now } = await world;
        // The server's clock on the world's time again: between two of these tests the worker may have put it back (afterAll).
        await setClockOver(baseURL, now);
        const context = await newContext(browser, locale, now);
        const page = await context.newPage();
        const missing = watchMissingTexts(page);
        const failures: Failure[] = [];
        for (const visit of tourParts(await world, PARTS)[part] ?? []) failures.push(...(await check(page, visit, language, missing)));
        await context.close();

        const where = `${language}, part ${part + 1} of ${PARTS}`;
        if (failures.length > 0) console.log(`\nSweep failures, ${where} (${failures.length}):\n${format(failures)}\n`);
        expect(failures.length, `sweep failures, ${where}:\n${format(failures)}`).toBe(0);
      });
    }
  }
});

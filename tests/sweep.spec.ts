/**
 * The sweep: every route of the guest app (as a visitor, then as a signed-in
 * guest with an upcoming and a finished jail) and the warden console (signed
 * out, then in), at 320, 360, 390 and 1280 px, in English and Japanese, in
 * light and dark. On each: no sideways scroll (`scrollWidth <= innerWidth`)
 * and axe with no WCAG 2.1 AA violation. Every failure is collected and the
 * list printed (route, width, language, scheme, what failed) before the test
 * fails, so that one run names every screen to fix.
 *
 * One browser context per language and width; each route is loaded once and
 * checked in both schemes (`emulateMedia` switches them live). The live jail
 * (/jail/live/:id, /jail/live/try) needs a running jail and is checked by
 * tests/jail-live.spec.ts, tests/jail.spec.ts and tests/try-anyway.spec.ts.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, test, type APIRequestContext, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { book, createWarden, HOUR, readyGuest, signInPage, type TestGuest, WCAG_AA_TAGS, watchMissingTexts } from './helpers.ts';

const WIDTHS = [320, 360, 390, 1280] as const;
const LANGUAGES = [
  { language: 'en', locale: 'en-US' },
  { language: 'ja', locale: 'ja-JP' },
] as const;
const SCHEMES = ['light', 'dark'] as const;

/** The heights beside each width: a small phone, two common phones, a laptop. */
const HEIGHT_OF_WIDTH: Record<(typeof WIDTHS)[number], number> = { 320: 568, 360: 640, 390: 844, 1280: 800 };

const PATROL_IMAGE = `data:image/jpeg;base64,${readFileSync(new URL('../src/server/jail/fixtures/canvas-40x30.jpg', import.meta.url)).toString('base64')}`;

/**
 * axe itself, the copy @axe-core/playwright runs. The sweep loads it into each
 * page once, as an init script, and runs it in the page: AxeBuilder injects
 * it again and opens a blank page on every scan, which made the sweep three
 * times slower. Same engine, same tags (tests/helpers.ts, checkA11y).
 */
const AXE_SOURCE = readFileSync(createRequire(createRequire(import.meta.url).resolve('@axe-core/playwright')).resolve('axe-core/axe.min.js'), 'utf8');

interface Violation {
  id: string;
  nodes: { target: unknown[] }[];
}

/** The WCAG 2.1 AA violations on the page (the page's context has AXE_SOURCE as an init script). */
function violations(page: Page): Promise<Violation[]> {
  return page.evaluate(async (tags) => {
    const { axe } = window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: Violation[] }> } };
    const results = await axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return results.violations.map(({ id, nodes }) => ({ id, nodes: nodes.map(({ target }) => ({ target })) }));
  }, WCAG_AA_TAGS);
}

/** What the sweep sets up once: a guest with an upcoming and a finished jail, a warden, and the server's time. */
interface World {
  guest: TestGuest;
  upcomingId: number;
  finishedId: number;
  wardenToken: string;
  now: number;
}

interface Visit {
  /** How the route is named in the failure list. */
  label: string;
  path: string;
  /** Brings the screen into a state worth checking too (a form opened). */
  open?: (page: Page) => Promise<void>;
}

const VISITOR_ROUTES: Visit[] = [
  { label: '/', path: '/' },
  { label: '/signin', path: '/signin' },
  { label: '/signup', path: '/signup' },
  { label: '/guest/resetPasswordEmail', path: '/guest/resetPasswordEmail' },
  { label: '/guest/updatePassword/:token', path: '/guest/updatePassword/not-a-token' },
  { label: '/guest/verifyEmail/:token (refused)', path: '/guest/verifyEmail/not-a-token' },
  { label: '/guest/loginAsLimFacilitator/:token/:guestId (refused)', path: `/guest/loginAsLimFacilitator/${'x'.repeat(43)}/1` },
  { label: '/camera-check', path: '/camera-check' },
];

function guestRoutes({ upcomingId, finishedId }: World): Visit[] {
  return [
    { label: '/reservations', path: '/reservations' },
    { label: '/reservation/add', path: '/reservation/add' },
    { label: '/reservation/added', path: '/reservation/added' },
    { label: '/reservation/:id (upcoming)', path: `/reservation/${upcomingId}` },
    { label: '/reservation/:id (finished, report)', path: `/reservation/${finishedId}` },
    { label: '/reservation/edit/:id', path: `/reservation/edit/${upcomingId}` },
    { label: '/reservation/edited/:id', path: `/reservation/edited/${upcomingId}` },
    { label: '/reservation/remove/:id', path: `/reservation/remove/${upcomingId}` },
    { label: '/reservation/removed', path: '/reservation/removed' },
    { label: '/rules', path: '/rules' },
    { label: '/guest/show', path: '/guest/show' },
    { label: '/guest/edit', path: '/guest/edit' },
    { label: '/guest/editTitle', path: '/guest/editTitle' },
    { label: '/guest/editEmail', path: '/guest/editEmail' },
    { label: '/guest/editPhone', path: '/guest/editPhone' },
    { label: '/guest/edited', path: '/guest/edited' },
    { label: '/guest/verifyEmail/:token (signed in, refused)', path: '/guest/verifyEmail/not-a-token' },
    { label: '/jail/prep_before/:id', path: `/jail/prep_before/${upcomingId}` },
    { label: '/jail/prep/:id', path: `/jail/prep/${upcomingId}` },
    { label: '/subscription', path: '/subscription' },
    {
      label: '/subscription (card form)',
      path: '/subscription',
      open: (page) => page.getByTestId('plan-light').getByRole('button').first().click(),
    },
    { label: '/userForum', path: '/userForum' },
    { label: '/collaboration', path: '/collaboration' },
    { label: '/filters', path: '/filters' },
    { label: '/camera-check (signed in)', path: '/camera-check' },
  ];
}

async function setUp(request: APIRequestContext): Promise<World> {
  const guest = await readyGuest(request);
  const finished = await book(request, guest, 1);
  const upcoming = await book(request, guest, 4);
  const logs = [
    { type: 'dialog', time: finished.startTime + 1_000, dialog: { type: 1, text: 'Good luck with the report.' } },
    { type: 'patrol', time: finished.startTime + 60_000, patrol: { data: PATROL_IMAGE } },
    { type: 'motion', time: finished.startTime + 10 * 60_000, motion: { type: 1, kind: 'nodding' } },
    { type: 'dialog', time: finished.startTime + 11 * 60_000, dialog: { type: 0, text: 'I am awake.' } },
    { type: 'motion', time: finished.startTime + 20 * 60_000, motion: { type: 1, kind: 'darkness' } },
    { type: 'patrol', time: finished.startTime + 30 * 60_000, patrol: { data: PATROL_IMAGE } },
  ];
  expect((await request.post('/dev/activity-logs', { data: { reservationId: finished.id, logs } })).status()).toBe(200);
  // The server's time a day after the first jail: it has finished (with its report), the second is days ahead.
  const now = finished.startTime + 24 * HOUR;
  expect((await request.post('/dev/clock', { data: { offsetMs: now - Date.now() } })).ok()).toBe(true);

  const warden = await createWarden(request);
  const answer = await request.post('/api/warden/authenticate', {
    data: { api: { language: 'en' }, warden: { email: warden.email, password: warden.password } },
  });
  const { warden: signedIn } = (await answer.json()) as { warden: { token: string } };
  return { guest, upcomingId: upcoming.id, finishedId: finished.id, wardenToken: signedIn.token, now };
}

// A trace would snapshot every page axe scans: the sweep is slow enough without.
test.use({ trace: 'off' });

let world: World | undefined;

test.beforeAll(async ({ playwright }, testInfo) => {
  const request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  world = await setUp(request);
  await request.dispose();
});

test.afterAll(async ({ playwright }, testInfo) => {
  const request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  await request.post('/dev/clock', { data: { offsetMs: 0 } });
  await request.dispose();
});

interface Failure {
  route: string;
  width: number;
  language: string;
  scheme: string;
  problem: string;
}

/** Waits until the screen has its heading, its data (no loading overlay, unless an error shows) and its fonts. */
async function settle(page: Page): Promise<string[]> {
  const problems: string[] = [];
  await page
    .locator('h1')
    .first()
    .waitFor({ state: 'visible', timeout: 10_000 })
    .catch(() => problems.push('no visible h1 within 10 s'));
  await page
    .waitForFunction(() => document.querySelector('.loading-overlay') === null || document.querySelector('[role="alertdialog"]') !== null, undefined, {
      timeout: 10_000,
    })
    .catch(() => problems.push('still loading after 10 s'));
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  return problems;
}

/** Lets the finite animations and transitions (a scheme's colours fading in) end, so that axe sees the final colours. */
async function animationsDone(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const finite = document.getAnimations().filter((animation) => animation.effect?.getComputedTiming().endTime !== Number.POSITIVE_INFINITY);
    await Promise.all(finite.map((animation) => animation.finished.catch(() => undefined)));
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  });
}

/** `scrollWidth > innerWidth`, with the elements that reach past the right edge, or null when it fits. */
async function sidewaysScroll(page: Page): Promise<string | null> {
  return page.evaluate(() => {
    const { scrollWidth } = document.documentElement;
    if (scrollWidth <= window.innerWidth) return null;
    const selectorOf = (element: Element) =>
      `${element.tagName.toLowerCase()}${element.id === '' ? '' : `#${element.id}`}${[...element.classList].map((name) => `.${name}`).join('')}`;
    const pastEdge = (element: Element) => element.getBoundingClientRect().right > window.innerWidth + 0.5;
    // The innermost elements past the edge: what pushes the page wider, not the boxes it stretches.
    const wide = [...document.body.querySelectorAll('*')].filter((element) => pastEdge(element) && ![...element.children].some(pastEdge));
    const culprits = wide.slice(0, 3).map((element) => `${selectorOf(element)} (right ${Math.round(element.getBoundingClientRect().right)})`);
    return `scrollWidth ${scrollWidth} > ${window.innerWidth}${culprits.length > 0 ? `: ${culprits.join(', ')}` : ''}`;
  });
}

/** Loads `visit` and checks it in both schemes; answers what failed. `missing` is the page's watch for missing texts. */
async function check(page: Page, visit: Visit, where: Omit<Failure, 'route' | 'scheme' | 'problem'>, missing: string[]): Promise<Failure[]> {
  const failures: Failure[] = [];
  const fail = (scheme: string, problem: string) => failures.push({ route: visit.label, scheme, problem, ...where });
  missing.length = 0;
  await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' });
  await page.goto(visit.path);
  for (const problem of await settle(page)) fail('both', problem);
  if (visit.open !== undefined) {
    await visit.open(page).catch((error: unknown) => fail('both', `could not open the state: ${String(error).split('\n')[0]}`));
    await settle(page);
  }
  const path = new URL(page.url()).pathname;
  if (path !== new URL(visit.path, page.url()).pathname) fail('both', `redirected to ${path}`);
  for (const colorScheme of SCHEMES) {
    await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
    await animationsDone(page);
    const scroll = await sidewaysScroll(page);
    if (scroll !== null) fail(colorScheme, scroll);
    for (const violation of await violations(page)) {
      const targets = violation.nodes.slice(0, 3).map((node) => node.target.join(' '));
      fail(colorScheme, `axe ${violation.id} ×${violation.nodes.length}: ${targets.join(', ')}${violation.nodes.length > 3 ? ', …' : ''}`);
    }
  }
  for (const text of new Set(missing)) fail('both', text);
  return failures;
}

async function newContext(browser: Browser, locale: string, width: (typeof WIDTHS)[number], now: number): Promise<BrowserContext> {
  const context = await browser.newContext({ locale, viewport: { width, height: HEIGHT_OF_WIDTH[width] }, serviceWorkers: 'block' });
  await context.addInitScript({ content: AXE_SOURCE });
  // The browser's clock on the server's (moved) time.
  await context.clock.install({ time: now });
  await context.clock.resume();
  return context;
}

function format(failures: Failure[]): string {
  return failures.map((failure) => `${failure.route} | ${failure.width} px | ${failure.language} | ${failure.scheme} | ${failure.problem}`).join('\n');
}

test.describe('sweep: every route, both languages, both schemes', () => {
  for (const { language, locale } of LANGUAGES) {
    for (const width of WIDTHS) {
      test(`${language} at ${width} px`, async ({ browser }) => {
        test.setTimeout(10 * 60_000);
        if (world === undefined) throw new Error('beforeAll sets the world up');
        const { guest, wardenToken, now } = world;
        const context = await newContext(browser, locale, width, now);
        const page = await context.newPage();
        const missing = watchMissingTexts(page);
        const where = { width, language };
        const failures: Failure[] = [];

        for (const visit of VISITOR_ROUTES) failures.push(...(await check(page, visit, where, missing)));
        await signInPage(page, guest);
        for (const visit of guestRoutes(world)) failures.push(...(await check(page, visit, where, missing)));

        failures.push(...(await check(page, { label: '/warden (signed out)', path: '/warden' }, where, missing)));
        await page.evaluate((token) => sessionStorage.setItem('warden-console-token', token), wardenToken);
        failures.push(...(await check(page, { label: '/warden (signed in)', path: '/warden' }, where, missing)));
        await context.close();

        if (failures.length > 0) console.log(`\nSweep failures, ${language} at ${width} px (${failures.length}):\n${format(failures)}\n`);
        expect(failures.length, `sweep failures, ${language} at ${width} px:\n${format(failures)}`).toBe(0);
      });
    }
  }
});

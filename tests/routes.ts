/**
 * Every route of the guest app and the warden console, in the order one page
 * can visit them (as a visitor, then signed in as a guest, then the console
 * signed out and in), with the data they need: shared by the sweep
 * (tests/sweep.spec.ts) and the screenshots (`npm run screens`,
 * scripts/screens.ts). The live jail (/jail/live/:id, /jail/live/try) needs a
 * running jail and is left to tests/jail-live.spec.ts, tests/jail.spec.ts and
 * tests/try-anyway.spec.ts.
 */
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { postApi, readyGuestOver, setClockOver } from '../src/server/test/server-process.ts';
import { signInWarden } from '../src/server/test/wardens.ts';
import { signInPage, tokyoTime } from './helpers.ts';

const DAY = 24 * 3_600_000;

const PATROL_IMAGE = `data:image/jpeg;base64,${readFileSync(new URL('../src/server/jail/fixtures/canvas-40x30.jpg', import.meta.url)).toString('base64')}`;

/** The console keeps its session in the tab (src/client/warden/api.ts, savedToken). */
const WARDEN_TOKEN_KEY = 'warden-console-token';

/** What the routes need: a guest with an upcoming and a finished jail (with a report), a warden's session, the server's time. */
export interface World {
  guest: { id: number; token: string };
  upcomingId: number;
  finishedId: number;
  wardenToken: string;
  /** The server's (moved) time: the browser's clock is set to it. */
  now: number;
}

export interface Visit {
  /** How the route is named in reports; its file name is made from it. */
  label: string;
  path: string;
  /** Run on the page (on the app's origin) before it goes to `path`: signing in. */
  before?: (page: Page) => Promise<void>;
  /** Brings the screen into a state worth seeing too (a form opened). */
  open?: (page: Page) => Promise<void>;
}

async function ok(response: Promise<Response>, what: string): Promise<Response> {
  const done = await response;
  if (!done.ok) throw new Error(`${what} answered ${done.status}: ${await done.text()}`);
  return done;
}

function postJson(url: string, body: unknown): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

/** Books one hour at 10:00 Tokyo time `daysAhead` days from now. */
async function bookAt(baseUrl: string, guest: World['guest'], daysAhead: number): Promise<{ id: number; startTime: number }> {
  const startTime = tokyoTime(daysAhead, 10);
  const answer = await postApi(baseUrl, '/reservation/create', {
    guest,
    reservation: { work: 'Write the report', duration: 1, startTime, repeatType: 'none' },
  });
  if (answer.api.status !== 'success') throw new Error(`booking failed: ${answer.api.errorMessage ?? ''}`);
  return answer.reservation as { id: number; startTime: number };
}

/**
 * Sets the world up on a server with the development routes (WARDEN_DEV=1,
 * TRUST_PROXY=1) and moves its clock a day on: the first jail has finished
 * with a report, the second is days ahead. Put the clock back with
 * `POST /dev/clock {offsetMs: 0}` when done.
 */
export async function setUpWorld(baseUrl: string): Promise<World> {
  const guest = await readyGuestOver(baseUrl);
  const finished = await bookAt(baseUrl, guest, 1);
  const upcoming = await bookAt(baseUrl, guest, 4);
  const at = (minutes: number) => finished.startTime + minutes * 60_000;
  const logs = [
    { type: 'dialog', time: at(0), dialog: { type: 1, text: 'Good luck with the report.' } },
    { type: 'patrol', time: at(1), patrol: { data: PATROL_IMAGE } },
    { type: 'motion', time: at(10), motion: { type: 1, kind: 'nodding' } },
    { type: 'dialog', time: at(11), dialog: { type: 0, text: 'I am awake.' } },
    { type: 'motion', time: at(20), motion: { type: 1, kind: 'darkness' } },
    { type: 'patrol', time: at(30), patrol: { data: PATROL_IMAGE } },
  ];
  await ok(postJson(`${baseUrl}/dev/activity-logs`, { reservationId: finished.id, logs }), 'POST /dev/activity-logs');
  const now = finished.startTime + DAY;
  await setClockOver(baseUrl, now);

  const title = `warden${Date.now().toString(36)}`;
  const email = `${title}@example.com`;
  const created = await ok(postJson(`${baseUrl}/dev/admin`, { args: ['create-warden', '--title', title, '--email', email] }), 'create-warden');
  const { lines } = (await created.json()) as { lines: string[] };
  const password = /: (\S+)$/.exec(lines[1] ?? '')?.[1];
  if (password === undefined) throw new Error(`no password in ${lines.join('\n')}`);
  const { token: wardenToken } = await signInWarden(
    async (path, body) => {
      const answer = await postApi(baseUrl, path, body);
      if (answer.api.status !== 'success') throw new Error(`warden sign-in failed: ${answer.api.errorMessage ?? ''}`);
      return answer;
    },
    { email, password },
  );
  return { guest, upcomingId: upcoming.id, finishedId: finished.id, wardenToken, now };
}

/** Every route, in the order one page visits them. */
export function tour({ guest, upcomingId, finishedId, wardenToken }: World): Visit[] {
  return [
    { label: '/ (intro)', path: '/' },
    { label: '/signin', path: '/signin' },
    { label: '/signup', path: '/signup' },
    { label: '/guest/resetPasswordEmail', path: '/guest/resetPasswordEmail' },
    { label: '/guest/updatePassword/:token', path: '/guest/updatePassword/not-a-token' },
    { label: '/guest/verifyEmail/:token (refused)', path: '/guest/verifyEmail/not-a-token' },
    { label: '/guest/loginAsLimFacilitator/:token/:guestId (refused)', path: `/guest/loginAsLimFacilitator/${'x'.repeat(43)}/1` },
    { label: '/camera-check', path: '/camera-check' },
    // The pages beside the app, both languages at once (the app links to one part: tests/privacy.spec.ts).
    { label: '/terms.html', path: '/terms.html' },
    { label: '/privacy.html', path: '/privacy.html' },
    { label: '/guest/deleted', path: '/guest/deleted' },

    { label: '/reservations', path: '/reservations', before: (page) => signInPage(page, guest) },
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
    { label: '/progress', path: '/progress' },
    { label: '/reminders', path: '/reminders' },
    {
      label: '/reminders (new address)',
      path: '/reminders',
      open: (page) => page.locator('.reminders-card .button').first().click(),
    },
    { label: '/filters', path: '/filters' },
    { label: '/guest/data', path: '/guest/data' },
    {
      label: '/guest/data (confirm deletion)',
      path: '/guest/data',
      open: async (page) => {
        await page.locator('.privacy-delete-form input[type="password"]').fill('not the password');
        await page.locator('.privacy-delete-form button[type="submit"]').click();
      },
    },
    { label: '/camera-check (signed in)', path: '/camera-check' },

    { label: '/warden (signed out)', path: '/warden' },
    {
      label: '/warden (signed in)',
      path: '/warden',
      before: (page) => page.evaluate(([key, token]) => sessionStorage.setItem(key, token), [WARDEN_TOKEN_KEY, wardenToken] as const),
    },
  ];
}

/**
 * The tour cut into `count` parts of about equal length, each for a page of
 * its own: a part that begins after a sign-in begins with that sign-in (its
 * first visit runs the last `before` of the visits ahead of it, unless it
 * has one of its own).
 */
export function tourParts(world: World, count: number): Visit[][] {
  const visits = tour(world);
  const size = Math.ceil(visits.length / count);
  const parts: Visit[][] = [];
  let session: Visit['before'];
  for (const [index, visit] of visits.entries()) {
    if (index % size === 0) parts.push([{ ...visit, before: visit.before ?? session }]);
    else parts.at(-1)?.push(visit);
    session = visit.before ?? session;
  }
  return parts;
}

/** A file name for a route's label: '/reservation/:id (upcoming)' → 'reservation-id-upcoming'. */
export function slug(label: string): string {
  return label
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/**
 * Goes to the visit's route and waits until the screen has its heading, its
 * data (no loading overlay, unless an error shows) and its fonts, then opens
 * its state; answers what went wrong on the way.
 */
export async function go(page: Page, visit: Visit): Promise<string[]> {
  const problems: string[] = [];
  await visit.before?.(page);
  await page.goto(visit.path);
  const settle = async () => {
    // The first visible one: a page in two languages (terms.html) hides the other language's heading.
    await page
      .locator('h1:visible')
      .first()
      .waitFor({ state: 'visible', timeout: 10_000 })
      .catch(() => problems.push('no visible h1 within 10 s'));
    await page
      .waitForFunction(() => document.querySelector('.loading-overlay') === null || document.querySelector('[role="alertdialog"]') !== null, undefined, {
        timeout: 10_000,
      })
      .catch(() => problems.push('still loading after 10 s'));
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
  };
  await settle();
  if (visit.open !== undefined) {
    await visit.open(page).catch((error: unknown) => problems.push(`could not open the state: ${String(error).split('\n')[0]}`));
    await settle();
  }
  const path = new URL(page.url()).pathname;
  if (path !== new URL(visit.path, page.url()).pathname) problems.push(`redirected to ${path}`);
  return problems;
}

/** Lets the finite animations and transitions (a colour scheme fading in) end. */
export async function animationsDone(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const finite = document.getAnimations().filter((animation) => animation.effect?.getComputedTiming().endTime !== Number.POSITIVE_INFINITY);
    await Promise.all(finite.map((animation) => animation.finished.catch(() => undefined)));
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  });
}

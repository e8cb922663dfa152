/**
 * A live jail through a restart of its server (docs/jail.md, Restarts):
 * this spec starts a server of its own (not playwright.config.ts's), on
 * PGlite in a data directory of its own, behind one address that stands for
 * a load balancer (src/server/test/tcp-proxy.ts: it takes no connection
 * while the server is away, so that the server's test clock is set again
 * before anyone reconnects). A guest's live page and a warden's console are
 * open; the server stops (SIGTERM) or dies (SIGKILL); the guest taps a
 * command meanwhile; the server comes back on the same data. Both pages
 * reconnect by themselves without a reload, the command is stored once,
 * and the console shows the guest as the page does.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { ROOT_DIR } from '../src/server/config.ts';
import type { ActivityLogEntry } from '../src/shared/relay.ts';
import { freePort } from '../src/server/test/server-process.ts';
import { TcpProxy } from '../src/server/test/tcp-proxy.ts';
import { book, call, createWarden, freshAddress, readyGuest, signedIn, signInToConsole, watchMissingTexts } from './helpers.ts';
import { startFromTemplate } from './servers.ts';
import { recordSpeech } from './speech.ts';

const LEAVE_ANSWER = 'All right. Please be back within 5 minutes.';
const GUEST_RECONNECTING = 'The connection to the Warden was lost. Reconnecting…';
const CONSOLE_RECONNECTING = 'The connection to the relay was lost. Reconnecting…';

let dataDir = '';
let port = 0;
let proxy: TcpProxy;
let server: ChildProcess | null = null;
/** What the server printed, for a failure's message. */
let output: string[] = [];

/** The server as `npm start` runs it after the build, on this spec's data, reached through the proxy, answering within `withinMs`. */
async function startServer(withinMs = 60_000): Promise<void> {
  output = [];
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: ROOT_DIR,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      DIST_DIR: process.env.DIST_DIR ?? 'dist',
      PUBLIC_URL: proxy.url,
      TRUST_PROXY: '1',
      WARDEN_DEV: '1',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  server = child;
  const deadline = Date.now() + withinMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}:\n${output.join('')}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/health`)).ok) return;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`the server did not answer /api/health:\n${output.join('')}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Sets the server's clock `offsetMs` ahead of real time, straight to the server (the proxy may be taking no connection). */
async function setServerClock(offsetMs: number): Promise<void> {
  const response = await fetch(`http://127.0.0.1:${port}/dev/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ offsetMs }),
  });
  expect(response.ok, 'POST /dev/clock').toBe(true);
}

/** Sends `signal` to the server and resolves once it has gone. */
function stopServer(signal: 'SIGTERM' | 'SIGKILL'): Promise<void> {
  const child = server;
  if (child === null || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}

test.beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'warden-restart-e2e-'));
  startFromTemplate(dataDir);
  port = await freePort();
  proxy = await TcpProxy.start([port]);
  // A start can take a minute or more on a busy machine, as playwright.config.ts allows its own servers.
  test.setTimeout(240_000);
  await startServer(180_000);
});

test.afterAll(async () => {
  await stopServer('SIGKILL');
  await proxy.close();
  rmSync(dataDir, { recursive: true, force: true });
});

test.use({ viewport: { width: 1280, height: 800 }, locale: 'en-US', serviceWorkers: 'block' });

function commandButtons(page: Page) {
  return page.getByRole('region', { name: 'Commands' }).getByRole('button');
}

function liveStatus(page: Page) {
  return page.locator('.jail-screen').getByRole('status');
}

async function logsOf(request: APIRequestContext, guest: { id: number; token: string }, reservationId: number): Promise<ActivityLogEntry[]> {
  const answer = await call(request, '/reservation/read', { guest: { id: guest.id, token: guest.token }, reservation: { id: reservationId } });
  expect(answer.api).toEqual({ status: 'success' });
  return (answer.reservation as { activityLogs: ActivityLogEntry[] }).activityLogs;
}

const saidCount = (logs: ActivityLogEntry[], text: string) => logs.filter((log) => log.type === 'dialog' && log.dialog.text === text).length;

for (const [signal, daysAhead] of [
  ['SIGTERM', 1],
  ['SIGKILL', 2],
] as const) {
  test(`${signal}: the live page and the console reconnect by themselves; a command tapped meanwhile is stored once`, async ({ browser, playwright }) => {
    test.setTimeout(240_000);
    const request = await playwright.request.newContext({ baseURL: proxy.url });
    const guestContext = await browser.newContext({ baseURL: proxy.url });
    const consoleContext = await browser.newContext({ baseURL: proxy.url });
    try {
      const guest = await readyGuest(request);
      const reservation = await book(request, guest, daysAhead);
      const inside = reservation.startTime + 60_000;
      // The same offset is set again after the restart: the server's clock and the page's keep flowing together.
      const offsetMs = inside - Date.now();
      await setServerClock(offsetMs);

      const page = await guestContext.newPage();
      const missing = watchMissingTexts(page);
      await recordSpeech(page);
      await page.clock.install({ time: inside });
      await signedIn(page, guest, `/jail/live/${reservation.id}`);
      await expect(commandButtons(page).first()).toBeEnabled();
      await expect(liveStatus(page)).toHaveText('In the jail');
      // A reload would lose this.
      await page.evaluate(() => Object.assign(window, { restartMarker: 'the same page' }));

      const warden = await createWarden(request);
      await freshAddress(consoleContext);
      const consolePage = await consoleContext.newPage();
      const consoleMissing = watchMissingTexts(consolePage);
      await consolePage.goto('/warden');
      await signInToConsole(consolePage, warden);
      await expect(consolePage.getByText('Connected to the relay')).toBeVisible();
      const card = consolePage.getByRole('article', { name: guest.title });
      await expect(card.getByText('Connected', { exact: true })).toBeVisible();
      await expect(card).toContainText('In jail');
      await card.getByRole('button', { name: 'Open' }).click();
      const panel = consolePage.getByRole('region', { name: `${guest.title}: Write the report` });
      // Opened: the relay answered with its timeline.
      await expect(panel).toHaveAttribute('aria-busy', 'false');

      // The server goes; nothing reaches it until it is back with its clock set.
      proxy.accepting = false;
      await stopServer(signal);
      await expect(page.getByText(GUEST_RECONNECTING)).toBeVisible();
      await expect(consolePage.getByRole('status').filter({ hasText: CONSOLE_RECONNECTING })).toBeVisible();
      // The console cannot know whether the guest is there meanwhile, and says so.
      await expect(card.getByText('Connection unknown')).toBeVisible();
      await expect(card.getByText('Connected', { exact: true })).toBeHidden();
      await expect(consolePage.getByText(/io server disconnect|transport close/)).toHaveCount(0);

      await page.getByRole('button', { name: '1 Leave the seat' }).click();
      await expect(liveStatus(page)).toHaveText(/^Out of your seat/);

      await startServer();
      await setServerClock(offsetMs);
      proxy.accepting = true;

      // Both pages are back by themselves (the reconnect schedule tops out at 5 s), the page never reloaded.
      await expect(page.getByText(GUEST_RECONNECTING)).toBeHidden();
      expect(await page.evaluate(() => (window as unknown as { restartMarker?: string }).restartMarker)).toBe('the same page');
      await expect(consolePage.getByText('Connected to the relay')).toBeVisible();

      // The leave tapped during the outage is stored once, and the server, the page and the console agree.
      await expect.poll(async () => saidCount(await logsOf(request, guest, reservation.id), LEAVE_ANSWER)).toBe(1);
      await expect(liveStatus(page)).toHaveText(/^Out of your seat/);
      await expect(commandButtons(page)).toHaveText(['5 Back to the seat']);
      await expect(card).toContainText('Left the seat');
      await expect(card.getByText('Connected', { exact: true })).toBeVisible();
      // The console opened its jail again: the Warden's answer to the leave is on its timeline, once.
      await expect(panel.getByRole('list', { name: 'Timeline' }).getByText(LEAVE_ANSWER)).toHaveCount(1);
      await page.waitForTimeout(1_000);
      expect(saidCount(await logsOf(request, guest, reservation.id), LEAVE_ANSWER)).toBe(1);
      expect(missing).toEqual([]);
      expect(consoleMissing).toEqual([]);
    } finally {
      await guestContext.close();
      await consoleContext.close();
      await request.dispose();
    }
  });
}

test('a session that ended meanwhile: the reconnect is refused at the handshake, and the page signs out with the app’s message', async ({
  browser,
  playwright,
}) => {
  test.setTimeout(180_000);
  const request = await playwright.request.newContext({ baseURL: proxy.url });
  const guestContext = await browser.newContext({ baseURL: proxy.url });
  try {
    const guest = await readyGuest(request);
    const reservation = await book(request, guest, 3);
    const inside = reservation.startTime + 60_000;
    const offsetMs = inside - Date.now();
    await setServerClock(offsetMs);
    const page = await guestContext.newPage();
    await recordSpeech(page);
    await page.clock.install({ time: inside });
    await signedIn(page, guest, `/jail/live/${reservation.id}`);
    await expect(commandButtons(page).first()).toBeEnabled();

    // Signed out on another device; then the server restarts under the page.
    expect((await call(request, '/guest/logout', { guest: { id: guest.id, token: guest.token } })).api.status).toBe('success');
    proxy.accepting = false;
    await stopServer('SIGTERM');
    await startServer();
    await setServerClock(offsetMs);
    proxy.accepting = true;

    // Refused, the page stops reconnecting: the session is read again, forgotten, and the guest told.
    await expect(page.getByRole('alertdialog')).toContainText('You are signed out. Please sign in again.');
    // Signed out elsewhere, the guest is sent to sign in again.
    await expect(page).toHaveURL(/\/signin$/);
    await expect(page.getByText(GUEST_RECONNECTING)).toHaveCount(0);
  } finally {
    await guestContext.close();
    await request.dispose();
  }
});

/**
 * Helpers for the browser tests (docs/client.md, "Tests"): the development
 * outbox of the server (`GET /dev/outbox`), guests made through the API, a
 * signed-in page, and the accessibility scan.
 */
import { expect, type APIRequestContext, type BrowserContext, type Locator, type Page } from '@playwright/test';
import { axeViolations } from './axe.ts';
import { freshCode, signInWarden } from '../src/server/test/wardens.ts';

export interface OutboxMessage {
  channel: 'email' | 'sms';
  to: string;
  subject: string;
  text: string;
  createdAt: number;
}

/** Every message the server has sent (or logged), oldest first. */
export async function outbox(request: APIRequestContext): Promise<OutboxMessage[]> {
  const response = await request.get('/dev/outbox');
  expect(response.ok(), 'GET /dev/outbox').toBe(true);
  return ((await response.json()) as { messages: OutboxMessage[] }).messages;
}

/** Waits for the newest message to `to` (an address or a phone number) on `channel`. */
export async function lastMessageTo(request: APIRequestContext, to: string, channel: 'email' | 'sms' = 'email', timeoutMs = 10_000): Promise<OutboxMessage> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = (await outbox(request)).filter((message) => message.channel === channel && message.to === to).at(-1);
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`No ${channel} to ${to} in /dev/outbox`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The newest e-mail to `address`. */
export function lastMailTo(request: APIRequestContext, address: string): Promise<OutboxMessage> {
  return lastMessageTo(request, address, 'email');
}

/** The first link in a message's text, as a path ('/guest/verifyEmail/…'), or throws. */
export function linkIn(text: string): string {
  const match = /https?:\/\/[^\s"'<>]+/.exec(text);
  if (match === null) throw new Error(`No link in: ${text}`);
  const url = new URL(match[0]);
  return `${url.pathname}${url.search}`;
}

/** The 6-digit code in an SMS, or throws. */
export function codeIn(text: string): string {
  const match = /\b(\d{6})\b/.exec(text);
  if (match === null) throw new Error(`No code in: ${text}`);
  return match[1]!;
}

let counter = 0;

/** A username nobody in this run has: the database is shared by every test of a run. */
export function uniqueName(prefix = 'guest'): string {
  counter += 1;
  return `${prefix}${Date.now().toString(36)}${counter}${Math.floor(Math.random() * 1e4)}`;
}

/**
 * A client address nobody in this run has used. The server limits sign-ups
 * (10 an hour) and sign-ins per address, and the whole run comes from
 * 127.0.0.1; the test server trusts `X-Forwarded-For` (TRUST_PROXY=1 in
 * playwright.config.ts), so a test that signs up or in several times sends
 * each from an address of its own.
 */
export function uniqueAddress(): string {
  const part = () => Math.floor(Math.random() * 254) + 1;
  return `10.${part()}.${part()}.${part()}`;
}

/** Makes every later request of `context` (pages and `context.request`) come from a fresh address. */
export async function freshAddress(context: BrowserContext): Promise<void> {
  await context.setExtraHTTPHeaders({ 'x-forwarded-for': uniqueAddress() });
}

export interface TestGuest {
  id: number;
  token: string;
  title: string;
  email: string;
  password: string;
}

let signUpCount = 0;

/** Signs a guest up through the API (`/guest/create`). */
export async function createGuest(
  request: APIRequestContext,
  { language = 'en', timezone = -540 }: { language?: 'en' | 'ja'; timezone?: number } = {},
): Promise<TestGuest> {
  const title = uniqueName();
  const email = `${title}@example.com`;
  const password = 'correct horse battery';
  // Each test guest signs up from an address of its own (the server trusts
  // X-Forwarded-For under TRUST_PROXY=1, playwright.config.ts): the run makes
  // more guests than the 10 sign-ups an hour one address may.
  signUpCount += 1;
  const address = `10.${process.pid % 250}.${Math.floor(signUpCount / 250) % 250}.${(signUpCount % 250) + 1}`;
  const response = await request.post('/api/guest/create', {
    headers: { 'x-forwarded-for': address },
    data: { api: { language }, guest: { title, email, password, timezone, language } },
  });
  const body = (await response.json()) as { api: { status: string; errorMessage?: string }; guest?: { id: number; token: string } };
  expect(body.api, 'guest/create').toEqual({ status: 'success' });
  return { id: body.guest!.id, token: body.guest!.token, title, email, password };
}

/** Any `POST /api<path>` with `api.language` added, from a fresh address; answers the body. */
export async function call(request: APIRequestContext, path: string, body: Record<string, unknown>, language: 'en' | 'ja' = 'en') {
  // Each call from an address of its own: the per-address limits (sign-ins, SMS codes, mails) are not what the tests test.
  const response = await request.post(`/api${path}`, { data: { ...body, api: { language } }, headers: { 'x-forwarded-for': uniqueAddress() } });
  return (await response.json()) as Record<string, unknown> & { api: { status: string; errorMessage?: string } };
}

/**
 * Signs `page` in as `guest` the way the app does after sign-in: the session
 * in the local database (`Warden_PWA`, store `auth`); navigate afterwards.
 * Written from a page of the origin that loads no script and no asset (the
 * health check): an app still starting would read the session as it is
 * written and, when the server refuses it, forget it again before the next
 * page loads; and a bench's page then finds its cache empty. `origin` is for
 * a page without a base URL.
 */
export async function signInPage(page: Page, guest: Pick<TestGuest, 'id' | 'token'>, origin?: string): Promise<void> {
  await page.goto(origin === undefined ? '/api/health' : new URL('/api/health', origin).href);
  await page.evaluate(async ({ id, token }) => {
    await new Promise<void>((resolve, reject) => {
      const open = indexedDB.open('Warden_PWA', 4);
      open.onupgradeneeded = () => {
        for (const store of ['auth', 'language', 'jailStatus', 'rememberedWorks']) {
          if (!open.result.objectStoreNames.contains(store)) open.result.createObjectStore(store, { keyPath: 'id' });
        }
      };
      open.onerror = () => reject(open.error);
      open.onsuccess = () => {
        const db = open.result;
        const transaction = db.transaction('auth', 'readwrite');
        transaction.objectStore('auth').put({ id: 'auth', data: { id, token } });
        transaction.oncomplete = () => {
          db.close();
          resolve();
        };
        transaction.onerror = () => reject(transaction.error);
      };
    });
  }, guest);
}

/**
 * A form's error beside its field (docs/client.md, Global UI): the control
 * is marked invalid and described by the message, which is announced; no
 * banner and no overlay cover the page.
 */
export async function expectFieldError(control: Locator, message: string | RegExp): Promise<void> {
  await expect(control).toHaveAttribute('aria-invalid', 'true');
  const describedBy = await control.getAttribute('aria-describedby');
  expect(describedBy, 'the field is described by its message').toBeTruthy();
  const shown = control.page().locator(`[id="${describedBy}"]`);
  await expect(shown).toContainText(message);
  await expect(shown).toHaveAttribute('role', 'alert');
  await expect(control.page().getByRole('alertdialog')).toHaveCount(0);
  await expect(control.page().getByTestId('loading-overlay')).toHaveCount(0);
}

/**
 * Runs axe on the page (WCAG 2.0 and 2.1, A and AA; tests/axe.ts) and
 * expects no violations.
 */
export async function checkA11y(page: Page, label = page.url()): Promise<void> {
  const summary = (await axeViolations(page)).map(({ id, impact, help, targets }) => `${id} (${impact}): ${help}\n  ${targets.join('\n  ')}`);
  expect(summary, `accessibility violations on ${label}`).toEqual([]);
}

/** axe in the light and then the dark colour scheme; the page is left in its own scheme. */
export async function checkA11yLightAndDark(page: Page, label: string): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await checkA11y(page, `${label}, ${colorScheme}`);
  }
  await page.emulateMedia({ colorScheme: null });
}

/** Collects the texts missing at run time ('Missing text …' on the console). */
export function watchMissingTexts(page: Page): string[] {
  const missing: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && message.text().startsWith('Missing text')) missing.push(message.text());
  });
  return missing;
}

/** The viewports every screen is tested at: a small phone and a desktop. */
export const VIEWPORTS = [
  { name: 'phone 360x640', viewport: { width: 360, height: 640 } },
  { name: 'desktop 1280x800', viewport: { width: 1280, height: 800 } },
] as const;

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

/** A guest with a verified e-mail and no phone number yet (the phone gate's), in Tokyo (-540), speaking English unless told. */
export async function verifiedGuest(request: APIRequestContext, options: { language?: 'en' | 'ja' } = {}): Promise<TestGuest> {
  const guest = await createGuest(request, options);
  const mail = await lastMailTo(request, guest.email);
  const token = linkIn(mail.text).split('/').at(-1) ?? '';
  expect((await call(request, '/guest/verifyEmail', { guest: { token } })).api.status).toBe('success');
  return guest;
}

/** A guest with a verified e-mail and a phone, in Tokyo (-540), speaking English unless told. */
export async function readyGuest(request: APIRequestContext, options: { language?: 'en' | 'ja' } = {}): Promise<TestGuest> {
  const guest = await verifiedGuest(request, options);
  const phone = `+8190${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
  const auth = { id: guest.id, token: guest.token };
  expect((await call(request, '/guest/requestPhoneCode', { guest: { ...auth, phone } })).api.status).toBe('success');
  const sms = await lastMessageTo(request, phone, 'sms');
  const update = await call(request, '/guest/update', { guest: { ...auth, phone, phoneCode: codeIn(sms.text) } });
  expect(update.api).toEqual({ status: 'success' });
  return guest;
}

/** `hour`:00 Tokyo time, `daysAhead` days from today in Tokyo. */
export function tokyoTime(daysAhead: number, hour: number): number {
  const tokyoMidnight = Math.floor((Date.now() + 9 * HOUR) / DAY) * DAY - 9 * HOUR;
  return tokyoMidnight + daysAhead * DAY + hour * HOUR;
}

/** Books one hour through the API, `daysAhead` days from now at 10:00 Tokyo time unless `extra` gives a `startTime`. */
export async function book(request: APIRequestContext, guest: Pick<TestGuest, 'id' | 'token'>, daysAhead: number, extra: Record<string, unknown> = {}) {
  const startTime = tokyoTime(daysAhead, 10);
  const answer = await call(request, '/reservation/create', {
    guest: { id: guest.id, token: guest.token },
    reservation: { work: 'Write the report', duration: 1, startTime, repeatType: 'none', ...extra },
  });
  expect(answer.api).toEqual({ status: 'success' });
  return answer.reservation as { id: number; startTime: number };
}

/** Signs `page` in as `guest` and opens `path`. */
export async function signedIn(page: Page, guest: Pick<TestGuest, 'id' | 'token'>, path: string) {
  await signInPage(page, guest);
  await page.goto(path);
}

/** A warden as the tests know them: their password, and the key of their authenticator app once enrolled. */
export interface TestWarden {
  title: string;
  email: string;
  password: string;
  secret: string | null;
}

/**
 * A warden made by the admin command (which prints the password on its
 * second line), with an authenticator enrolled through the API unless
 * `enrolled` is false (the console then offers the enrolment at sign-in).
 */
export async function createWarden(request: APIRequestContext, { enrolled = true } = {}): Promise<TestWarden> {
  const title = uniqueName('warden');
  const email = `${title}@example.com`;
  const response = await request.post('/dev/admin', { data: { args: ['create-warden', '--title', title, '--email', email] } });
  expect(response.ok(), 'POST /dev/admin create-warden').toBe(true);
  const { lines } = (await response.json()) as { lines: string[] };
  const password = /: (\S+)$/.exec(lines[1] ?? '')?.[1];
  if (password === undefined) throw new Error(`no password in ${lines.join('\n')}`);
  if (!enrolled) return { title, email, password, secret: null };
  const succeeding = async (path: string, body: Record<string, unknown>) => {
    const answer = await call(request, path, body);
    expect(answer.api, path).toEqual({ status: 'success' });
    return answer;
  };
  const { token, secret } = await signInWarden(succeeding, { email, password });
  await succeeding('/warden/logout', { warden: { token } });
  return { title, email, password, secret };
}

/** Signs in to the console on `page` (at /warden) with the password and a fresh code of the warden's authenticator. */
export async function signInToConsole(page: Page, warden: TestWarden): Promise<void> {
  if (warden.secret === null) throw new Error(`${warden.email} has no authenticator yet`);
  await page.getByLabel('E-mail address').fill(warden.email);
  await page.getByLabel('Password').fill(warden.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByLabel('6-digit code').fill(freshCode(warden.secret));
  await page.getByRole('button', { name: 'Confirm' }).click();
}

/**
 * The camera refused, as a browser does when the guest blocked it
 * (`NotAllowedError`), until `allowCamera`: then the real (fake) camera opens.
 * The block is kept in the page's session storage, so it lasts across reloads.
 */
export async function blockCamera(page: Page): Promise<void> {
  await page.addInitScript(() => {
    // The app's own pages only: about:blank has no session storage.
    if (!location.protocol.startsWith('http')) return;
    const open = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
    if (sessionStorage.getItem('camera-allowed') === null) sessionStorage.setItem('camera-allowed', 'no');
    navigator.mediaDevices.getUserMedia = (constraints) =>
      sessionStorage.getItem('camera-allowed') === 'no' ? Promise.reject(new DOMException('Permission denied', 'NotAllowedError')) : open(constraints);
  });
}

/** The guest allows the camera that `blockCamera` blocked. */
export async function allowCamera(page: Page): Promise<void> {
  await page.evaluate(() => sessionStorage.setItem('camera-allowed', 'yes'));
}

/** What a blocked camera shows in Chromium, in each language (features/cameraHelp). */
export const CAMERA_BLOCKED = {
  en: {
    title: 'The camera is blocked, so the Warden cannot see you.',
    how: 'Click the camera icon or the icon to the left of the address in the address bar, and allow the camera for this site.',
    retry: 'Try the camera again',
  },
  ja: {
    title: 'カメラがブロックされているため、ワーデンからあなたの姿が見えません。',
    how: 'アドレスバーのカメラのアイコン、またはアドレスの左にあるアイコンをクリックし、このサイトのカメラを許可してください。',
    retry: 'もう一度カメラを試す',
  },
} as const;

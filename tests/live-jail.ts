/**
 * The live jail in the browser tests: a guest brought into a jail that
 * started a minute ago, the camera card, and the jail's logs as the guest
 * reads them (tests/jail-live.spec.ts, tests/presence.spec.ts).
 */
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import type { ActivityLogEntry } from '../src/shared/relay.ts';
import { book, call, readyGuest, signedIn, type TestGuest } from './helpers.ts';
import { installClock } from './worker-clock.ts';

export interface Jail {
  guest: TestGuest;
  id: number;
  startTime: number;
}

/** The name of the commands' region in each language. */
export const COMMANDS_NAME = { en: 'Commands', ja: 'コマンド' } as const;

/** A guest (speaking `language`) in a jail that started a minute ago by the server's clock and the page's and its vision worker's (fake, flowing) clock. */
export async function intoJail(page: Page, request: APIRequestContext, daysAhead: number, language: 'en' | 'ja' = 'en'): Promise<Jail> {
  const guest = await readyGuest(request, { language });
  const reservation = await book(request, guest, daysAhead);
  const inside = reservation.startTime + 60_000;
  await request.post('/dev/clock', { data: { offsetMs: inside - Date.now() } });
  await installClock(page, inside);
  await signedIn(page, guest, `/jail/live/${reservation.id}`);
  await expect(commandButtons(page, COMMANDS_NAME[language]).first()).toBeEnabled();
  return { guest, id: reservation.id, startTime: reservation.startTime };
}

export function commandButtons(page: Page, name: string = COMMANDS_NAME.en) {
  return page.getByRole('region', { name }).getByRole('button');
}

export function cameraPanel(page: Page, name = 'Camera') {
  return page.getByRole('region', { name });
}

export async function hasNoSidewaysScroll(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
}

/** The camera is on and its frames are analysed (`cameraName`: the camera card's name in the page's language). */
export async function cameraWatching(page: Page, cameraName?: string): Promise<void> {
  await expect(cameraPanel(page, cameraName)).toHaveAttribute('data-phase', 'on');
  await expect(cameraPanel(page, cameraName)).toHaveAttribute('data-analysed', 'true');
}

/** The jail's activity logs as its guest reads them. */
export async function logsOf(request: APIRequestContext, jail: Jail): Promise<ActivityLogEntry[]> {
  const answer = await call(request, '/reservation/read', { guest: { id: jail.guest.id, token: jail.guest.token }, reservation: { id: jail.id } });
  expect(answer.api).toEqual({ status: 'success' });
  return (answer.reservation as { activityLogs: ActivityLogEntry[] }).activityLogs;
}

export function motionKinds(logs: ActivityLogEntry[]): string[] {
  return logs.flatMap((log) => (log.type === 'motion' ? [log.motion.kind ?? 'motion'] : []));
}

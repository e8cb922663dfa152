import { readFileSync } from 'node:fs';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { io, type Socket } from 'socket.io-client';
import type { GuestToServerEvents, ServerToGuestEvents } from '../src/shared/relay.ts';
import { book, checkA11y, HOUR, readyGuest, signedIn, VIEWPORTS, watchMissingTexts, type TestGuest } from './helpers.ts';

/**
 * The report of a finished jail as a picture, against the real server, relay
 * and scheduler: a guest's device (a socket.io client in this process) goes
 * through a one-hour jail on the server's clock (`POST /dev/clock`): it comes
 * in at 10:01:30, leaves the seat 10:10 to 10:16:30 (an overrun alert), is
 * seen not moving at 10:20 and nodding at 10:25, takes a break 10:30 to
 * 10:45:30, is too dark at 10:50, sends two patrol images and asks the Warden
 * the time. The report then shows the jail row's figures (focused 36 of 60
 * minutes), the segments in order, and the log folded under them; at a phone
 * and a desktop, in English and Japanese, with axe in light and dark, and
 * without sideways scroll at 320 px.
 */

type GuestSocket = Socket<ServerToGuestEvents, GuestToServerEvents>;
const MINUTE = 60_000;
const PATROL_IMAGE = `data:image/jpeg;base64,${readFileSync(new URL('../src/server/jail/fixtures/canvas-100x75.jpg', import.meta.url)).toString('base64')}`;

async function clockAt(request: APIRequestContext, time: number): Promise<void> {
  const response = await request.post('/dev/clock', { data: { offsetMs: time - Date.now() } });
  expect(response.ok(), 'POST /dev/clock').toBe(true);
}

/** Runs the jail described above on the server's clock and leaves it finished with its report settled. */
async function runJail(
  request: APIRequestContext,
  baseURL: string,
  guest: TestGuest,
  language: 'en' | 'ja',
  daysAhead: number,
): Promise<{ id: number; startTime: number }> {
  const jail = await book(request, guest, daysAhead, { work: language === 'ja' ? 'レポートを書く' : 'Write the report' });
  const at = (minutes: number) => jail.startTime + minutes * MINUTE;
  await clockAt(request, at(1.5));
  const device: GuestSocket = io(baseURL, {
    path: '/socket.io',
    auth: { guest: { id: guest.id, token: guest.token } },
    extraHeaders: { origin: baseURL },
    transports: ['websocket'],
  });
  try {
    await new Promise<void>((resolve, reject) => {
      device.once('connect', () => resolve());
      device.once('connect_error', reject);
    });
    const from = { api: { language }, guest: { id: guest.id } };
    const eventId = () => crypto.randomUUID().replaceAll('-', '');
    expect((await device.emitWithAck('initialize_from_guest', { api: { language, userAgent: 'playwright', version: 70 }, guest: { id: guest.id } })).ok).toBe(
      true,
    );
    expect(await device.emitWithAck('check_alive_from_guest', { ...from, jailStatus: 'injail' })).toEqual({ ok: true });
    await clockAt(request, at(3));
    expect(await device.emitWithAck('patrol_from_guest', { ...from, eventId: eventId(), patrol: { data: PATROL_IMAGE } })).toEqual({ ok: true });
    await clockAt(request, at(5));
    const question = language === 'ja' ? 'あと何分？' : 'How much time is left?';
    expect(await device.emitWithAck('guest_dialog_event_from_guest', { ...from, eventId: eventId(), dialog: { text: question } })).toEqual({ ok: true });
    const status = async (minutes: number, jailStatus: 'injail' | 'leaving' | 'breaking') => {
      await clockAt(request, at(minutes));
      expect(await device.emitWithAck('jail_status_from_guest', { ...from, eventId: eventId(), jailStatus })).toEqual({ ok: true });
    };
    const motion = async (minutes: number, event: 'no_motion_event_from_guest' | 'nodding_motion_event_from_guest' | 'darkness_event_from_guest') => {
      await clockAt(request, at(minutes));
      expect(await device.emitWithAck(event, { ...from, eventId: eventId(), motion: { type: 0 } })).toEqual({ ok: true });
    };
    await status(10, 'leaving');
    // Past the 5 minutes a leave allows: the scheduler raises the overrun alert.
    await status(16.5, 'injail');
    await motion(20, 'no_motion_event_from_guest');
    await clockAt(request, at(20.5));
    expect(await device.emitWithAck('patrol_from_guest', { ...from, eventId: eventId(), patrol: { data: PATROL_IMAGE } })).toEqual({ ok: true });
    await motion(25, 'nodding_motion_event_from_guest');
    await status(30, 'breaking');
    await status(45.5, 'injail');
    await motion(50, 'darkness_event_from_guest');
  } finally {
    device.close();
  }
  // The end, then past the two minutes the report stays open.
  await clockAt(request, at(61));
  await clockAt(request, at(64));
  return jail;
}

/** The segments the report lists, as kind and text. */
async function segments(page: Page): Promise<{ kind: string | null; text: string }[]> {
  const items = page.getByTestId('report-segments').locator(':scope > li');
  const count = await items.count();
  const found: { kind: string | null; text: string }[] = [];
  for (let index = 0; index < count; index += 1) {
    const item = items.nth(index);
    found.push({ kind: await item.getAttribute('data-kind'), text: ((await item.locator('.report-segment-head').textContent()) ?? '').replace(/\s+/g, ' ') });
  }
  return found;
}

const EXPECTED = {
  en: {
    report: 'Report',
    focused: '36 of 60 min focused',
    breaks: '1 · 15 min',
    leaves: '1 · 6 min',
    log: 'The full log',
    reason: 'You left your seat',
    segments: [
      { kind: 'waiting', text: 'Not in yet 10:00–10:01 1 min' },
      { kind: 'seat', text: 'In your seat 10:01–10:10 8 min' },
      { kind: 'leave', text: 'Leave 10:10–10:16 6 min' },
      { kind: 'seat', text: 'In your seat 10:16–10:30 13 min' },
      { kind: 'break', text: 'On a break 10:30–10:45 15 min' },
      { kind: 'seat', text: 'In your seat 10:45–11:00 14 min' },
    ],
  },
  ja: {
    report: 'レポート',
    focused: '予定60分のうち36分集中',
    breaks: '1回・15分',
    leaves: '1回・6分',
    log: 'すべてのログ',
    reason: '席を離れました',
    segments: [
      { kind: 'waiting', text: '入室前 10:00〜10:01 1分' },
      { kind: 'seat', text: '着席 10:01〜10:10 8分' },
      { kind: 'leave', text: '離席 10:10〜10:16 6分' },
      { kind: 'seat', text: '着席 10:16〜10:30 13分' },
      { kind: 'break', text: '休憩 10:30〜10:45 15分' },
      { kind: 'seat', text: '着席 10:45〜11:00 14分' },
    ],
  },
} as const;

test.describe('the report of a finished jail', () => {
  test.describe.configure({ mode: 'serial' });
  const jails: Partial<Record<'en' | 'ja', { guest: TestGuest; jail: { id: number; startTime: number } }>> = {};

  test.beforeAll(async ({ request, baseURL }) => {
    if (baseURL === undefined) throw new Error('playwright.config.ts sets baseURL');
    for (const [language, daysAhead] of [
      ['en', 1],
      ['ja', 2],
    ] as const) {
      const guest = await readyGuest(request, { language });
      jails[language] = { guest, jail: await runJail(request, baseURL, guest, language, daysAhead) };
    }
  });

  test.afterAll(async ({ request }) => {
    await request.post('/dev/clock', { data: { offsetMs: 0 } });
  });

  for (const language of ['en', 'ja'] as const) {
    for (const { name, viewport } of VIEWPORTS) {
      test.describe(`${language} at ${name}`, () => {
        test.use({ viewport, locale: language === 'ja' ? 'ja-JP' : 'en-US', timezoneId: 'Asia/Tokyo', serviceWorkers: 'block' });

        test('shows the figures, the segments and the log folded under them', async ({ page, request }) => {
          const missing = watchMissingTexts(page);
          const expected = EXPECTED[language];
          const seeded = jails[language];
          if (seeded === undefined) throw new Error('the jail was not run');
          const afterEnd = seeded.jail.startTime + 2 * HOUR;
          await clockAt(request, afterEnd);
          await page.clock.install({ time: afterEnd });
          await signedIn(page, seeded.guest, `/reservation/${seeded.jail.id}`);
          const report = page.getByRole('region', { name: expected.report });
          await expect(report.getByTestId('report-focused')).toHaveText(expected.focused);
          await expect(report.getByTestId('report-breaks')).toHaveText(expected.breaks);
          await expect(report.getByTestId('report-leaves')).toHaveText(expected.leaves);
          // The overrun of the leave, no motion, nodding and darkness.
          await expect(report.getByTestId('report-alerts')).toHaveText('4');
          await expect(report.getByTestId('report-patrols')).toHaveText('2');
          expect(await segments(page)).toEqual(expected.segments);
          // The patrol images in place: in the segment they were taken in.
          const segmentItems = page.getByTestId('report-segments').locator(':scope > li');
          await expect(segmentItems.nth(1).getByRole('img')).toHaveCount(1);
          await expect(segmentItems.nth(3).getByRole('img')).toHaveCount(1);

          const log = report.locator('details');
          await expect(log).not.toHaveAttribute('open');
          await log.getByText(expected.log).click();
          await expect(log.getByText(expected.reason)).toBeVisible();

          for (const colorScheme of ['light', 'dark'] as const) {
            await page.emulateMedia({ colorScheme });
            await checkA11y(page, `/reservation/:id report, ${language}, ${name}, ${colorScheme}`);
            await page.screenshot({ path: `test-results/report-${language}-${viewport.width}-${colorScheme}.png`, fullPage: true });
          }
          await page.setViewportSize({ width: 320, height: 640 });
          expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
          expect(missing).toEqual([]);
        });
      });
    }
  }
});

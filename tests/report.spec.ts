import { readFileSync } from 'node:fs';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { io, type Socket } from 'socket.io-client';
import type { GuestToServerEvents, ServerToGuestEvents } from '../src/shared/relay.ts';
import { book, call, checkA11y, DAY, HOUR, readyGuest, signedIn, VIEWPORTS, watchMissingTexts, type TestGuest } from './helpers.ts';
import { hasNoSidewaysScroll } from './live-jail.ts';

/**
 * The report of a finished jail as a picture, against the real server, relay
 * and scheduler: a guest's device (a socket.io client in this process) goes
 * through a one-hour jail on the server's clock (`POST /dev/clock`): it comes
 * in at 10:01:30, leaves the seat 10:10 to 10:16:30 (an overrun alert), is
 * seen not moving at 10:20 and nodding at 10:25, takes a break 10:30 to
 * 10:45:30, is too dark at 10:50, sends two patrol images and asks the Warden
 * the time. The report then shows the jail row's figures (focused 36 of 60
 * minutes), the segments in order, and the log folded under them. After it,
 * "book the next one": next week's slot is taken by a jail booked there, so
 * it says so; tomorrow's opens the booking form filled in with the same work,
 * length and plan step, and booking it as it is books it (then it is taken
 * back, so each case starts alike). A jail ignored two hours before says in
 * words what it did not have. At a phone and a desktop, in English and
 * Japanese, with axe in light and dark, and without sideways scroll at 320 px.
 */

type GuestSocket = Socket<ServerToGuestEvents, GuestToServerEvents>;
/** The jail run, the jail ignored before it and the one booked next week. */
interface RunJail {
  id: number;
  startTime: number;
  ignoredId: number;
  nextWeekId: number;
}
const WORK = { en: 'Write the report', ja: 'レポートを書く' } as const;
const STEP = { en: 'Proofread', ja: '見直し' } as const;
const MINUTE = 60_000;
const PATROL_IMAGE = `data:image/jpeg;base64,${readFileSync(new URL('../src/server/jail/fixtures/canvas-100x75.jpg', import.meta.url)).toString('base64')}`;

async function clockAt(request: APIRequestContext, time: number): Promise<void> {
  const response = await request.post('/dev/clock', { data: { offsetMs: time - Date.now() } });
  expect(response.ok(), 'POST /dev/clock').toBe(true);
}

/** Runs the jail described above on the server's clock and leaves it finished with its report settled. */
async function runJail(request: APIRequestContext, baseURL: string, guest: TestGuest, language: 'en' | 'ja', daysAhead: number): Promise<RunJail> {
  const jail = await book(request, guest, daysAhead, { work: WORK[language], schedules: [{ minutes: 50, title: STEP[language] }] });
  const at = (minutes: number) => jail.startTime + minutes * MINUTE;
  // A jail next week that half an hour of the same slot overlaps: "book the next one" says so instead of offering it.
  const nextWeek = await book(request, guest, daysAhead + 7, { startTime: at(7 * 24 * 60 + 30) });
  // Two hours before, a jail nobody comes into: the report of an ignored jail.
  const ignored = await book(request, guest, daysAhead, { startTime: at(-120) });
  await clockAt(request, ignored.startTime + MINUTE);
  await clockAt(request, ignored.startTime + 64 * MINUTE);
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
  return { ...jail, ignoredId: ignored.id, nextWeekId: nextWeek.id };
}

/** `YYYY-MM-DD` of an instant in Tokyo, as the booking form's date radios carry it. */
function dateKeyInTokyo(time: number): string {
  return new Date(time + 9 * HOUR).toISOString().slice(0, 10);
}

/** axe and a full-page screenshot (in the test's output folder) in the light and the dark colour scheme. */
async function lookedAt(page: Page, label: string, name: string): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await checkA11y(page, `${label}, ${colorScheme}`);
    await page.screenshot({ path: test.info().outputPath(`${name}-${colorScheme}.png`), fullPage: true });
  }
  await page.emulateMedia({ colorScheme: null });
}

/** The guest's booking that starts at `startTime`, read through the API. */
async function nextOneBooked(request: APIRequestContext, guest: TestGuest, startTime: number) {
  const answer = await call(request, '/reservation/read_list', { guest: { id: guest.id, token: guest.token } });
  const booked = (answer.reservations as { id: number; startTime: number }[]).find((reservation) => reservation.startTime === startTime);
  if (booked === undefined) throw new Error('the next one was not booked');
  return booked;
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
    again: 'Book the next one',
    tomorrow: /^Tomorrow, \w{3}, \w{3} \d{1,2} 10:00$/,
    nextWeekBooked: /^Next week, .+ 10:00: you already have a jail booked then\. See that jail$/,
    seeJail: 'See that jail',
    book: 'Book',
    ignored: [
      'You did not come into this jail.',
      'No alerts: the camera saw nothing to warn you about.',
      'No plan steps were booked for this jail.',
      'No patrol images were taken.',
    ],
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
    again: '次のジェイルを予約',
    tomorrow: /^明日 \d{1,2}月\d{1,2}日\(.\) 10:00$/,
    nextWeekBooked: /^来週 .+ 10:00 にはすでにジェイルを予約しています。その予約を見る$/,
    seeJail: 'その予約を見る',
    book: '予約する',
    ignored: [
      'このジェイルには入室しませんでした。',
      '警告はありません。カメラが注意すべきことは見つかりませんでした。',
      'このジェイルには予定が登録されていませんでした。',
      '巡回画像はありません。',
    ],
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
  const jails: Partial<Record<'en' | 'ja', { guest: TestGuest; jail: RunJail }>> = {};

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

  /** Signs the language's guest in, with both clocks an hour after the jail, on the detail page of the jail run or the one ignored. */
  async function openedAfterTheJail(page: Page, request: APIRequestContext, language: 'en' | 'ja', which: 'id' | 'ignoredId') {
    const seeded = jails[language];
    if (seeded === undefined) throw new Error('the jail was not run');
    const afterEnd = seeded.jail.startTime + 2 * HOUR;
    await clockAt(request, afterEnd);
    await page.clock.install({ time: afterEnd });
    await signedIn(page, seeded.guest, `/reservation/${seeded.jail[which]}`);
    return seeded;
  }

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
          const seeded = await openedAfterTheJail(page, request, language, 'id');
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

          // After the report, the next one: next week's slot is taken by the jail booked there, tomorrow's is offered.
          const again = page.getByRole('region', { name: expected.again });
          await expect(again.getByTestId('again-next_week')).toHaveText(expected.nextWeekBooked);
          await expect(again.getByRole('link', { name: expected.seeJail })).toHaveAttribute('href', `/reservation/${seeded.jail.nextWeekId}`);
          const tomorrow = again.getByTestId('again-tomorrow').getByRole('link');
          await expect(tomorrow).toHaveText(expected.tomorrow);

          await lookedAt(page, `/reservation/:id report, ${language}, ${name}`, `report-${language}-${viewport.width}`);
          await page.setViewportSize({ width: 320, height: 640 });
          expect(await hasNoSidewaysScroll(page)).toBe(true);
          await page.setViewportSize(viewport);

          // The form filled in with the same work, length and plan, tomorrow at 10:00: the guest only confirms.
          await tomorrow.click();
          await expect(page).toHaveURL(new RegExp(`/reservation/add\\?again=${seeded.jail.id}&days=1$`));
          await expect(page.getByRole('radio').and(page.locator(`[value="${dateKeyInTokyo(seeded.jail.startTime + DAY)}"]`))).toBeChecked();
          await expect(page.getByTestId('duration')).toHaveText('1:00');
          await expect(page.locator('.schedule input[type="text"]')).toHaveValue(STEP[language]);
          await expect(page.locator('.schedule select')).toHaveValue('50');
          await page.getByRole('button', { name: expected.book, exact: true }).click();
          await expect(page).toHaveURL(/\/reservation\/added$/);
          const booked = await nextOneBooked(request, seeded.guest, seeded.jail.startTime + DAY);
          expect(booked).toMatchObject({ work: WORK[language], duration: 1, repeatType: 'none', schedules: [{ minutes: 50, title: STEP[language] }] });
          // Taken back, so that every size and language starts from the same jails.
          expect(
            (await call(request, '/reservation/destroy', { guest: { id: seeded.guest.id, token: seeded.guest.token }, reservation: { id: booked.id } })).api,
          ).toEqual({
            status: 'success',
          });
          expect(missing).toEqual([]);
        });

        test('an ignored jail says in words what it did not have, with no empty box', async ({ page, request }) => {
          const missing = watchMissingTexts(page);
          const expected = EXPECTED[language];
          await openedAfterTheJail(page, request, language, 'ignoredId');
          const report = page.getByRole('region', { name: expected.report });
          for (const text of expected.ignored) await expect(report.getByText(text, { exact: true })).toBeVisible();
          // No empty meter, no grid of zeros: the Warden's words at the start are its only moments.
          await expect(report.locator('.report-meter, .report-figures')).toHaveCount(0);
          await expect(page.getByTestId('report-segments').locator(':scope > li')).toHaveCount(1);
          await expect(page.getByRole('region', { name: expected.again }).getByTestId('again-tomorrow').getByRole('link')).toBeVisible();
          await lookedAt(page, `/reservation/:id ignored report, ${language}, ${name}`, `report-ignored-${language}-${viewport.width}`);
          expect(missing).toEqual([]);
        });
      });
    }
  }
});

/**
 * The reservation screens against the built client and the real server:
 * book, list, detail, edit, cancel, skip and the errors (the unverified
 * notice, the six-hour cutoff), at a phone and a desktop size, each screen
 * scanned with axe (WCAG 2.1 AA). Guests are made verified and with a phone
 * through the API; `POST /dev/clock` reaches the time windows.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { enterJail, eventId, fromGuest, setClockOffset } from './guest-device.ts';
import {
  book,
  call,
  checkA11y,
  createGuest,
  expectFieldError,
  HOUR,
  readyGuest,
  signedIn,
  signInPage,
  verifiedGuest,
  VIEWPORTS,
  watchMissingTexts,
  type TestGuest,
} from './helpers.ts';

/** Presses Tab until `target` has the focus, as a keyboard user would (at most 40 times). */
async function tabTo(page: Page, target: Locator): Promise<void> {
  for (let press = 0; press < 40; press += 1) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error('Tab never reached the target');
}

/** The booking form's words, as a guest reads them. */
interface FormWords {
  startDate: string;
  hour: string;
  minutes: string;
  longer: string;
  span: string;
  work: string;
  rememberWork: string;
  workHelp: string;
  addEntry: string;
  entryTitle: string;
  book: string;
}

const ENGLISH_FORM: FormWords = {
  startDate: 'Start date',
  hour: 'Hour',
  minutes: 'Minutes',
  longer: 'Longer',
  span: '10:00 – 11:30',
  work: 'Work',
  rememberWork: 'Remember this work',
  workHelp: 'What to write here?',
  addEntry: 'Add a schedule entry',
  entryTitle: 'What to do',
  book: 'Book',
};

const JAPANESE_FORM: FormWords = {
  startDate: '開始日',
  hour: '時',
  minutes: '分',
  longer: '長くする',
  span: '10:00〜11:30',
  work: '作業内容',
  rememberWork: 'この作業を保存する',
  workHelp: '何を書けばいい？',
  addEntry: 'スケジュールを追加',
  entryTitle: 'やること',
  book: '予約する',
};

/**
 * Books by keyboard alone from /reservation/add: tomorrow (the second date),
 * 10:00, 1.5 hours, the work "Chapter 2" and one schedule entry; the form is
 * scanned with axe before the last Enter.
 */
async function bookByKeyboard(page: Page, words: FormWords): Promise<void> {
  const dates = page.getByRole('group', { name: words.startDate }).getByRole('radio');
  await expect(dates).toHaveCount(14);
  await dates.first().focus();
  await page.keyboard.press('ArrowRight');
  await expect(dates.nth(1)).toBeChecked();
  await page.keyboard.press('Tab');
  const hour = page.getByLabel(words.hour, { exact: true });
  await expect(hour).toBeFocused();
  await page.keyboard.type('10');
  await expect(hour).toHaveValue('10');
  await page.keyboard.press('Tab');
  const quarters = page.getByRole('group', { name: words.minutes, exact: true }).getByRole('radio');
  const checkedQuarter = await quarters.evaluateAll((radios) => radios.findIndex((radio) => (radio as HTMLInputElement).checked));
  for (let press = 0; press < checkedQuarter; press += 1) await page.keyboard.press('ArrowLeft');
  await expect(page.getByRole('radio', { name: ':00' })).toBeChecked();
  await tabTo(page, page.getByRole('button', { name: words.longer }));
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('duration')).toHaveText('1:30');
  await expect(page.getByText(words.span)).toBeVisible();
  await tabTo(page, page.getByLabel(words.work, { exact: true }));
  await page.keyboard.type('Chapter 2');
  await expect(page.getByLabel(words.rememberWork)).toBeVisible();
  await tabTo(page, page.getByRole('button', { name: words.workHelp }));
  await page.keyboard.press('Enter');
  await tabTo(page, page.getByRole('button', { name: words.addEntry }));
  await page.keyboard.press('Enter');
  await tabTo(page, page.getByPlaceholder(words.entryTitle));
  await page.keyboard.type('Outline');
  // What the guest types stays readable: the title has room for about twenty characters, on a phone too.
  const titleBox = await page.getByPlaceholder(words.entryTitle).boundingBox();
  expect(titleBox?.width ?? 0).toBeGreaterThanOrEqual(180);
  await checkA11y(page, `/reservation/add (${words.book})`);
  await tabTo(page, page.getByRole('button', { name: words.book, exact: true }));
  await page.keyboard.press('Enter');
}

test.afterEach(async ({ request }) => {
  await request.post('/dev/clock', { data: { offsetMs: 0 } });
});

for (const { name, viewport } of VIEWPORTS) {
  test.describe(`reservations at ${name}`, () => {
    test.use({ viewport, locale: 'en-US', timezoneId: 'Asia/Tokyo', serviceWorkers: 'block' });
    // Sign-ups are limited to 10 an hour from one address: two guests per viewport,
    // the tests run in order and each finds its own reservations by id.
    test.describe.configure({ mode: 'serial' });
    let guest: TestGuest;
    let newcomer: TestGuest;
    test.beforeAll(async ({ request }) => {
      guest = await readyGuest(request);
      newcomer = await createGuest(request);
    });

    test('book through the form, see it in the list and the detail, then edit and cancel it', async ({ page }) => {
      const missing = watchMissingTexts(page);
      await signedIn(page, guest, '/reservations');
      await expect(page.getByRole('heading', { level: 1, name: 'Your jails' })).toBeVisible();
      await expect(page.getByText('No jail booked yet.')).toBeVisible();
      await checkA11y(page, '/reservations (empty)');

      await page.getByRole('link', { name: 'Book a jail' }).first().click();
      await expect(page).toHaveURL(/\/reservation\/add$/);
      await expect(page.getByTestId('duration')).toHaveText('1:00');
      await bookByKeyboard(page, ENGLISH_FORM);
      await expect(page).toHaveURL(/\/reservation\/added$/);
      await expect(page.getByRole('link', { name: 'Read the rules' })).toHaveAttribute('href', '/rules');
      await checkA11y(page, '/reservation/added');

      await page.getByRole('link', { name: 'Back to the list' }).click();
      const item = page.getByTestId('reservation-item');
      await expect(item).toHaveCount(1);
      await expect(item).toContainText('10:00 – 11:30');
      await expect(item).toContainText('Chapter 2');
      await expect(item).toHaveClass(/ReservationMode/);
      await checkA11y(page, '/reservations');

      await item.getByRole('link').click();
      await expect(page).toHaveURL(/\/reservation\/\d+$/);
      const id = page.url().split('/').at(-1);
      await expect(page.getByText('Does not repeat')).toBeVisible();
      await expect(page.getByRole('button', { name: 'Skip this time' })).toHaveCount(0);
      // The six-hour rule is said while it still leaves room, with the moment changes close.
      await expect(page.getByText(/^You can change or cancel this jail until .+ 04:00; changes close 6 hours before the start\.$/)).toBeVisible();
      await checkA11y(page, '/reservation/:id');

      await page.getByRole('link', { name: 'Edit' }).click();
      await expect(page).toHaveURL(new RegExp(`/reservation/edit/${id}$`));
      await expect(page.getByLabel('Work', { exact: true })).toHaveValue('Chapter 2');
      await page.getByLabel('Work', { exact: true }).fill('Chapter 3');
      await checkA11y(page, '/reservation/edit/:id');
      await page.getByRole('button', { name: 'Save changes' }).click();
      await expect(page).toHaveURL(new RegExp(`/reservation/edited/${id}$`));
      await expect(page.getByRole('heading', { name: 'changes saved' })).toBeVisible();
      await page.getByRole('link', { name: 'Back to the jail' }).click();
      await expect(page.getByText('Chapter 3')).toBeVisible();

      // Cancelling can be thought better of: Keep it goes back to the jail.
      await page.getByRole('link', { name: 'Cancel' }).click();
      await expect(page).toHaveURL(new RegExp(`/reservation/remove/${id}$`));
      await page.getByRole('link', { name: 'Keep it' }).click();
      await expect(page).toHaveURL(new RegExp(`/reservation/${id}$`));
      await page.getByRole('link', { name: 'Cancel' }).click();
      await expect(page).toHaveURL(new RegExp(`/reservation/remove/${id}$`));
      await checkA11y(page, '/reservation/remove/:id');
      await page.getByRole('button', { name: 'Cancel the jail' }).click();
      await expect(page).toHaveURL(/\/reservation\/removed$/);
      await page.getByRole('link', { name: 'Back to the list' }).click();
      await expect(page.getByText('No jail booked yet.')).toBeVisible();
      expect(missing).toEqual([]);
    });

    test('skip a repeating jail; the six-hour cutoff', async ({ page, request }) => {
      const missing = watchMissingTexts(page);
      const weekly = await book(request, guest, 2, { repeatType: 'weekly' });
      await signedIn(page, guest, `/reservation/${weekly.id}`);
      await expect(page.getByText(/Every week on/)).toBeVisible();
      // The skip says what it will do first, and can be kept.
      await page.getByRole('button', { name: 'Skip this time' }).click();
      const confirm = page.getByRole('dialog', { name: /^Skip .+\?$/ });
      await expect(confirm).toContainText('Only this time is skipped');
      await checkA11y(page, 'the skip confirmation');
      await confirm.getByRole('button', { name: 'Keep it' }).click();
      await expect(confirm).toBeHidden();
      await expect(page).toHaveURL(new RegExp(`/reservation/${weekly.id}$`));
      await page.getByRole('button', { name: 'Skip this time' }).click();
      await confirm.getByRole('button', { name: 'Skip this time' }).click();
      await expect(page).toHaveURL(/\/reservations$/);
      // What was skipped is said once; a reload does not say it again.
      await expect(page.getByRole('status').filter({ hasText: /^Skipped .+\. The jail repeats as usual after it\.$/ })).toBeVisible();
      // The next time shows with its repeat; the skipped one is in the history, as skipped.
      await expect(page.getByTestId('reservation-item').first()).toContainText(/Every (Sun|Mon|Tue|Wed|Thu|Fri|Sat)$/);
      await page.getByRole('button', { name: 'See history' }).click();
      await expect(page.locator('#reservation-history')).toContainText('Skipped');
      await page.getByRole('button', { name: 'Hide history' }).click();
      await expect(page.getByTestId('reservation-item')).toHaveCount(1);
      await expect(page.locator(`a[href="/reservation/${weekly.id}"]`)).toHaveCount(0);

      // Within six hours (server and browser clocks 3 hours before the start): no edit or cancel.
      const soon = await book(request, guest, 4);
      const threeHoursBefore = soon.startTime - 3 * HOUR;
      await request.post('/dev/clock', { data: { offsetMs: threeHoursBefore - Date.now() } });
      await page.clock.install({ time: threeHoursBefore });
      await page.goto(`/reservation/${soon.id}`);
      // Said before any tap; a tap gets the alert, once, and goes nowhere.
      await expect(page.getByText(/Changes close 6 hours before the start/)).toBeVisible();
      await expect(page.getByRole('link', { name: 'Edit' })).toHaveCount(0);
      await expect(page.getByRole('link', { name: 'Cancel' })).toHaveCount(0);
      await checkA11y(page, 'a jail inside the six hours');
      // aria-disabled: still focusable and pressed, as a guest would (Playwright's click waits for "enabled").
      await page.getByRole('button', { name: 'Edit' }).press('Enter');
      await page.getByRole('button', { name: 'Cancel' }).press('Enter');
      await expect(page.getByRole('alert').filter({ hasText: 'No change available within 6 hours.' })).toBeVisible();
      await expect(page.getByText('No change available within 6 hours.')).toHaveCount(1);
      await expect(page).toHaveURL(new RegExp(`/reservation/${soon.id}$`));
      const refused = await call(request, '/reservation/update', {
        guest: { id: guest.id, token: guest.token },
        reservation: { id: soon.id, work: 'changed' },
      });
      expect(refused.api.errorMessage).toBe('No change available within 6 hours.');
      expect(missing).toEqual([]);
    });

    test('the ready window highlights the jail; after it, the report', async ({ page, request }) => {
      const missing = watchMissingTexts(page);
      const jail = await book(request, guest, 1);
      const fiveMinutesBefore = jail.startTime - 5 * 60_000;
      await request.post('/dev/clock', { data: { offsetMs: fiveMinutesBefore - Date.now() } });
      await page.clock.install({ time: fiveMinutesBefore });
      await signedIn(page, guest, '/reservations');
      const item = page.getByTestId('reservation-item').filter({ has: page.locator(`a[href="/reservation/${jail.id}"]`) });
      await expect(item).toHaveClass(/JailMode/);
      await expect(item).toContainText('Ready for jail');
      await expect(item).toContainText('Starts in 5 min');
      await expect(item.getByRole('link', { name: 'Prepare' })).toBeVisible();
      await expect(item.getByRole('link', { name: 'Go live' })).toBeVisible();
      await checkA11y(page, '/reservations (ready)');
      await page.goto(`/reservation/${jail.id}`);
      await expect(page.getByRole('link', { name: 'Go to preparation' })).toHaveAttribute('href', `/jail/prep/${jail.id}`);
      await expect(page.getByRole('button', { name: 'Go live' })).toBeVisible();

      const afterEnd = jail.startTime + 2 * HOUR;
      await request.post('/dev/clock', { data: { offsetMs: afterEnd - Date.now() } });
      await page.clock.setSystemTime(afterEnd);
      await page.goto(`/reservation/${jail.id}`);
      await expect(page.getByRole('heading', { name: 'Report' })).toBeVisible();
      await expect(page.getByText('no logs')).toBeVisible();
      await checkA11y(page, '/reservation/:id (report)');
      await page.goto('/reservations');
      const finished = page.locator(`a[href="/reservation/${jail.id}"]`);
      await expect(finished).toHaveCount(0);
      await page.getByRole('button', { name: 'See history' }).click();
      await expect(finished).toHaveCount(1);
      // Never entered: the history says so rather than "Finished".
      await expect(page.locator('#reservation-history').locator('li').filter({ has: finished })).toContainText('Ignored');
      expect(missing).toEqual([]);
    });

    test('the errors: no phone, a daily repeat without weekdays, an overlapping booking', async ({ page, request }) => {
      const missing = watchMissingTexts(page);
      // No phone: Book goes to the phone number (tests/guest-paths.spec.ts follows it back).
      await signedIn(page, await verifiedGuest(request), '/reservation/add');
      await page.getByRole('button', { name: 'Book', exact: true }).click();
      await expect(page).toHaveURL(/\/guest\/editPhone$/);

      const booked = await book(request, guest, 3);
      await signInPage(page, guest);
      await page.goto('/reservation/add');
      await page.getByRole('radio', { name: 'Daily' }).check();
      for (const weekday of ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'])
        await page.getByRole('group', { name: 'Days of the week' }).getByLabel(weekday).uncheck();
      await checkA11y(page, '/reservation/add (daily)');
      await page.getByRole('button', { name: 'Book', exact: true }).click();
      await expect(page.getByRole('alert')).toHaveText('Choose at least one weekday, from Sunday to Saturday, for a daily repeat.');
      await expect(page).toHaveURL(/\/reservation\/add$/);

      await page.getByRole('radio', { name: 'None' }).check();
      await page.getByRole('group', { name: 'Start date' }).getByRole('radio').nth(3).check();
      await page.getByLabel('Hour', { exact: true }).selectOption('10');
      await page.getByRole('radio', { name: ':30' }).check();
      await page.getByRole('button', { name: 'Book', exact: true }).click();
      await expectFieldError(page.getByRole('group', { name: 'Start time', exact: true }), 'This time overlaps your jail of');
      await expect(page.getByLabel('Hour', { exact: true })).toHaveValue('10');
      await expect(page).toHaveURL(/\/reservation\/add$/);
      expect(booked.id).toBeGreaterThan(0);
      expect(missing).toEqual([]);
    });

    test('an unverified guest sees the notice and can resend the link', async ({ page }) => {
      await signedIn(page, newcomer, '/reservations');
      await expect(
        page.getByText('To book a jail session, please first verify your account from the link previously sent to your email address.'),
      ).toBeVisible();
      await checkA11y(page, '/reservations (unverified)');
      await page.getByRole('button', { name: 'Resend verification link' }).click();
      await expect(page.getByText('email sent.')).toBeVisible();
    });

    test("the list opens straight to a verified guest's jails: the frame's Loading, the notice for the unverified and the empty list's words never show first", async ({
      page,
      request,
    }) => {
      const booked = await book(request, guest, 13);
      // Everything the page ever shows is watched, not only what it shows at the end.
      await page.addInitScript(() => {
        const seen = new Set<string>();
        Object.assign(window, { listSeen: seen });
        new MutationObserver(() => {
          // The screen is loaded ahead: a Loading shown first would also hold the list back (React reveals it no sooner than 300 ms later).
          if (document.querySelector('.app-main .loading') !== null) seen.add("the frame's Loading");
          if (document.getElementById('unverified-text') !== null) seen.add('the notice for the unverified');
          if (document.querySelector('.no-jail') !== null) seen.add('no jail booked yet');
        }).observe(document, { childList: true, subtree: true });
      });
      await signedIn(page, guest, '/reservations');
      await expect(page.locator(`a[href="/reservation/${booked.id}"]`)).toBeVisible();
      expect(await page.evaluate(() => [...((window as { listSeen?: Set<string> }).listSeen ?? [])])).toEqual([]);
    });

    test('the rules: three sections, seven rules', async ({ page }) => {
      await signedIn(page, newcomer, '/rules');
      await expect(page.getByRole('heading', { level: 2 })).toHaveCount(3);
      await expect(page.locator('.rules-list li')).toHaveCount(7);
      await checkA11y(page, '/rules');
    });
  });
}

test.describe('booking in Japanese at desktop 1280x800', () => {
  test.use({ viewport: VIEWPORTS[1].viewport, locale: 'ja-JP', timezoneId: 'Asia/Tokyo', serviceWorkers: 'block' });

  test('a jail booked by keyboard alone, then on the list', async ({ page, request }) => {
    const missing = watchMissingTexts(page);
    const guest = await readyGuest(request, { language: 'ja' });
    await signedIn(page, guest, '/reservation/add');
    await expect(page.getByRole('heading', { level: 1, name: 'ジェイルを予約' })).toBeVisible();
    await bookByKeyboard(page, JAPANESE_FORM);
    await expect(page).toHaveURL(/\/reservation\/added$/);
    await page.goto('/reservations');
    const item = page.getByTestId('reservation-item');
    await expect(item).toHaveCount(1);
    await expect(item).toContainText('10:00 – 11:30');
    await expect(item).toContainText('Chapter 2');
    await checkA11y(page, '/reservations in Japanese, one jail');
    expect(missing).toEqual([]);
  });
});

test.describe('reservations in Japanese at phone 360x640', () => {
  test.use({ viewport: VIEWPORTS[0].viewport, locale: 'ja-JP', timezoneId: 'Asia/Tokyo', serviceWorkers: 'block' });

  test('the repeat on the card, the skip asked first, and inside six hours the note and one alert', async ({ page, request }) => {
    const missing = watchMissingTexts(page);
    const guest = await readyGuest(request, { language: 'ja' });
    const weekly = await book(request, guest, 2, { repeatType: 'weekly' });
    await signedIn(page, guest, '/reservations');
    const card = page.getByTestId('reservation-item').filter({ has: page.locator(`a[href="/reservation/${weekly.id}"]`) });
    await expect(card).toContainText(/毎週(日|月|火|水|木|金|土)$/);
    await checkA11y(page, '/reservations in Japanese');

    await page.goto(`/reservation/${weekly.id}`);
    await page.getByRole('button', { name: '今回はスキップ' }).click();
    const confirm = page.getByRole('dialog', { name: /をスキップしますか？$/ });
    await expect(confirm).toContainText('スキップするのは今回だけです。');
    await checkA11y(page, 'the skip confirmation in Japanese');
    await confirm.getByRole('button', { name: 'スキップしない' }).click();
    await expect(confirm).toBeHidden();

    const soon = await book(request, guest, 4);
    const threeHoursBefore = soon.startTime - 3 * HOUR;
    await request.post('/dev/clock', { data: { offsetMs: threeHoursBefore - Date.now() } });
    await page.clock.install({ time: threeHoursBefore });
    await page.goto(`/reservation/${soon.id}`);
    await expect(page.getByText(/開始の6時間前を過ぎたため/)).toBeVisible();
    await page.getByRole('button', { name: '変更' }).press('Enter');
    await expect(page.getByRole('alert').filter({ hasText: '開始6時間前からは変更できません。' })).toBeVisible();
    await expect(page.getByText('開始6時間前からは変更できません。')).toHaveCount(1);
    await checkA11y(page, 'a jail inside the six hours, in Japanese');
    expect(missing).toEqual([]);
  });
});

for (const { name, viewport, locale, language, words } of [
  {
    name: 'phone 360x640 in English',
    viewport: VIEWPORTS[0].viewport,
    locale: 'en-US',
    language: 'en',
    words: { seeHistory: 'See history', ended: 'Finished', early: 'Finished early', forced: 'Ended by alerts', ignored: 'Ignored' },
  },
  {
    name: 'desktop 1280x800 in Japanese',
    viewport: VIEWPORTS[1].viewport,
    locale: 'ja-JP',
    language: 'ja',
    words: { seeHistory: '履歴を見る', ended: '終了', early: '早めに終了', forced: 'アラートで終了', ignored: '欠席' },
  },
] as const) {
  test.describe(`the history at ${name}`, () => {
    test.use({ viewport, locale, timezoneId: 'Asia/Tokyo', serviceWorkers: 'block' });

    test('tells a jail that ran to its end, one finished early, one ended by alerts and one ignored apart', async ({ page, request, baseURL }) => {
      if (baseURL === undefined) throw new Error('playwright.config.ts sets baseURL');
      const missing = watchMissingTexts(page);
      const guest = await readyGuest(request, { language });
      const [ended, early, forced, ignored] = [
        await book(request, guest, 1),
        await book(request, guest, 2),
        await book(request, guest, 3),
        await book(request, guest, 4),
      ];
      const from = fromGuest(guest);
      const enter = (jail: { startTime: number }) => enterJail(request, baseURL, guest, jail);

      const endedDevice = await enter(ended);
      await setClockOffset(request, ended.startTime + HOUR + 2 * 60_000 - Date.now());
      endedDevice.close();

      const earlyDevice = await enter(early);
      expect(
        await earlyDevice.emitWithAck('jail_finish_early_from_guest', {
          ...from,
          eventId: eventId(),
          reservation: { id: early.id },
          instruction: { text: 'A delivery came' },
        }),
      ).toEqual({ ok: true });
      earlyDevice.close();

      // The fourth alert within 20 minutes ends the jail.
      const forcedDevice = await enter(forced);
      for (const event of [
        'no_motion_event_from_guest',
        'nodding_motion_event_from_guest',
        'darkness_event_from_guest',
        'no_motion_event_from_guest',
      ] as const) {
        expect(await forcedDevice.emitWithAck(event, { ...from, eventId: eventId(), motion: { type: 0 } })).toEqual({ ok: true });
      }
      forcedDevice.close();

      // The last is never entered.
      const afterAll = ignored.startTime + 2 * HOUR;
      await setClockOffset(request, afterAll - Date.now());
      await page.clock.install({ time: afterAll });
      await signedIn(page, guest, '/reservations');
      await page.getByRole('button', { name: words.seeHistory }).click();
      const badgeOf = (jail: { id: number }) =>
        page
          .locator('#reservation-history li')
          .filter({ has: page.locator(`a[href="/reservation/${jail.id}"]`) })
          .locator('.reservation-badge');
      await expect(badgeOf(ended)).toHaveText(words.ended);
      await expect(badgeOf(early)).toHaveText(words.early);
      await expect(badgeOf(forced)).toHaveText(words.forced);
      await expect(badgeOf(ignored)).toHaveText(words.ignored);
      await checkA11y(page, `the history (${language})`);
      expect(missing).toEqual([]);
    });
  });
}

/**
 * The live jail with a camera (docs/client.md, The live screen): Chromium's fake
 * camera plays videos these tests write (tests/fake-camera.ts), the frames
 * go through the vision worker, and what it sees reaches the real server as
 * activity logs, read back through the API. Speech is recorded and spoken
 * commands are given through the fake recognition (tests/speech.ts).
 */
import { expect, type APIRequestContext, type Browser, type BrowserContext, type Locator, type Page, type WebSocketRoute } from '@playwright/test';
import type { ActivityLogEntry } from '../src/shared/relay.ts';
import { CAMERA_FAILURE_MESSAGE } from '../src/client/vision/capture.ts';
import { advanceUntil, DARK, MOVING, STILL, test } from './fake-camera.ts';
import { installClock, runFor, setSystemTime } from './worker-clock.ts';
import {
  allowCamera,
  blockCamera,
  book,
  CAMERA_BLOCKED,
  checkA11y,
  checkA11yLightAndDark,
  createWarden,
  readyGuest,
  signedIn,
  signInToConsole,
  VIEWPORTS,
  watchMissingTexts,
} from './helpers.ts';
import { cameraPanel, cameraWatching, commandButtons, hasNoSidewaysScroll, intoJail, logsOf, motionKinds, type Jail } from './live-jail.ts';
import { fakeRecognition, hear, listeningAgain, recordSpeech, spokenLines } from './speech.ts';

/** A human warden signed in to the console (a browser context of its own, in English) with the guest's jail open. */
async function consoleWithJailOpen(browser: Browser, request: APIRequestContext, jail: Jail): Promise<{ consoleContext: BrowserContext; panel: Locator }> {
  const warden = await createWarden(request);
  const consoleContext = await browser.newContext({ baseURL: test.info().project.use.baseURL, viewport: { width: 1280, height: 800 }, locale: 'en-US' });
  const consolePage = await consoleContext.newPage();
  await consolePage.goto('/warden');
  await signInToConsole(consolePage, warden);
  const card = consolePage.getByRole('article', { name: jail.guest.title });
  await card.getByRole('button', { name: 'Open' }).click();
  return { consoleContext, panel: consolePage.getByRole('region', { name: `${jail.guest.title}: Write the report` }) };
}

/** Watch live from the console's panel, until the guest's picture plays there. */
async function watchLive(panel: Locator): Promise<void> {
  await panel.getByRole('button', { name: 'Watch live' }).click();
  const video = panel.getByRole('region', { name: 'Live video' }).locator('video');
  await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.videoWidth), { timeout: 20_000 }).toBeGreaterThan(0);
  await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime)).toBeGreaterThan(0);
}

function liveStatus(page: Page) {
  return page.locator('.jail-screen').getByRole('status');
}

/** The live screen's clock: the countdown to the start, then the time left. */
function liveClock(page: Page) {
  return page.getByRole('timer');
}

function progressRing(page: Page) {
  return page.getByRole('progressbar', { name: 'How far the jail has gone' });
}

/** Records every name the Warden's eye takes: its looks come and go within seconds. */
async function recordEyeNames(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const names: string[] = [];
    Object.defineProperty(window, 'eyeNames', { value: names });
    const note = () => {
      const name = document.querySelector('.eye')?.getAttribute('aria-label');
      if (name !== undefined && name !== null && names.at(-1) !== name) names.push(name);
    };
    new MutationObserver(note).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-label'] });
  });
}

function eyeNames(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { eyeNames: string[] }).eyeNames);
}

/** `ms` of fake time for the page and its vision worker, 2 s at a time, each step done once its samples are. */
async function advance(page: Page, ms: number): Promise<void> {
  for (let advanced = 0; advanced < ms; advanced += 2_000) await runFor(page, 2_000);
}

function patrolCount(logs: ActivityLogEntry[]): number {
  return logs.filter((log) => log.type === 'patrol').length;
}

test.afterEach(async ({ request }) => {
  await request.post('/dev/clock', { data: { offsetMs: 0 } });
});

for (const { name, viewport } of VIEWPORTS) {
  test.describe(`the live jail at ${name}`, () => {
    test.use({ viewport, locale: 'en-US', serviceWorkers: 'block' });

    test.describe('with a moving scene as the camera', () => {
      test.use({ camera: MOVING });

      test('the camera watches; patrol images reach the report; movement makes no no-motion log', async ({ page, request }) => {
        const missing = watchMissingTexts(page);
        await recordSpeech(page);
        await recordEyeNames(page);
        const jail = await intoJail(page, request, 1);
        await cameraWatching(page);
        await expect(page.locator('.live-camera')).toHaveText('Camera on: analysed on this device');
        await checkA11y(page, '/jail/live/:id (camera on)');

        // The first patrol 10 s after setup, then by chance; 200 s of moving picture, 2 s at a time.
        await advance(page, 200_000);
        // The patrol images are folded under their count; each patrol showed the eye taking a picture.
        await cameraPanel(page)
          .getByText(/^\d+ patrol images? sent$/)
          .click();
        await expect(cameraPanel(page).getByRole('img', { name: 'Patrol image 1' })).toBeVisible();
        expect(await eyeNames(page)).toContain("The Warden's eye, taking a picture");
        await expect.poll(async () => patrolCount(await logsOf(request, jail))).toBeGreaterThan(0);
        expect(motionKinds(await logsOf(request, jail))).not.toContain('no_motion');

        await page.getByRole('button', { name: '3 Finish early' }).click();
        await page.getByLabel('Why are you finishing early?').fill('Done for today');
        await page.getByRole('button', { name: 'Finish the jail' }).click();
        await expect(page).toHaveURL(new RegExp(`/reservation/${jail.id}$`));
        await expect(page.getByRole('img', { name: /patrol/i }).first()).toBeVisible();
        expect(missing).toEqual([]);
      });
    });

    test.describe('with a still scene as the camera', () => {
      test.use({ camera: STILL });

      test('a still room with no one in it is asked about, then written once as away, never also as no motion', async ({ page, request }) => {
        await recordSpeech(page);
        const jail = await intoJail(page, request, 2);
        await cameraWatching(page);
        const done = async () => motionKinds(await logsOf(request, jail)).includes('away');
        // The no-face time counts at most 2 s per frame: 2 s steps of the page's clock. The away count, then the check-in's 30 s.
        const advanced = await advanceUntil(page, done, 2_000, 260_000);
        expect(advanced).toBeGreaterThanOrEqual(200_000);
        expect(motionKinds(await logsOf(request, jail))).toEqual(['away']);
      });
    });

    test.describe('with a covered lens as the camera', () => {
      test.use({ camera: DARK });

      test('darkness makes a darkness log, the eye stares, and no patrol image is sent', async ({ page, request }) => {
        await recordSpeech(page);
        await recordEyeNames(page);
        const jail = await intoJail(page, request, 3);
        await cameraWatching(page);
        await advanceUntil(page, async () => motionKinds(await logsOf(request, jail)).includes('darkness'), 2_000, 60_000);
        // Patrol checks came every 10 s meanwhile: every picture was black, so none was sent.
        expect(patrolCount(await logsOf(request, jail))).toBe(0);
        await expect(cameraPanel(page).getByRole('img')).toHaveCount(0);
        // The alert woke the eye, red and staring, for a moment.
        expect(await eyeNames(page)).toContain("The Warden's eye, staring at you");
      });
    });
  });
}

for (const { name, viewport } of VIEWPORTS) {
  test.describe(`the live jail with the test pattern as the camera at ${name}`, () => {
    test.use({ viewport, locale: 'en-US', serviceWorkers: 'block' });

    test("before the start: a countdown to it, no commands; the server's start wakes the eye, greets, then the eye rests half open", async ({
      page,
      request,
    }) => {
      await recordSpeech(page);
      const guest = await readyGuest(request);
      const reservation = await book(request, guest, 9);
      const before = reservation.startTime - 5 * 60_000;
      await request.post('/dev/clock', { data: { offsetMs: before - Date.now() } });
      await installClock(page, before);
      await signedIn(page, guest, `/jail/live/${reservation.id}`);
      // A countdown to the start and its time, large, in place of the status; the ring is empty.
      await expect(liveClock(page)).toHaveAttribute('data-phase', 'before');
      await expect(liveClock(page).locator('.live-clock-label')).toHaveText('Starts in');
      // The page's clock runs: the countdown ticks from five minutes.
      await expect(liveClock(page).locator('.live-clock-time')).toHaveText(/^(5:00|4:[0-5]\d)$/);
      await expect(liveClock(page).locator('.live-clock-at')).toHaveText('at 10:00');
      await expect(liveStatus(page)).toHaveCount(0);
      await expect(page.getByText('In the jail')).toHaveCount(0);
      await expect(progressRing(page)).toHaveAttribute('aria-valuenow', '0');
      await expect(commandButtons(page).first()).toBeDisabled();
      await expect(page.getByRole('img', { name: "The Warden's eye, closed" })).toBeVisible();
      await checkA11yLightAndDark(page, '/jail/live/:id (before the start)');
      await expect(cameraPanel(page)).toHaveAttribute('data-phase', 'off');

      // The start, by the server's clock (the scheduler runs at once) and the page's.
      await setSystemTime(page, reservation.startTime + 1_000);
      await request.post('/dev/clock', { data: { offsetMs: reservation.startTime + 1_000 - Date.now() } });
      await expect(commandButtons(page).first()).toBeEnabled();
      await expect(page.getByRole('img', { name: /^The Warden's eye, (talking to you|looking around)$/ })).toBeVisible();
      // The greeting names the work; each line is said and shown.
      await expect.poll(async () => (await spokenLines(page)).some((line) => line.text.includes('Write the report'))).toBe(true);
      await expect(page.locator('.subtitles .subtitle')).not.toBeEmpty();
      await expect(liveStatus(page)).toHaveText('In the jail');
      await expect(liveClock(page)).toHaveAttribute('data-phase', 'during');
      await expect(liveClock(page).locator('.live-clock-at')).toHaveText('until 11:00');
      await cameraWatching(page);
      // The greeting over, the eye sleeps: half open, since the Warden still watches the jail.
      await runFor(page, 7_000);
      await expect(page.getByRole('img', { name: "The Warden's eye, watching quietly" })).toBeVisible();
      // Waiting for the guest's words, it listens; the talk sheet closed, it rests again.
      await page.getByRole('button', { name: '4 Talk to the Warden' }).click();
      await expect(page.locator('.eye')).toHaveAttribute('aria-label', "The Warden's eye, listening to you");
      await page.getByRole('dialog', { name: 'Talk to the Warden' }).getByRole('button', { name: 'Close' }).click();
      await expect(page.getByRole('img', { name: "The Warden's eye, watching quietly" })).toBeVisible();
      // A break: the camera is off, and so is the eye.
      await page.getByRole('button', { name: '2 Take a break' }).click();
      await expect(page.getByRole('img', { name: "The Warden's eye, closed" })).toBeVisible();
    });

    test('the plan: the step under way and the next on screen, each announced at its minute, and listed on the detail page', async ({ page, request }) => {
      await recordSpeech(page);
      const guest = await readyGuest(request);
      const schedules = [
        { minutes: 15, title: 'Outline the argument' },
        { minutes: 5, title: 'Read the notes' },
      ];
      const reservation = await book(request, guest, 3, { schedules });
      const inside = reservation.startTime + 6 * 60_000;
      await request.post('/dev/clock', { data: { offsetMs: inside - Date.now() } });
      await installClock(page, inside);
      await signedIn(page, guest, `/jail/live/${reservation.id}`);
      const plan = page.getByRole('region', { name: 'Your plan' });
      await expect(plan).toContainText('Now: Read the notes');
      await expect(plan).toContainText('Next, at 10:15: Outline the argument');
      await checkA11yLightAndDark(page, '/jail/live/:id (with a plan)');

      // The second step's minute, by both clocks: shown and said.
      const second = reservation.startTime + 15 * 60_000 + 1_000;
      await request.post('/dev/clock', { data: { offsetMs: second - Date.now() } });
      await setSystemTime(page, second);
      await expect(plan).toContainText('Now: Outline the argument');
      await expect(plan).not.toContainText('Next');
      await expect.poll(async () => (await spokenLines(page)).map((line) => line.text)).toContain('Time for the next step of your plan: Outline the argument.');

      await page.goto(`/reservation/${reservation.id}`);
      const planList = page.locator('.detail-plan');
      await expect(planList.getByRole('listitem')).toHaveText(['10:05 (+5 min) Read the notes', '10:15 (+15 min) Outline the argument']);
    });

    test('back from the list: the running jail says Live now and how long the guest has been away from it, and returning keeps the conversation', async ({
      page,
      request,
    }) => {
      await recordSpeech(page);
      const jail = await intoJail(page, request, 2);
      await expect.poll(async () => (await spokenLines(page)).some((line) => line.text.includes('Write the report'))).toBe(true);
      // The tab closed mid-jail, the app opened again at its home: the list.
      await page.goto('/reservations');
      const item = page.getByTestId('reservation-item').filter({ hasText: 'Write the report' });
      await expect(item).toHaveAttribute('data-mode', 'live');
      await expect(item).toContainText('Live now');
      await expect(item).not.toContainText('Ready for jail');
      await expect(item.getByRole('link', { name: 'Prepare' })).toHaveCount(0);
      await expect(item.getByRole('timer')).toContainText('Away from the jail screen for 0 min');
      await runFor(page, 65_000);
      await expect(item.getByRole('timer')).toHaveText(/^Away from the jail screen for 1 min [5-9] s\. The Warden cannot see you until you return\.$/);
      await checkA11yLightAndDark(page, '/reservations (a live jail left)');
      await item.getByRole('link', { name: 'Return to the jail' }).click();
      await expect(page).toHaveURL(new RegExp(`/jail/live/${jail.id}$`));
      // The conversation so far is there again, each line once.
      const conversation = page.locator('.conversation');
      await conversation.locator('summary').click();
      await expect(conversation.getByText('Your jail starts now. Today your work is Write the report.')).toHaveCount(1);
      await expect(conversation.getByText('Stay with it until 11:00.')).toHaveCount(1);
    });

    test('a focus timer: the ring fills, the time left and the end time show throughout, the last 30 minutes marked; finishing early asks in a sheet in view', async ({
      page,
      request,
    }) => {
      await recordSpeech(page);
      const jail = await intoJail(page, request, 1);
      await expect(page.getByRole('heading', { level: 1, name: 'Write the report' })).toBeVisible();
      // A minute into an hour: the ring barely started; the clock tells the time left and the end.
      await expect(progressRing(page)).toHaveAttribute('aria-valuenow', '2');
      await expect(progressRing(page)).toHaveAttribute('aria-valuetext', '2% done');
      await expect(liveClock(page).locator('.live-clock-label')).toHaveText('Time left');
      await expect(liveClock(page).locator('.live-clock-time')).toHaveText(/^5[89]:\d\d$/);
      await expect(liveClock(page).locator('.live-clock-at')).toHaveText('until 11:00');
      await expect(liveClock(page)).toHaveAttribute('data-final', 'false');
      await checkA11yLightAndDark(page, '/jail/live/:id (in the jail)');

      // 35 minutes in, by both clocks: the ring grows and the time left shows.
      const late = jail.startTime + 35 * 60_000;
      await request.post('/dev/clock', { data: { offsetMs: late - Date.now() } });
      await setSystemTime(page, late);
      await expect(progressRing(page)).toHaveAttribute('aria-valuenow', '58');
      await expect(liveClock(page).locator('.live-clock-time')).toHaveText('25:00');
      await expect(liveClock(page)).toHaveAttribute('data-final', 'true');

      // Finishing early is a danger action: a sheet in view says what it means and needs a reason.
      await page.getByRole('button', { name: '3 Finish early' }).click();
      const sheet = page.getByRole('dialog', { name: 'Finish early?' });
      await expect(sheet).toBeInViewport({ ratio: 1 });
      await expect(sheet).toContainText('New bookings stay blocked until 11:00, when this jail was due to end.');
      const reason = sheet.getByLabel('Why are you finishing early?');
      const send = sheet.getByRole('button', { name: 'Finish the jail' });
      await expect(reason).toHaveAttribute('maxlength', '500');
      await expect(send).toBeDisabled();
      await reason.fill('   ');
      await expect(send).toBeDisabled();
      await reason.fill('A delivery came');
      await expect(send).toBeEnabled();
      await checkA11yLightAndDark(page, '/jail/live/:id (finish early sheet)');
      await sheet.getByRole('button', { name: 'Keep going' }).click();
      await expect(sheet).toBeHidden();
      await expect(liveStatus(page)).toHaveText('In the jail');
      expect(await logsOf(request, jail)).not.toContainEqual(expect.objectContaining({ type: 'instruction' }));

      // Nothing scrolls sideways, down to a 320 px phone.
      expect(await hasNoSidewaysScroll(page)).toBe(true);
      await page.setViewportSize({ width: 320, height: 640 });
      expect(await hasNoSidewaysScroll(page)).toBe(true);
    });

    test('spoken commands: a break closes the camera, its end reopens it; talking to the Warden gets an answer', async ({ page, request }) => {
      await recordSpeech(page);
      await fakeRecognition(page);
      const jail = await intoJail(page, request, 4);
      await cameraWatching(page);
      // Not an iPhone: the camera (Chromium's fake one offers 640x480) opens at most 160 wide.
      expect(
        await cameraPanel(page)
          .locator('video')
          .evaluate((element: HTMLVideoElement) => element.videoWidth),
      ).toBeLessThanOrEqual(160);

      // Recognition works here, so the screen says it listens.
      await expect(page.getByText('Listening for a command')).toBeVisible();
      await hear(page, 'take a break');
      // What was heard shows for 1.5 s only: looked at first.
      await expect(page.getByText('You said: take a break')).toBeVisible();
      await expect(liveStatus(page)).toHaveText(/^On a break: (20:00|19:\d\d) left$/);
      await expect(cameraPanel(page)).toHaveAttribute('data-phase', 'off');
      await expect(commandButtons(page)).toHaveText(['6 End the break']);
      await hear(page, 'end the break');
      await expect(liveStatus(page)).toHaveText('In the jail');
      await cameraWatching(page);

      await hear(page, 'leave the seat');
      await expect(liveStatus(page)).toHaveText(/^Out of your seat/);
      await hear(page, "I'm back");
      await expect(liveStatus(page)).toHaveText('In the jail');

      await page.getByRole('button', { name: '4 Talk to the Warden' }).click();
      await page.getByLabel('What do you want to tell the Warden?').fill('I am stuck on the introduction');
      await checkA11y(page, '/jail/live/:id (talk form)');
      await page.getByRole('button', { name: 'Send', exact: true }).click();
      // The virtual Warden answers: said and shown.
      await expect
        .poll(async () => (await logsOf(request, jail)).some((log) => log.type === 'dialog' && log.dialog.text === 'I am stuck on the introduction'))
        .toBe(true);
      const conversation = page.locator('details.conversation');
      await conversation.getByText(/^Conversation \(\d+ lines?\)$/).click();
      await expect(conversation.getByRole('listitem').filter({ hasText: 'I am stuck on the introduction' })).toHaveText('You I am stuck on the introduction');
      await expect.poll(async () => (await spokenLines(page)).length).toBeGreaterThan(5);
      // Each command is answered once, on the device, in the words the jail's log keeps (shared/device-lines.ts).
      const answers = [
        'Enjoy your 20 minute break. Rest well and come back on time.',
        'Break over. Back to work.',
        'All right. Please be back within 5 minutes.',
        'Welcome back. Let us carry on.',
        'I am listening.',
      ];
      const said = (await spokenLines(page)).map((line) => line.text);
      expect(said.filter((text) => answers.includes(text))).toEqual(answers);
      const logged = (await logsOf(request, jail)).flatMap((log) => (log.type === 'dialog' && log.dialog.type === 1 ? [log.dialog.text] : []));
      expect(logged.filter((text) => answers.includes(text))).toEqual(answers.slice(0, 4));
      await expect(conversation.getByRole('listitem').filter({ hasText: 'Break over. Back to work.' })).toHaveCount(1);
    });

    test("while the Warden speaks, its own words through the microphone give no command, and the guest's do", async ({ page, request }) => {
      // Lines that go on until cancelled: the Warden is still saying each when the next words are heard.
      await recordSpeech(page, { endless: true });
      await fakeRecognition(page);
      await intoJail(page, request, 4);
      await cameraWatching(page);
      await expect(page.getByText('Listening for a command')).toBeVisible();
      await hear(page, 'leave the seat');
      await expect(liveStatus(page)).toHaveText(/^Out of your seat/);
      await expect.poll(async () => (await spokenLines(page)).map((line) => line.text)).toContain('All right. Please be back within 5 minutes.');
      // "back" and "five" name the return: heard from the speaker, they are not the guest's.
      await hear(page, 'all right please be back within five minutes');
      await listeningAgain(page);
      await expect(liveStatus(page)).toHaveText(/^Out of your seat/);
      await expect(page.getByText('You said: all right please be back within five minutes')).toHaveCount(0);
      await hear(page, "I'm back");
      await expect(liveStatus(page)).toHaveText('In the jail');
    });

    test('a human warden watches the guest live and talks to them', async ({ page, request, browser }) => {
      await recordSpeech(page);
      const jail = await intoJail(page, request, 5);
      await cameraWatching(page);
      const { consoleContext, panel } = await consoleWithJailOpen(browser, request, jail);
      try {
        await watchLive(panel);
        await expect(page.getByText('A human warden is watching live')).toBeVisible();

        await panel.getByLabel('Say to the guest').fill('I can see you. Keep going.');
        await panel.getByRole('button', { name: 'Send' }).click();
        // Read by the same voice, the words are labelled as a human warden's, never taken for the Warden's own.
        await expect(page.locator('.subtitles')).toContainText('I can see you. Keep going.');
        await expect(page.locator('.subtitle[data-by="human"] .speaker')).toHaveText('A human warden');
        await expect.poll(async () => (await spokenLines(page)).map((line) => line.text)).toContain('I can see you. Keep going.');
        await page.getByText(/^Conversation \(\d+ lines?\)$/).click();
        await expect(page.locator('details.conversation').getByRole('listitem').last()).toHaveText('A human warden I can see you. Keep going.');
        await expect(page.locator('details.conversation').getByRole('listitem').first()).toHaveText(/^Warden Your jail starts now\./);

        // A break closes the camera: the warden's call ends, and the guest is told.
        await page.getByRole('button', { name: '2 Take a break' }).click();
        await expect(panel.getByText('The guest ended the video.')).toBeVisible();
        await expect(page.getByText('A human warden is watching live')).toHaveCount(0);
        await expect(page.locator('.live-camera')).toHaveText('Camera off for your break');
        await expect.poll(async () => (await spokenLines(page)).map((line) => line.text)).toContain('No human warden is watching you live any more.');
      } finally {
        await consoleContext.close();
      }
    });

    test('a screen that cannot be shared falls back to the camera', async ({ page, request }) => {
      await page.addInitScript(() => {
        navigator.mediaDevices.getDisplayMedia = () => Promise.reject(new DOMException('Permission denied', 'NotAllowedError'));
      });
      await recordSpeech(page);
      await intoJail(page, request, 12);
      await cameraWatching(page);
      await cameraPanel(page).locator('summary', { hasText: 'Camera source' }).click();
      await cameraPanel(page).getByRole('radio', { name: 'Screen' }).check();
      await expect(cameraPanel(page).getByText('Your screen could not be shared, so the camera is used instead.')).toBeVisible();
      await cameraWatching(page);
      await checkA11y(page, '/jail/live/:id (screen refused)');
    });

    test('a blocked camera is said plainly, aloud and on screen, with how to allow it and a retry', async ({ page, request }) => {
      await blockCamera(page);
      await recordSpeech(page);
      await intoJail(page, request, 6);
      const alert = cameraPanel(page).getByRole('alert');
      await expect(alert).toContainText(CAMERA_BLOCKED.en.title);
      await expect(alert).toContainText(CAMERA_FAILURE_MESSAGE);
      await expect(alert).toContainText(CAMERA_BLOCKED.en.how);
      await expect(cameraPanel(page)).toHaveAttribute('data-phase', 'failed');
      await expect(page.getByText('Camera off: the Warden cannot see you')).toBeVisible();
      await expect
        .poll(async () => (await spokenLines(page)).map((line) => line.text))
        .toContain('I cannot see you: your camera is not on. Allow the camera, then press Try the camera again.');
      await checkA11y(page, '/jail/live/:id (camera failed)');
      await allowCamera(page);
      await alert.getByRole('button', { name: CAMERA_BLOCKED.en.retry }).click();
      await cameraWatching(page);
    });

    test('a browser without a camera API is told the jail is not available here', async ({ page, request }) => {
      await page.addInitScript(() => {
        Object.defineProperty(navigator, 'mediaDevices', { value: undefined });
      });
      await intoJail(page, request, 7);
      await expect(cameraPanel(page).getByRole('alert')).toContainText(
        'Jail is not available on this environment. Please use Safari if you are iOS user, or use Chrome if Android',
      );
      await expect(cameraPanel(page).getByRole('button', { name: 'Reload' })).toBeVisible();
    });

    test('when the relay cannot be reached again, the Japanese connection-lost alert, then a reload', async ({ page, request }) => {
      await recordSpeech(page);
      let relayUp = true;
      const open: WebSocketRoute[] = [];
      await page.routeWebSocket(/\/socket\.io\//, (socket) => {
        // Down for good: new connections get no answer (each attempt times out).
        if (relayUp) open.push(socket.connectToServer());
      });
      await intoJail(page, request, 13);
      const alerted = page.waitForEvent('dialog');
      relayUp = false;
      for (const server of open.splice(0)) await server.close();
      // 20 attempts, each given up after socket.io's 20 s, 1 s to 5 s apart: on the page's clock.
      const reloaded = page.waitForEvent('load');
      let alertShown = false;
      void alerted.then(() => (alertShown = true));
      for (let advanced = 0; !alertShown; advanced += 5_000) {
        if (advanced > 600_000) throw new Error('No alert after 10 minutes of reconnecting');
        await page.clock.runFor(5_000);
      }
      const dialog = await alerted;
      expect(dialog.type()).toBe('alert');
      expect(dialog.message()).toBe('サーバーとの接続が切れました。ページを再読み込みします。');
      await dialog.accept();
      await reloaded;
    });

    test('offline: one calm line that covers no command; a command given offline reaches the server once back online', async ({ page, request, context }) => {
      await recordSpeech(page);
      let relayUp = true;
      const open: WebSocketRoute[] = [];
      const held: WebSocketRoute[] = [];
      await page.routeWebSocket(/\/socket\.io\//, (socket) => {
        if (relayUp) open.push(socket.connectToServer());
        else held.push(socket);
      });
      const jail = await intoJail(page, request, 9);
      const logged = (await logsOf(request, jail)).length;

      // The device goes offline: the relay drops with it.
      await context.setOffline(true);
      relayUp = false;
      for (const server of open.splice(0)) await server.close();
      const line = page.locator('.connection-state');
      await expect(line).toHaveText(/^You are offline\./);
      await expect(line).toContainText('the commands you give are kept and sent once the connection is back');
      // One message: not the shell's offline notice, overlay or banner on top of it, nor the reconnecting line.
      await expect(page.getByText('The connection to the Warden was lost. Reconnecting…')).toHaveCount(0);
      await expect(page.getByTestId('loading-overlay')).toHaveCount(0);
      await expect(page.getByRole('alertdialog')).toHaveCount(0);
      await expect(page.locator('.offline-notice')).toHaveCount(0);
      await checkA11yLightAndDark(page, '/jail/live/:id (offline)');
      expect(await hasNoSidewaysScroll(page)).toBe(true);
      // The commands are not covered: a click reaches them.
      await page.getByRole('button', { name: '1 Leave the seat' }).click();
      await expect(liveStatus(page)).toHaveText(/^Out of your seat/);
      expect((await logsOf(request, jail)).length).toBe(logged);

      await context.setOffline(false);
      relayUp = true;
      for (const socket of held.splice(0)) open.push(socket.connectToServer());
      await expect(line).toBeHidden();
      // The kept command was sent again: the server logged the leave.
      await expect.poll(async () => (await logsOf(request, jail)).length).toBeGreaterThan(logged);
      await page.reload();
      await expect(commandButtons(page)).toHaveText(['5 Back to the seat']);
    });

    test('a relay outage: a command given meanwhile reaches the server once the relay is back', async ({ page, request }) => {
      await recordSpeech(page);
      let relayUp = true;
      const open: WebSocketRoute[] = [];
      const held: WebSocketRoute[] = [];
      await page.routeWebSocket(/\/socket\.io\//, (socket) => {
        // While the relay is down a new connection gets no answer; it reaches the server once the relay is back.
        if (relayUp) open.push(socket.connectToServer());
        else held.push(socket);
      });
      const jail = await intoJail(page, request, 8);
      const logged = (await logsOf(request, jail)).length;

      // The relay drops the connection (closing the server's side is passed on to the page).
      relayUp = false;
      for (const server of open.splice(0)) await server.close();
      await expect(page.getByText('The connection to the Warden was lost. Reconnecting…')).toBeVisible();
      await expect(page.getByTestId('loading-overlay')).toHaveCount(0);
      await page.getByRole('button', { name: '1 Leave the seat' }).click();
      await expect(liveStatus(page)).toHaveText(/^Out of your seat/);
      await expect.poll(() => held.length).toBeGreaterThan(0);
      expect((await logsOf(request, jail)).length).toBe(logged);

      relayUp = true;
      for (const socket of held.splice(0)) open.push(socket.connectToServer());
      await expect(page.getByText('The connection to the Warden was lost. Reconnecting…')).toBeHidden();
      // The kept event was sent again: the server logged the leave (and its Warden's answer).
      await expect.poll(async () => (await logsOf(request, jail)).length).toBeGreaterThan(logged);

      // The server has the status: after a reload the relay's resume (commands enabled) says so.
      await page.reload();
      await expect(commandButtons(page).first()).toBeEnabled();
      await expect(commandButtons(page)).toHaveText(['5 Back to the seat']);
      await expect(liveStatus(page)).toHaveText(/^Out of your seat/);
    });
  });
}

/** What the guest reads and hears of the camera and of a human warden's live video, in each language. */
const WATCH_TEXTS = [
  {
    language: 'en',
    locale: 'en-US',
    voice: 'en-US',
    cameraOn: 'Camera on: analysed on this device',
    cameraCard: 'Camera',
    sent: 'From the camera, only events and small patrol images are sent. The live picture goes out only while a human warden watches.',
    watched: 'A human warden is watching live',
    started: 'A human warden has started watching you live.',
    ended: 'No human warden is watching you live any more.',
  },
  {
    language: 'ja',
    locale: 'ja-JP',
    voice: 'ja-JP',
    cameraOn: 'カメラ：オン（この端末内で解析）',
    cameraCard: 'カメラ',
    sent: 'カメラから送られるのは、イベントと小さな巡回画像だけです。ライブ映像は、看守が見ている間だけ送られます。',
    watched: '看守がライブ映像を見ています',
    started: '看守がライブ映像を見始めました。',
    ended: 'ライブ映像を見ている看守はいなくなりました。',
  },
] as const;

for (const { name, viewport } of VIEWPORTS) {
  for (const words of WATCH_TEXTS) {
    test.describe(`the camera's state on the live screen at ${name} in ${words.language}`, () => {
      // A moving scene: no alert of the Warden's comes to take the subtitles' place meanwhile.
      test.use({ viewport, locale: words.locale, serviceWorkers: 'block', camera: MOVING });

      test('the camera says it is on; a human warden watching live shows at once, is said and written, and so is the end', async ({
        page,
        request,
        browser,
      }) => {
        const missing = watchMissingTexts(page);
        await recordSpeech(page);
        const jail = await intoJail(page, request, 6, words.language);
        await cameraWatching(page, words.cameraCard);
        const state = page.locator('.live-camera');
        await expect(state).toHaveText(words.cameraOn);
        await expect(state).toBeInViewport({ ratio: 1 });
        await expect(cameraPanel(page, words.cameraCard)).toContainText(words.sent);
        await expect(page.getByText(words.watched)).toHaveCount(0);

        const { consoleContext, panel } = await consoleWithJailOpen(browser, request, jail);
        try {
          await watchLive(panel);
          // The guest sees it at once, at the top of the screen, without scrolling...
          const watched = page.getByText(words.watched);
          await expect(watched).toBeInViewport({ ratio: 1 });
          // ...reads it in the subtitles (an aria-live region) and hears it from the Warden, in their language.
          await expect(page.locator('.subtitles[aria-live="polite"]')).toContainText(words.started);
          await expect.poll(() => spokenLines(page)).toContainEqual({ text: words.started, lang: words.voice });
          await expect(state).toContainText(words.cameraOn);
          await checkA11yLightAndDark(page, `/jail/live/:id (watched live, ${words.language})`);
          if (viewport.width < 400) {
            // Down to a 320 px phone the chip is in sight, and nothing scrolls sideways.
            await page.setViewportSize({ width: 320, height: 568 });
            await expect(watched).toBeInViewport({ ratio: 1 });
            expect(await hasNoSidewaysScroll(page)).toBe(true);
            await page.setViewportSize(viewport);
          }

          // The warden stops: the chip goes, and the Warden says so.
          await panel.getByRole('button', { name: 'Stop watching' }).click();
          await expect(watched).toHaveCount(0);
          await expect(page.locator('.subtitles')).toContainText(words.ended);
          await expect.poll(() => spokenLines(page)).toContainEqual({ text: words.ended, lang: words.voice });
          await expect(state).toHaveText(words.cameraOn);
          await checkA11yLightAndDark(page, `/jail/live/:id (no longer watched, ${words.language})`);
        } finally {
          await consoleContext.close();
        }
        expect(missing).toEqual([]);
      });
    });
  }
}

test.describe('the live jail with a still scene and an approved scene', () => {
  test.use({ viewport: VIEWPORTS[0].viewport, locale: 'en-US', serviceWorkers: 'block', camera: STILL });

  test('an approved scene is not counted as no motion', async ({ page, request }) => {
    await recordSpeech(page);
    const jail = await intoJail(page, request, 10);
    await cameraWatching(page);
    // The first patrol image, 10 s after the camera opened, becomes an approved scene of this guest.
    await advanceUntil(page, async () => patrolCount(await logsOf(request, jail)) > 0, 2_000, 30_000);
    const patrol = (await logsOf(request, jail)).find((log) => log.type === 'patrol');
    if (patrol?.type !== 'patrol') throw new Error('no patrol image');
    const approved = await request.post('/dev/feature-images', { data: { guestId: jail.guest.id, data: patrol.patrol.data } });
    expect(approved.ok(), 'POST /dev/feature-images').toBe(true);
    // Connecting again, the device gets its approved scenes.
    await page.reload();
    await cameraWatching(page);
    await advance(page, 200_000);
    expect(motionKinds(await logsOf(request, jail))).not.toContain('no_motion');
  });
});

test.describe('the live jail on an iPhone', () => {
  test.use({
    viewport: VIEWPORTS[0].viewport,
    locale: 'en-US',
    serviceWorkers: 'block',
    userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1',
  });

  test('the camera opens up to 640 wide (other devices: up to 160)', async ({ page, request }) => {
    await recordSpeech(page);
    await intoJail(page, request, 11);
    await cameraWatching(page);
    const width = await cameraPanel(page)
      .locator('video')
      .evaluate((element: HTMLVideoElement) => element.videoWidth);
    expect(width).toBeGreaterThan(160);
    expect(width).toBeLessThanOrEqual(640);
  });
});

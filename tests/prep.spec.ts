/**
 * The guided preparation, /jail/prep/:id (docs/prep.md), against
 * the built client and the real server, at a phone and a desktop size and
 * once in Japanese: three scenarios said and subtitled, the camera preview,
 * the commands practised by touch and by voice, then live. Speech is
 * recorded and recognition scripted (tests/speech.ts).
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { CAMERA_FAILURE_MESSAGE } from '../src/client/vision/capture.ts';
import { texts as jailTexts } from '../src/client/features/jail/texts.ts';
import { readingTimeMs } from '../src/client/features/prep/pace.ts';
import { texts } from '../src/client/features/prep/texts.ts';
import { texts as listTexts } from '../src/client/features/reservations/list/texts.ts';
import { allowCamera, blockCamera, book, CAMERA_BLOCKED, checkA11y, createGuest, readyGuest, signedIn, VIEWPORTS, watchMissingTexts } from './helpers.ts';
import { fakeRecognition, hear, recordSpeech, spokenLines } from './speech.ts';

type PrepTexts = (typeof texts)['en' | 'ja'];

function numbered(language: PrepTexts, ...numbers: number[]): string[] {
  return numbers.map((number) => language[`prep_text_${number}` as keyof PrepTexts]);
}

async function saidTexts(page: Page): Promise<string[]> {
  return (await spokenLines(page)).map((line) => line.text);
}

function subtitle(page: Page) {
  return page.locator('.prep-subtitle');
}

/** Says `text` once the prompt shows that the app is listening (tests/speech.ts, `hear`). */
async function answer(page: Page, language: PrepTexts, text: string) {
  await expect(page.getByText(language.listening)).toBeVisible();
  await hear(page, text);
}

/**
 * A ready guest with a booked jail opens its preparation (speech recorded,
 * recognition scripted); answers the jail and the texts missing. The page
 * counts as `touched` (as after prep_before's Start) or not (reloaded),
 * since Chromium under Playwright may say either.
 */
async function openPreparation(page: Page, request: APIRequestContext, { touched = true, endlessSpeech = false } = {}) {
  const missing = watchMissingTexts(page);
  await recordSpeech(page, { endless: endlessSpeech });
  await fakeRecognition(page);
  await page.addInitScript((hasBeenActive) => {
    Object.defineProperty(navigator, 'userActivation', { value: { hasBeenActive, isActive: false } });
  }, touched);
  const guest = await readyGuest(request);
  const jail = await book(request, guest, 1);
  await signedIn(page, guest, `/jail/prep/${jail.id}`);
  return { jail, missing };
}

for (const { name, viewport } of VIEWPORTS) {
  test.describe(`preparation at ${name}`, () => {
    test.use({ viewport, locale: 'en-US', serviceWorkers: 'block' });

    test('three scenarios said and subtitled, listened to again, the camera previewed, the commands given by touch and voice, then live', async ({
      page,
      request,
    }) => {
      const en = texts.en;
      // Keeps the camera's streams, to see that they are stopped after scenario 2.
      await page.addInitScript(() => {
        const opened: MediaStream[] = [];
        Object.defineProperty(window, 'openedStreams', { value: opened });
        const open = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
        navigator.mediaDevices.getUserMedia = async (constraints) => {
          const stream = await open(constraints);
          opened.push(stream);
          return stream;
        };
      });
      const { jail, missing } = await openPreparation(page, request);

      // Scenario 1: texts 1-3, then 'Listen again' says them again.
      await expect(page.getByRole('heading', { level: 1, name: en.title })).toBeVisible();
      await expect(page.getByRole('img', { name: /^The Warden's eye/ })).toBeVisible();
      const next = page.getByRole('button', { name: en.next });
      await expect(next).toBeVisible();
      await expect(subtitle(page)).toHaveText(en.prep_text_3);
      expect(await saidTexts(page)).toEqual(numbered(en, 1, 2, 3));
      expect((await spokenLines(page)).every((line) => line.lang === 'en-US')).toBe(true);
      await checkA11y(page, '/jail/prep/:id (scenario 1)');
      await page.getByRole('button', { name: en.listen_again }).click();
      await expect(next).toBeVisible();
      await expect.poll(() => saidTexts(page)).toEqual(numbered(en, 1, 2, 3, 1, 2, 3));
      await next.click();

      // Scenario 2: the placement demonstration, texts 4-7, and the camera's preview getting frames.
      await expect(page.getByRole('figure')).toContainText(en.placement_caption);
      const completed = page.getByRole('button', { name: en.setup_completed });
      await expect(completed).toBeVisible();
      await expect(subtitle(page)).toHaveText(en.prep_text_7);
      expect((await saidTexts(page)).slice(6)).toEqual(numbered(en, 4, 5, 6, 7));
      const preview = page.getByLabel(en.camera_preview);
      await expect.poll(() => preview.evaluate((video: HTMLVideoElement) => video.videoWidth)).toBeGreaterThan(0);
      await checkA11y(page, '/jail/prep/:id (scenario 2)');
      await completed.click();
      await expect(preview).toHaveCount(0);
      const trackStates = await page.evaluate(() =>
        (window as unknown as { openedStreams: MediaStream[] }).openedStreams.flatMap((stream) => stream.getTracks().map((track) => track.readyState)),
      );
      expect(trackStates).toEqual(['ended']);

      // Scenario 3: the first command touched.
      const first = page.getByRole('button', { name: '1 Leave the seat' });
      await expect(first).toBeVisible();
      await expect(page.getByRole('img', { name: jailTexts.en.eye_attention })).toBeVisible();
      await checkA11y(page, '/jail/prep/:id (scenario 3, a prompt)');
      // The prompt blinks, but not for a guest who asked for less motion.
      const blinking = () => first.evaluate((button) => getComputedStyle(button, '::after').animationName);
      expect(await blinking()).toBe('prep-blink');
      await page.emulateMedia({ reducedMotion: 'reduce' });
      expect(await blinking()).toBe('none');
      await page.emulateMedia({ reducedMotion: 'no-preference' });
      expect((await saidTexts(page)).slice(10)).toEqual(numbered(en, 8, 9, 10));
      await first.click();

      // The second said: a wrong command first, which the Warden corrects, then the right one.
      await expect(page.getByRole('button', { name: '2 Take a break' })).toBeVisible();
      await answer(page, en, 'finish');
      const correction = 'Please say "Take a break".';
      await expect(page.getByText('You said: "finish"')).toBeVisible();
      await expect(subtitle(page)).toHaveText(correction);
      await expect.poll(async () => (await saidTexts(page)).at(-1)).toBe(correction);
      await answer(page, en, 'take a break');

      // The third touched; then the closing line and live.
      const third = page.getByRole('button', { name: '3 Finish early' });
      await expect(third).toBeVisible();
      await third.click();
      await expect(page).toHaveURL(new RegExp(`/jail/live/${jail.id}$`));
      expect((await saidTexts(page)).slice(13)).toEqual([...numbered(en, 11, 12), correction, ...numbered(en, 13, 14, 15, 16, 17, 18)]);
      expect(missing).toEqual([]);
    });

    test('"Read at my pace" is there while the first line is said; chosen, the line stays up, the next ones are not said, and "Next line" goes on', async ({
      page,
      request,
    }) => {
      const en = texts.en;
      // The voice is still saying each line (it ends only when cancelled), as where no sound comes out.
      const { missing } = await openPreparation(page, request, { endlessSpeech: true });
      await expect(subtitle(page)).toHaveText(en.prep_text_1);
      const readAtMyPace = page.getByRole('button', { name: en.read_at_my_pace });
      await expect(readAtMyPace).toBeVisible({ timeout: 1_000 });
      await checkA11y(page, '/jail/prep/:id while the first line is said');
      await readAtMyPace.click();
      const goOn = page.getByRole('button', { name: en.go_on });
      await expect(goOn).toBeFocused();
      await expect(subtitle(page)).toHaveText(en.prep_text_1);
      await goOn.click();
      await expect(subtitle(page)).toHaveText(en.prep_text_2);
      await goOn.click();
      await expect(subtitle(page)).toHaveText(en.prep_text_3);
      await expect(page.getByText(en.silent_hint)).toHaveCount(0);
      expect(await saidTexts(page)).toEqual(numbered(en, 1));
      await page.screenshot({ path: `/tmp/shots-6/prep-at-my-pace-${viewport.width}.png` });
      expect(missing).toEqual([]);
    });

    test('an unknown reservation goes back to the pre-guidance', async ({ page, request }) => {
      await recordSpeech(page);
      const guest = await createGuest(request);
      await signedIn(page, guest, '/jail/prep/987654321');
      await expect(page).toHaveURL(/\/jail\/prep_before\/987654321$/);
      expect(await spokenLines(page)).toEqual([]);
    });

    test('on a page not touched yet (where browsers refuse speech) the preparation waits for the guest to start it', async ({ page, request }) => {
      const { missing } = await openPreparation(page, request, { touched: false });
      const start = page.getByRole('button', { name: texts.en.start });
      await expect(start).toBeVisible();
      await expect(page.getByRole('img', { name: jailTexts.en.eye_closed })).toBeVisible();
      expect(await spokenLines(page)).toEqual([]);
      await checkA11y(page, '/jail/prep/:id (start)');
      await start.click();
      await expect(page.getByRole('button', { name: texts.en.next })).toBeVisible();
      expect(await saidTexts(page)).toEqual(numbered(texts.en, 1, 2, 3));
      expect(missing).toEqual([]);
    });

    test('a refused camera shows the camera failure, how to allow it, and a retry that opens it', async ({ page, request }) => {
      await blockCamera(page);
      const { missing } = await openPreparation(page, request);
      await page.getByRole('button', { name: texts.en.next }).click();
      const alert = page.getByRole('alert');
      await expect(alert).toContainText(CAMERA_BLOCKED.en.title);
      await expect(alert).toContainText(CAMERA_FAILURE_MESSAGE);
      await expect(alert).toContainText(CAMERA_BLOCKED.en.how);
      await expect(page.getByRole('button', { name: texts.en.setup_completed })).toBeVisible();
      await checkA11y(page, '/jail/prep/:id (camera refused)');
      await allowCamera(page);
      await alert.getByRole('button', { name: CAMERA_BLOCKED.en.retry }).click();
      await expect(page.getByLabel(texts.en.camera_preview)).toBeVisible();
      await expect(alert).toBeHidden();
      expect(missing).toEqual([]);
    });

    test('a browser without media devices is told that jail is not available, with a reload', async ({ page, request }) => {
      await page.addInitScript(() => {
        Object.defineProperty(Navigator.prototype, 'mediaDevices', { get: () => undefined });
      });
      const { missing } = await openPreparation(page, request);
      await page.getByRole('button', { name: texts.en.next }).click();
      const alert = page.getByRole('alert');
      await expect(alert).toContainText(listTexts.en.unsupported);
      await expect(alert.getByRole('button', { name: listTexts.en.reload })).toBeVisible();
      await checkA11y(page, '/jail/prep/:id (no media devices)');
      expect(missing).toEqual([]);
    });
  });
}

test.describe('preparation in Japanese', () => {
  test.use({ viewport: VIEWPORTS[0].viewport, locale: 'ja-JP', serviceWorkers: 'block' });

  test('said in Japanese, the commands recognised in Japanese', async ({ page, request }) => {
    const ja = texts.ja;
    const { jail, missing } = await openPreparation(page, request);

    await page.getByRole('button', { name: ja.next }).click();
    await page.getByRole('button', { name: ja.setup_completed }).click();
    await answer(page, ja, '離席します');
    await expect(page.getByRole('button', { name: '2 休憩' })).toBeVisible();
    await answer(page, ja, '早めに終了します');
    await expect(subtitle(page)).toHaveText('「休憩します」と言ってください。');
    await page.getByRole('button', { name: '2 休憩' }).click();
    await expect(page.getByRole('button', { name: '3 早めに終了' })).toBeVisible();
    await answer(page, ja, 'さん');
    await expect(page).toHaveURL(new RegExp(`/jail/live/${jail.id}$`));
    const lines = await spokenLines(page);
    expect(lines.every((line) => line.lang === 'ja-JP')).toBe(true);
    expect(lines.map((line) => line.text)).toEqual([
      ...numbered(ja, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12),
      '「休憩します」と言ってください。',
      ...numbered(ja, 13, 14, 15, 16, 17, 18),
    ]);
    expect(missing).toEqual([]);
  });
});

/**
 * A device whose voice fails at once and that cannot listen: each line stays
 * up for its reading time (prep/pace.ts, readingTimeMs), the guest can go on
 * sooner, the prompts ask for a touch only, and touch reaches live.
 */
for (const { name, viewport, locale, language } of [
  { ...VIEWPORTS[0], locale: 'ja-JP', language: 'ja' as const },
  { ...VIEWPORTS[1], locale: 'en-US', language: 'en' as const },
]) {
  test.describe(`preparation without speech at ${name} in ${language}`, () => {
    test.use({ viewport, locale, serviceWorkers: 'block' });

    test('lines stay up for their reading time, "Next line" goes on, no "Listening…", touch reaches live', async ({ page, request }) => {
      const words = texts[language];
      const missing = watchMissingTexts(page);
      await page.addInitScript(() => {
        // The voice fails at once, as on devices without one; recognition is missing.
        // When each line began: the screen asks the voice to say it as it puts up its subtitle.
        const begun: { text: string; at: number }[] = [];
        Object.defineProperty(window, 'linesBegun', { value: begun });
        Object.defineProperty(window, 'speechSynthesis', {
          value: {
            speak(utterance: SpeechSynthesisUtterance) {
              begun.push({ text: utterance.text, at: performance.now() });
              setTimeout(() => utterance.onerror?.(new Event('error') as SpeechSynthesisErrorEvent), 0);
            },
            cancel() {},
          },
        });
        Object.defineProperty(window, 'SpeechRecognition', { value: undefined });
        Object.defineProperty(window, 'webkitSpeechRecognition', { value: undefined });
        Object.defineProperty(navigator, 'userActivation', { value: { hasBeenActive: true, isActive: false } });
        // Each subtitle the screen shows, in order.
        const shown: string[] = [];
        Object.defineProperty(window, 'subtitlesShown', { value: shown });
        new MutationObserver(() => {
          const text = document.querySelector('.prep-subtitle')?.textContent ?? '';
          if (text !== '' && text !== shown.at(-1)) shown.push(text);
        }).observe(document, { subtree: true, childList: true, characterData: true });
      });
      // The page's clock: the reading times pass at once (runFor). A line's time is taken when it
      // began, not when the page drew it: while the clock flows, a line drawn late on a busy machine
      // would look shorter than it was up.
      await page.clock.install();
      const guest = await readyGuest(request, { language });
      const jail = await book(request, guest, 1);
      await signedIn(page, guest, `/jail/prep/${jail.id}`);

      // Scenario 1 at reading pace: every line is up for at least its reading time.
      await expect(page.getByText(words.silent_hint)).toBeVisible();
      await expect(page.getByRole('button', { name: words.go_on })).toBeVisible();
      await checkA11y(page, '/jail/prep/:id without speech');
      const next = page.getByRole('button', { name: words.next, exact: true });
      for (let second = 0; second < 60 && !(await next.isVisible()); second += 1) await page.clock.runFor(1_000);
      await expect(next).toBeVisible();
      const { shown, begun } = await page.evaluate(() => {
        const lines = window as unknown as { subtitlesShown: string[]; linesBegun: { text: string; at: number }[] };
        return { shown: lines.subtitlesShown, begun: lines.linesBegun };
      });
      expect(shown).toEqual(numbered(words, 1, 2, 3));
      expect(begun.map((line) => line.text)).toEqual(shown);
      for (const [index, line] of begun.slice(0, -1).entries()) {
        const next = begun[index + 1];
        if (next === undefined) throw new Error('a line without a next one');
        expect(next.at - line.at, `line ${index + 1} up for its reading time`).toBeGreaterThanOrEqual(readingTimeMs(line.text) - 50);
      }
      await next.click();

      // Scenario 2: the guest goes on line by line, sooner than the reading time.
      await expect(subtitle(page)).toHaveText(words.prep_text_4);
      for (const number of [5, 6, 7]) {
        await page.getByRole('button', { name: words.go_on }).click();
        await expect(subtitle(page)).toHaveText(words[`prep_text_${number}` as keyof PrepTexts]);
      }
      await page.getByRole('button', { name: words.go_on }).click();
      await page.getByRole('button', { name: words.setup_completed }).click();

      // Scenario 3: through the lines, then each prompt asks for a touch only, and nothing says it listens.
      for (const command of language === 'ja' ? ['1 離席', '2 休憩', '3 早めに終了'] : ['1 Leave the seat', '2 Take a break', '3 Finish early']) {
        const prompt = page.getByRole('button', { name: command });
        await expect(async () => {
          if (await prompt.isVisible()) return;
          await page.getByRole('button', { name: words.go_on }).click({ timeout: 1_000 });
          throw new Error(`not yet at "${command}"`);
        }).toPass({ intervals: [100], timeout: 60_000 });
        await expect(page.getByText(words.prompt_hint_touch)).toBeVisible();
        await expect(page.getByText(words.listening)).toHaveCount(0);
        await prompt.click();
      }
      await expect(async () => {
        if (page.url().endsWith(`/jail/live/${jail.id}`)) return;
        await page.getByRole('button', { name: words.go_on }).click({ timeout: 1_000 });
        throw new Error('not live yet');
      }).toPass({ intervals: [100], timeout: 60_000 });
      expect(missing).toEqual([]);
    });
  });
}

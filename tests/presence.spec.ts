/**
 * The Warden sees the person (docs/vision.md, Presence; docs/rules.md, The
 * check-in): Chromium's fake camera plays a real room and face
 * (tests/face-video.ts, from the judgment benchmark's footage): an empty seat
 * a man then sits down in, and a face that sits perfectly still. The face
 * model loads with the jail, the worker finds the face on the device, and
 * what it makes of it reaches the real server: an empty seat is asked about
 * before it is written, the face coming back is greeted, the eye turns toward
 * it, the report shows the away, and no one is accused of nodding.
 *
 * The video plays in real time while the page's clock is fake. The room is
 * empty first, so that the away count and the check-in (210 s of fake time,
 * a camera frame each second) have the whole empty stretch of real time to
 * run in, however busy the machine; then the test waits in real time for the
 * man to come in, and to leave when the video loops.
 */
import { expect, type Page } from '@playwright/test';
import { advanceUntil, test } from './fake-camera.ts';
import { faceAwayVideo, faceStillVideo } from './face-video.ts';
import { VIEWPORTS, watchMissingTexts } from './helpers.ts';
import { cameraWatching, intoJail, logsOf, motionKinds } from './live-jail.ts';
import { recordSpeech, spokenLines } from './speech.ts';
import { runFor, setSystemTime } from './worker-clock.ts';

/**
 * Real seconds of the empty room. The away count and the check-in take 210
 * camera frames, which the fake camera gives at 10 a second: 21 s on a quiet
 * machine, about twice that on a busy one.
 */
const AWAY_REAL_S = 60;
/** Real seconds of the man at his desk, before the room is empty again. */
const PRESENT_REAL_S = 10;
const FACE_AWAY = faceAwayVideo({ awayS: AWAY_REAL_S, presentS: PRESENT_REAL_S });
const FACE_STILL = faceStillVideo();

const WORDS = [
  {
    language: 'en',
    locale: 'en-US',
    voice: 'en-US',
    camera: 'Camera',
    checkIn: "Are you still with me? I can't see you in your seat.",
    here: "I'm here",
    away: 'Your seat is empty. Come back and get back to work.',
    back: "Welcome back. Let's pick up where you left off.",
    report: 'Report',
  },
  {
    language: 'ja',
    locale: 'ja-JP',
    voice: 'ja-JP',
    camera: 'カメラ',
    checkIn: 'まだそこにいますか？席に姿が見えません。',
    here: 'ここにいます',
    away: '席が空いていますね。戻ってきて、作業を再開してください。',
    back: 'おかえりなさい。さっきの続きから始めましょう。',
    report: 'レポート',
  },
] as const;

function eye(page: Page) {
  return page.locator('.jail-screen .eye');
}

/** The pupil's turn to the right, in px, while the eye follows a face (docs/client.md, The live screen). */
function gazeX(page: Page): Promise<number> {
  return eye(page).evaluate((element) => Number.parseFloat(getComputedStyle(element).getPropertyValue('--gaze-x')));
}

test.afterEach(async ({ request }) => {
  await request.post('/dev/clock', { data: { offsetMs: 0 } });
});

/**
 * Records every line the subtitles show, in order. The page's socket.io
 * heartbeat runs on the page's fake clock, so moving it quickly makes the
 * socket reconnect now and then, and the Warden's welcome back can replace a
 * line before the test reads it.
 */
async function recordSubtitles(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const shown: string[] = [];
    Object.assign(window, { subtitlesShown: shown });
    new MutationObserver(() => {
      const text = document.querySelector('.subtitles')?.textContent ?? '';
      if (text !== '' && shown.at(-1) !== text) shown.push(text);
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
}

function subtitlesShown(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { subtitlesShown: string[] }).subtitlesShown);
}

let daysAhead = 8;

for (const { name, viewport } of VIEWPORTS) {
  for (const words of WORDS) {
    test.describe(`the Warden sees the person at ${name} in ${words.language}`, () => {
      test.use({ viewport, locale: words.locale, serviceWorkers: 'block', camera: FACE_AWAY });

      test('the empty seat is asked about, then written as away; the face coming in is greeted and followed; the eye searches when he leaves; the report shows the away', async ({
        page,
        request,
      }) => {
        test.setTimeout(240_000);
        const missing = watchMissingTexts(page);
        await recordSpeech(page);
        await recordSubtitles(page);
        const jail = await intoJail(page, request, daysAhead++, words.language);
        await cameraWatching(page, words.camera);

        // The seat is empty: the eye searches for him.
        await expect(eye(page)).toHaveAttribute('data-gaze', 'searching');
        // After the away count without a face, the Warden asks before it accuses. The worker
        // samples on the fake clock, which moves in steps of several samples while the room is empty.
        const here = page.getByRole('button', { name: words.here });
        await advanceUntil(page, () => here.isVisible(), 10_000, 200_000);
        await expect.poll(() => subtitlesShown(page)).toContainEqual(expect.stringContaining(words.checkIn));
        await expect.poll(() => spokenLines(page)).toContainEqual({ text: expect.stringContaining(words.checkIn), lang: words.voice });
        expect(motionKinds(await logsOf(request, jail))).not.toContain('away');

        // Nobody answers within the check-in's 30 s: the away is written, and the Warden says so.
        await advanceUntil(page, async () => motionKinds(await logsOf(request, jail)).includes('away'), 2_000, 40_000);
        await expect(here).toBeHidden();
        await expect.poll(() => subtitlesShown(page)).toContainEqual(expect.stringContaining(words.away));

        // He comes in (the video's time is real time): the Warden greets him, and the eye follows him.
        await expect
          .poll(
            async () => {
              await runFor(page, 1_000);
              return motionKinds(await logsOf(request, jail)).includes('back');
            },
            { timeout: (AWAY_REAL_S + 30) * 1000, intervals: [500] },
          )
          .toBe(true);
        await expect.poll(() => subtitlesShown(page)).toContainEqual(expect.stringContaining(words.back));
        await expect(eye(page)).toHaveAttribute('data-gaze', 'following');
        // The man sits at the left of the camera's picture; the front camera's preview is a mirror, so the Warden looks to its right.
        expect(await gazeX(page)).toBeGreaterThan(4);

        // He leaves when the video loops: the eye stops following and searches for him.
        await expect
          .poll(
            async () => {
              await runFor(page, 1_000);
              return eye(page).getAttribute('data-gaze');
            },
            { timeout: (PRESENT_REAL_S + 30) * 1000, intervals: [200] },
          )
          .toBe('searching');

        // One accusation for the empty seat, and none of nodding or stillness for a man who typed.
        const kinds = motionKinds(await logsOf(request, jail));
        expect(kinds.filter((kind) => kind === 'away')).toHaveLength(1);
        expect(kinds).not.toContain('nodding');
        expect(kinds).not.toContain('no_motion');

        // After the jail, the report shows the away as a segment of its own.
        const afterEnd = jail.startTime + 2 * 3_600_000;
        await request.post('/dev/clock', { data: { offsetMs: afterEnd - Date.now() } });
        await setSystemTime(page, afterEnd);
        await page.goto(`/reservation/${jail.id}`);
        const report = page.getByRole('region', { name: words.report });
        await expect(report.getByTestId('report-segments').locator(':scope > li[data-kind="away"]')).toHaveCount(1);
        expect(missing).toEqual([]);
      });
    });
  }
}

test.describe('a face that sits perfectly still', () => {
  test.use({ viewport: VIEWPORTS[1].viewport, locale: 'en-US', serviceWorkers: 'block', camera: FACE_STILL });

  test('is no motion, not away: the no-motion log after the count, and nothing asked', async ({ page, request }) => {
    await recordSpeech(page);
    const jail = await intoJail(page, request, 12);
    await cameraWatching(page);
    await expect(eye(page)).toHaveAttribute('data-gaze', 'following');
    const advanced = await advanceUntil(page, async () => motionKinds(await logsOf(request, jail)).includes('no_motion'), 2_000, 240_000);
    expect(advanced).toBeGreaterThanOrEqual(170_000);
    await expect(page.getByRole('button', { name: "I'm here" })).toHaveCount(0);
    expect(motionKinds(await logsOf(request, jail))).toEqual(['no_motion']);
  });
});

/**
 * Browser tests with Chromium's fake camera playing videos the tests write
 * themselves (tests/y4m.ts). A fake camera's video is chosen when the browser
 * starts, so `test.use({ camera: STILL })` gives a test a browser of its own
 * for that video, launched once per worker.
 */
import { test as base, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HEADLESS_SHELL_PATH, chromiumWithCamera } from './chromium.ts';
import { runFor } from './worker-clock.ts';
import { darkVideo, movingVideo, stillVideo, writeFileAtomic } from './y4m.ts';

const videos = join(tmpdir(), 'warden-fake-camera');
export const MOVING = writeFileAtomic(join(videos, 'moving.y4m'), movingVideo());
export const STILL = writeFileAtomic(join(videos, 'still.y4m'), stillVideo());
export const DARK = writeFileAtomic(join(videos, 'dark.y4m'), darkVideo());

/** `camera`: the video a test's browser plays as its camera (undefined: Chromium's own test pattern). */
export const test = base.extend<{ camera: string | undefined }, { cameraBrowsers: (video: string | undefined) => Promise<Browser> }>({
  camera: [undefined, { option: true }],
  cameraBrowsers: [
    async ({ playwright }, use) => {
      const browsers = new Map<string, Promise<Browser>>();
      await use((video) => {
        const key = video ?? '';
        let browser = browsers.get(key);
        if (browser === undefined) {
          browser = playwright.chromium.launch(chromiumWithCamera(video, HEADLESS_SHELL_PATH));
          browsers.set(key, browser);
        }
        return browser;
      });
      for (const browser of browsers.values()) await (await browser).close();
    },
    { scope: 'worker' },
  ],
  context: async ({ camera, cameraBrowsers, baseURL, userAgent, viewport, locale, serviceWorkers }, use) => {
    const browser = await cameraBrowsers(camera);
    const context: BrowserContext = await browser.newContext({ baseURL, userAgent, viewport, locale, serviceWorkers });
    await use(context);
    await context.close();
  },
});

/**
 * Advances the fake clock of the page and its vision worker (installClock of
 * tests/worker-clock.ts) by `stepMs` at a time, each step done once the
 * worker's samples in it are, until `done` holds or `limitMs` of fake time
 * passed. Returns the fake milliseconds advanced.
 */
export async function advanceUntil(page: Page, done: () => Promise<boolean>, stepMs: number, limitMs: number): Promise<number> {
  let advanced = 0;
  while (!(await done())) {
    if (advanced >= limitMs) throw new Error(`Still waiting after ${advanced} ms of fake time`);
    await runFor(page, stepMs);
    advanced += stepMs;
  }
  return advanced;
}

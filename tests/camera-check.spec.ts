/**
 * The camera check page against the built client, with Chromium's fake
 * camera playing videos these tests write themselves. A fake camera's video
 * is chosen when the browser starts, so each video has its own `describe`
 * with its own launch options (Playwright starts a browser for each).
 */
import { expect, type Page } from '@playwright/test';
import { CAMERA_FAILURE_MESSAGE, CAPTURE_METHODS } from '../src/client/vision/capture.ts';
import { NO_MOTION_THRESHOLD } from '../src/client/vision/params.generated.ts';
import { advanceUntil, DARK, MOVING, STILL, test } from './fake-camera.ts';
import { faceStillVideo } from './face-video.ts';
import { installClock, runFor } from './worker-clock.ts';
import { allowCamera, blockCamera, CAMERA_BLOCKED, checkA11y } from './helpers.ts';

async function numberOf(page: Page, testId: string): Promise<number> {
  const value = await page.getByTestId(testId).getAttribute('data-value');
  return value === null || value === '' ? Number.NaN : Number(value);
}

async function waitForSamples(page: Page, count: number): Promise<number> {
  await expect.poll(() => numberOf(page, 'sample-count'), { timeout: 20_000 }).toBeGreaterThanOrEqual(count);
  return numberOf(page, 'sample-count');
}

/** Unfolds "Details for support", where the numbers are. */
async function openDetails(page: Page): Promise<void> {
  await page.getByTestId('details').locator('summary').click();
  await expect(page.getByTestId('details')).toHaveAttribute('open', '');
}

function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  return errors;
}

test.describe("with Chromium's test pattern as the camera", () => {
  test('runs the simd128 wasm build in Chromium', async ({ page }) => {
    const errors = collectErrors(page);
    await page.goto('/camera-check');
    await expect(page.getByRole('heading', { name: 'Camera check' })).toBeVisible();
    await expect(page.getByTestId('engine')).toHaveAttribute('data-engine', 'wasm-simd');
    await expect(page.getByTestId('engine')).toHaveText('WebAssembly with SIMD');
    await waitForSamples(page, 2);
    // Off iOS (docs/rules.md, Client constants): width up to 160, up to 10 fps.
    const size = page.getByTestId('camera-size');
    await expect(size).toHaveAttribute('data-width', '160');
    expect(Number(await size.getAttribute('data-frame-rate'))).toBeLessThanOrEqual(10);
    expect(errors).toEqual([]);
  });

  for (const engine of ['wasm-scalar', 'js'] as const) {
    test(`can be made to run the ${engine} engine`, async ({ page }) => {
      await page.goto(`/camera-check?engine=${engine}`);
      await expect(page.getByTestId('engine')).toHaveAttribute('data-engine', engine);
      await waitForSamples(page, 2);
      expect(await numberOf(page, 'mean-luma')).toBeGreaterThan(0);
    });
  }

  test('a blocked camera: the camera failure message, how to allow it here, and a retry that starts the check', async ({ page }) => {
    await blockCamera(page);
    await page.goto('/camera-check');
    const alert = page.getByRole('alert');
    await expect(alert).toContainText(CAMERA_BLOCKED.en.title);
    await expect(alert).toContainText(CAMERA_FAILURE_MESSAGE);
    await expect(alert).toContainText(CAMERA_BLOCKED.en.how);
    expect(CAMERA_FAILURE_MESSAGE).toBe('Failed to load camera. Please check updates for your OS and browser, and confirm that camera permission is given.');
    await allowCamera(page);
    await alert.getByRole('button', { name: CAMERA_BLOCKED.en.retry }).click();
    await expect(alert).toBeHidden();
    await waitForSamples(page, 2);
  });
});

test.describe('in Japanese', () => {
  test.use({ locale: 'ja-JP' });

  test('speaks the browser language', async ({ page }) => {
    const errors = collectErrors(page);
    await page.goto('/camera-check');
    await expect(page.getByRole('heading', { level: 1, name: 'カメラチェック' })).toBeVisible();
    await waitForSamples(page, 2);
    await expect(page.getByTestId('engine')).toHaveText('WebAssembly（SIMD）');
    await expect(page.getByTestId('event-log').locator('[data-event="info"]').last()).toHaveText(/カメラの解析を開始しました/);
    expect(errors).toEqual([]);
  });
});

test.describe('on an iPhone', () => {
  test.use({
    userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1',
  });

  test('asks for a camera up to 640 wide and uses the iOS motion threshold', async ({ page }) => {
    await page.goto('/camera-check');
    await waitForSamples(page, 2);
    await expect(page.getByTestId('camera-size')).toHaveAttribute('data-width', '640');
    await expect(page.getByTestId('motion-score')).toContainText('(threshold 3.5)');
  });
});

test.describe('with a moving scene as the camera', () => {
  test.use({ camera: MOVING });

  test('the check sees the guest move, in plain words, with the numbers folded away', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/camera-check');
    await expect(page.getByRole('heading', { name: 'Your check' })).toBeVisible();
    await expect(page.getByTestId('check-motion')).toHaveAttribute('data-verdict', 'ok');
    await expect(page.getByTestId('check-motion')).toContainText('We can see you move');
    await expect(page.getByTestId('check-light')).toContainText('The light is good');
    // The numbers are for support: folded until asked for.
    await expect(page.getByTestId('engine')).toBeHidden();
    await checkA11y(page, '/camera-check, moving');
    await openDetails(page);
    await expect(page.getByTestId('engine')).toBeVisible();
  });

  test('reports motion', async ({ page }) => {
    const errors = collectErrors(page);
    await page.goto('/camera-check');
    await waitForSamples(page, 3);
    await expect.poll(() => numberOf(page, 'motion-score')).toBeGreaterThan(NO_MOTION_THRESHOLD);
    expect(await numberOf(page, 'changed-ratio')).toBeGreaterThan(0);
    await expect(page.getByTestId('motion-state')).toHaveAttribute('data-value', 'moving');
    await expect(page.getByTestId('dark')).toHaveAttribute('data-value', 'false');
    await expect(page.getByTestId('areas').locator('li')).toHaveCount(9);
    await openDetails(page);
    await expect(page.getByTestId('areas').locator('li[data-changed="true"]').first()).toBeVisible();
    expect(await page.getByTestId('centroid').getAttribute('data-value')).toMatch(/^0\.\d+,0\.\d+$/);
    expect(await numberOf(page, 'low-motion-seconds')).toBe(0);
    expect(errors).toEqual([]);
  });

  for (const method of CAPTURE_METHODS) {
    test(`sees the motion through the ${method} capture method`, async ({ page }) => {
      await page.goto(`/camera-check?capture=${method}`);
      await expect(page.getByTestId('capture-method')).toHaveAttribute('data-method', method);
      await waitForSamples(page, 3);
      await expect.poll(() => numberOf(page, 'motion-score')).toBeGreaterThan(NO_MOTION_THRESHOLD);
    });
  }

  test('makes a JPEG patrol thumbnail every 10 s, at most 100 px on its long side', async ({ page }) => {
    await installClock(page);
    await page.goto('/camera-check');
    await waitForSamples(page, 1);
    await expect(page.getByTestId('patrol-status')).toHaveText('No patrol picture yet.');
    await runFor(page, 10_000);
    await openDetails(page);
    const thumbnail = page.getByTestId('patrol-thumbnail');
    await expect(thumbnail).toBeVisible();
    const image = await thumbnail.evaluate(async (element: HTMLImageElement) => {
      await element.decode();
      const blob = await (await fetch(element.src)).blob();
      const head = new Uint8Array(await blob.slice(0, 3).arrayBuffer());
      return { type: blob.type, head: Array.from(head), width: element.naturalWidth, height: element.naturalHeight };
    });
    expect(image.type).toBe('image/jpeg');
    expect(image.head).toEqual([0xff, 0xd8, 0xff]);
    expect(Math.max(image.width, image.height)).toBe(100);
    expect(image.width).toBe(100);
    expect(image.height).toBe(75);
  });
});

test.describe('with a real face as the camera', () => {
  test.use({ camera: faceStillVideo() });

  // The worker hands the face model to every engine: the JavaScript fallback finds the face as the wasm builds do.
  for (const engine of ['wasm-simd', 'js'] as const) {
    test(`the ${engine} engine sees the face at the left of the frame`, async ({ page }) => {
      await page.goto(`/camera-check?engine=${engine}`);
      await expect(page.getByTestId('engine')).toHaveAttribute('data-engine', engine);
      await waitForSamples(page, 2);
      await openDetails(page);
      const face = page.getByTestId('face');
      await expect(face).toHaveAttribute('data-value', /^0\.\d+,0\.\d+$/);
      const [x] = ((await face.getAttribute('data-value')) ?? '').split(',').map(Number);
      expect(x).toBeLessThan(0.5);
      await expect(face).toHaveText(/^Seen, \d+ % across, \d+ % down$/);
    });
  }
});

test.describe('with a still scene as the camera', () => {
  test.use({ camera: STILL });

  test('reports no motion and no face, and once the 180 s count runs out the empty seat: away, not also no motion', async ({ page }) => {
    await installClock(page);
    await page.goto('/camera-check');
    // The worker's clock stands still between steps: the second sample a second on.
    await waitForSamples(page, 1);
    await runFor(page, 1_000);
    await waitForSamples(page, 2);
    await expect(page.getByTestId('motion-state')).toHaveAttribute('data-value', 'still');
    expect(await numberOf(page, 'motion-score')).toBeLessThan(NO_MOTION_THRESHOLD);
    expect(await numberOf(page, 'changed-ratio')).toBe(0);
    await openDetails(page);
    await expect(page.getByTestId('face')).toHaveAttribute('data-value', 'none');
    await expect(page.getByTestId('face')).toHaveText('Not seen');
    const away = page.getByTestId('event-log').locator('[data-event="away"]');
    await expect(away).toHaveCount(0);

    // The no-face and low-motion times count at most 2 s per frame: step the fake clock 2 s at a time.
    const advanced = await advanceUntil(page, async () => (await away.count()) > 0, 2_000, 200_000);
    await expect(away).toHaveText(/No face seen for 180 s: the seat looks empty/);
    // The still run began a frame after the faceless one (the first frame has nothing to compare with): just short of its count.
    expect(await numberOf(page, 'low-motion-seconds')).toBeGreaterThanOrEqual(179);
    expect(advanced).toBeGreaterThanOrEqual(170_000);
    await expect(page.getByTestId('event-log').locator('[data-event="no-motion"]')).toHaveCount(0);
    await expect(page.getByTestId('event-log').locator('[data-event="motion"]')).toHaveCount(0);
  });

  test('the sleeper count is 90 s', async ({ page }) => {
    await installClock(page);
    await page.goto('/camera-check?sleeper=1');
    // The worker's clock stands still between steps: the second sample a second on.
    await waitForSamples(page, 1);
    await runFor(page, 1_000);
    await waitForSamples(page, 2);
    const away = page.getByTestId('event-log').locator('[data-event="away"]');
    const advanced = await advanceUntil(page, async () => (await away.count()) > 0, 2_000, 110_000);
    await expect(away).toHaveText(/No face seen for 90 s/);
    expect(advanced).toBeGreaterThanOrEqual(80_000);
    expect(advanced).toBeLessThan(100_000);
  });

  test('an approved view is never counted as no motion', async ({ page }) => {
    await page.goto('/camera-check');
    await waitForSamples(page, 2);
    await openDetails(page);
    await page.getByTestId('approve-view').click();
    await expect(page.getByTestId('event-log').locator('[data-event="info"]').first()).toHaveText(/Approved view 1 added/);
    const after = await numberOf(page, 'sample-count');
    await waitForSamples(page, after + 2);
    await expect(page.getByTestId('whitelist')).toHaveAttribute('data-value', '0');
    await expect(page.getByTestId('whitelist')).toHaveText(/Matches approved view 1/);
    expect(await numberOf(page, 'low-motion-seconds')).toBe(0);
  });
});

test.describe('with a covered lens as the camera', () => {
  test.use({ camera: DARK });

  test('the check says the picture is black, in Japanese on a phone', async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 640 });
    await page.goto('/');
    await page.getByRole('radio', { name: '日本語' }).check();
    await page.goto('/camera-check');
    await expect(page.getByRole('heading', { name: 'チェック結果' })).toBeVisible();
    await waitForSamples(page, 2);
    await expect(page.getByTestId('check-light')).toHaveAttribute('data-verdict', 'fix');
    await expect(page.getByTestId('check-light')).toContainText('画面が真っ黒です。レンズがふさがれていませんか？');
    await expect(page.getByTestId('verdict')).toHaveText('ジェイル中と同じように座って、印のついた項目を確認してください。');
    await expect(page.getByTestId('engine')).toBeHidden();
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await checkA11y(page, '/camera-check, covered, in Japanese');
  });

  test('reports darkness, a darkness event after 30 s, and skips the all-black patrol', async ({ page }) => {
    await installClock(page);
    await page.goto('/camera-check');
    // The worker's clock stands still between steps: the second sample a second on.
    await waitForSamples(page, 1);
    await runFor(page, 1_000);
    await waitForSamples(page, 2);
    await expect(page.getByTestId('dark')).toHaveAttribute('data-value', 'true');
    await expect(page.getByTestId('all-black')).toHaveAttribute('data-value', 'true');
    expect(await numberOf(page, 'mean-luma')).toBeLessThan(40);
    const darkness = page.getByTestId('event-log').locator('[data-event="darkness"]');
    const advanced = await advanceUntil(page, async () => (await darkness.count()) > 0, 2_000, 40_000);
    expect(advanced).toBeGreaterThanOrEqual(26_000);
    await expect(darkness).toHaveText(/Dark for 30 s/);
    await expect(page.getByTestId('patrol-status')).toHaveText(/All black .*skipped/);
    await expect(page.getByTestId('patrol-thumbnail')).toHaveCount(0);
  });
});

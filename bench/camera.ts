/**
 * "Recorded" frames: Chromium's built-in fake camera (the animated test
 * pattern of `--use-fake-device-for-media-stream`, no file), read back as RGBA
 * through a canvas, the way the product reads its camera. They are cached
 * under `bench/.cache/` so that repeated runs reuse them.
 */

import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { CHROMIUM_PATH, chromiumWithCamera } from '../tests/chromium.ts';
import type { FrameSequence } from './frames';

export const CACHE_DIR = fileURLToPath(new URL('./.cache/', import.meta.url));
/** A page on a potentially trustworthy origin (getUserMedia needs one); served by a route, no server. */
const PAGE_URL = 'http://localhost/warden-bench-camera';

export function cachePath(width: number, height: number, count: number): string {
  return `${CACHE_DIR}fake-camera-${width}x${height}-${count}.rgba`;
}

function split(bytes: Uint8Array, width: number, height: number, count: number): FrameSequence {
  const size = width * height * 4;
  if (bytes.length !== size * count) throw new Error(`cached frames have ${bytes.length} bytes, expected ${size * count}`);
  const frames = Array.from({ length: count }, (_, i) => new Uint8ClampedArray(bytes.slice(i * size, (i + 1) * size)));
  return { name: 'fake-camera', width, height, frames };
}

/** Runs in the page: opens the fake camera at the size asked for. */
async function openCamera(size: { width: number; height: number }): Promise<string> {
  const stream = await navigator.mediaDevices.getUserMedia({
    video: { width: { exact: size.width }, height: { exact: size.height } },
    audio: false,
  });
  const video = document.createElement('video');
  video.muted = true;
  video.playsInline = true;
  video.srcObject = stream;
  await video.play();
  const canvas = document.createElement('canvas');
  canvas.width = size.width;
  canvas.height = size.height;
  const context = canvas.getContext('2d', { willReadFrequently: true });
  if (!context) throw new Error('no 2d context');
  Object.assign(window, { benchVideo: video, benchContext: context });
  return `${video.videoWidth}x${video.videoHeight}`;
}

/** Runs in the page: waits for the next camera frame and returns it as base64 RGBA. */
async function grabFrame(size: { width: number; height: number }): Promise<string> {
  const { benchVideo: video, benchContext: context } = window as unknown as {
    benchVideo: HTMLVideoElement;
    benchContext: CanvasRenderingContext2D;
  };
  await new Promise<void>((resolve) => video.requestVideoFrameCallback(() => resolve()));
  context.drawImage(video, 0, 0, size.width, size.height);
  const data = context.getImageData(0, 0, size.width, size.height).data;
  let binary = '';
  const chunk = 0x8000;
  for (let i = 0; i < data.length; i += chunk) {
    binary += String.fromCharCode(...data.subarray(i, i + chunk));
  }
  return btoa(binary);
}

/**
 * Captures `sizes` x `count` frames from the fake camera in one browser
 * session and caches them. Needs `/usr/bin/chromium` (Debian: `apt-get
 * install -y chromium`).
 */
async function capture(sizes: readonly { width: number; height: number }[], count: number): Promise<void> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`${CHROMIUM_PATH} is missing: install it with \`apt-get install -y chromium\` (as root), not \`playwright install\``);
  }
  const { chromium } = await import('@playwright/test');
  // Chromium's own test pattern as the camera.
  const browser = await chromium.launch(chromiumWithCamera());
  try {
    await mkdir(CACHE_DIR, { recursive: true });
    for (const size of sizes) {
      const page = await browser.newPage();
      await page.route(PAGE_URL, (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>camera</title>' }));
      await page.goto(PAGE_URL);
      const opened = await page.evaluate(openCamera, size);
      const bytes = new Uint8Array(size.width * size.height * 4 * count);
      for (let i = 0; i < count; i++) {
        const frame = Buffer.from(await page.evaluate(grabFrame, size), 'base64');
        bytes.set(frame, i * size.width * size.height * 4);
      }
      await page.close();
      await writeFile(cachePath(size.width, size.height, count), bytes);
      console.log(`captured ${count} fake-camera frames at ${size.width}x${size.height} (camera delivered ${opened})`);
    }
  } finally {
    await browser.close();
  }
}

/** The cached fake-camera frames at each size, capturing those not cached yet. */
export async function fakeCameraFrames(sizes: readonly { width: number; height: number }[], count = 30): Promise<FrameSequence[]> {
  const missing = sizes.filter((size) => !existsSync(cachePath(size.width, size.height, count)));
  if (missing.length > 0) await capture(missing, count);
  return Promise.all(sizes.map(async ({ width, height }) => split(await readFile(cachePath(width, height, count)), width, height, count)));
}

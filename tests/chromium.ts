/**
 * How the browser tests and the browser benchmark launch Chromium: Debian's
 * /usr/bin/chromium (never a browser downloaded by Playwright), with a fake
 * camera that auto-accepts the permission prompt.
 */
import type { LaunchOptions } from '@playwright/test';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_FLAGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--use-fake-ui-for-media-stream',
  '--use-fake-device-for-media-stream',
];

/**
 * Launch options for Chromium whose camera plays `video` (a .y4m file, looped),
 * or Chromium's own test pattern when no file is given. The file is read when
 * the browser starts, so each video needs a browser of its own.
 */
export function chromiumWithCamera(video?: string): LaunchOptions {
  const args = [...CHROMIUM_FLAGS];
  if (video !== undefined) args.push(`--use-file-for-fake-video-capture=${video}`);
  return { executablePath: CHROMIUM_PATH, args };
}

/**
 * How the browser tests, the screens and the browser benchmarks launch
 * Chromium: Debian's (never a browser downloaded by Playwright), with a fake
 * camera that auto-accepts the permission prompt.
 */
import type { LaunchOptions } from '@playwright/test';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * The browser tests' Chromium: Debian's headless shell (package
 * chromium-headless-shell), the same Chromium release without the full
 * browser around its pages. The same pages cost it half the CPU time of the
 * full browser's headless mode (docs/gates.md), and the browser tests run
 * three browsers on two cores. The screens and the benchmarks keep the full
 * browser, which is what a person runs.
 */
export const HEADLESS_SHELL_PATH = process.env.CHROMIUM_HEADLESS_SHELL_PATH ?? '/usr/bin/chromium-headless-shell';

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
 * Launch options for Chromium (the full browser unless `executablePath` says
 * otherwise) whose camera plays `video` (a .y4m file, looped), or Chromium's
 * own test pattern when no file is given. The file is read when the browser
 * starts, so each video needs a browser of its own.
 */
export function chromiumWithCamera(video?: string, executablePath = CHROMIUM_PATH): LaunchOptions {
  const args = [...CHROMIUM_FLAGS];
  if (video !== undefined) args.push(`--use-file-for-fake-video-capture=${video}`);
  return { executablePath, args };
}

import { defineConfig } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromiumWithCamera } from './tests/chromium.ts';

/**
 * Browser tests of the built client. Nothing is built here: `npm test` runs
 * `vite build` first (and the wasm build before it); the server started below
 * serves `dist/` on a port of its own, on a fresh data directory each run
 * (PGlite in a new temporary directory, removed by tests/global-teardown.ts).
 */
const port = Number(process.env.PLAYWRIGHT_PORT ?? 8793);
const baseURL = `http://127.0.0.1:${port}`;

// The config is also loaded by each worker: they inherit the directory made
// by the main process through the environment instead of making their own.
process.env.WARDEN_E2E_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'warden-e2e-'));
const dataDir = process.env.WARDEN_E2E_DATA_DIR;

export default defineConfig({
  testDir: 'tests',
  testMatch: '**/*.spec.ts',
  globalTeardown: './tests/global-teardown.ts',
  // One browser at a time: the camera tests drive fake clocks and time-sensitive pipelines.
  workers: 1,
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  timeout: 90_000,
  expect: { timeout: 15_000 },
  reporter: [['list']],
  outputDir: 'test-results',
  use: {
    baseURL,
    browserName: 'chromium',
    launchOptions: chromiumWithCamera(),
    trace: 'retain-on-failure',
  },
  webServer: {
    command: 'node --import tsx src/server/main.ts',
    url: `${baseURL}/api/health`,
    env: {
      WARDEN_DEV: '1',
      PORT: String(port),
      DIST_DIR: process.env.DIST_DIR ?? 'dist',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      PUBLIC_URL: baseURL,
      TRUST_PROXY: '1',
      TRIGGER_ALLOW_HOSTS: '127.0.0.1',
      // The reminders' local push service (tests/reminders.spec.ts).
      PUSH_ALLOW_HOSTS: '127.0.0.1',
    },
    reuseExistingServer: false,
    // PGlite's first start (migrations) can take a minute or more on a busy machine.
    timeout: 180_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
  // WARDEN_DEV: the tests read the outbox, move the clock and set up fixtures through /dev.
  // TRUST_PROXY: the tests give sign-ups addresses of their own (tests/helpers.ts, uniqueAddress).
  // TRIGGER_ALLOW_HOSTS: tests/collaboration.spec.ts receives trigger calls on 127.0.0.1.
});

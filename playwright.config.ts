import { defineConfig } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HEADLESS_SHELL_PATH, chromiumWithCamera } from './tests/chromium.ts';
import { copyBuild, migrateTemplate, startFromTemplate, testServer, thisWorkersServer } from './tests/servers.ts';

/**
 * Browser tests of the built client. Nothing is built here: `npm test` runs
 * `vite build` first (and the wasm build before it).
 *
 * Each worker has a server of its own (tests/servers.ts): the tests move the
 * server's clock and read its outbox (/dev), so two workers must never share
 * one. Server N listens on PLAYWRIGHT_PORT + N and serves its own copy of
 * the build (`DIST_DIR`, default `dist/`) from its own data directory
 * (PGlite, a copy of the run's migrated database), all in one temporary directory removed by
 * tests/global-teardown.ts. A spec file runs on one worker from start to
 * end, so its tests share that worker's server, as they would alone, unless
 * the file asks for its tests to be spread (the sweep).
 */
// Three workers on a 2-core machine: two keep both cores busy, and a third fills the time one waits
// on a page, the camera's video or a server's start (docs/gates.md has the measurements).
const workers = Number(process.env.PLAYWRIGHT_WORKERS ?? 3);

// The config is also loaded by each worker: they inherit the directory made
// by the main process through the environment instead of making their own,
// and Playwright tells each its index, which picks its server.
const isMainProcess = process.env.WARDEN_E2E_DATA_DIR === undefined;
process.env.WARDEN_E2E_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'warden-e2e-'));
const servers = Array.from({ length: workers }, (_, index) => testServer(index));
if (isMainProcess) {
  await migrateTemplate();
  for (const server of servers) {
    copyBuild(server);
    startFromTemplate(server.dataDir);
  }
}
const baseURL = thisWorkersServer().url;

/**
 * The longest files (by the JSON report's timings), each several minutes on one worker. Playwright
 * hands files to workers in the order of its projects, so these start first and the short files
 * fill the workers at the end, instead of a long file running on alone after the rest.
 */
const LONGEST_FILES = ['**/jail-live.spec.ts', '**/presence.spec.ts', '**/sweep.spec.ts', '**/camera-check.spec.ts'];

export default defineConfig({
  testDir: 'tests',
  testMatch: '**/*.spec.ts',
  projects: [
    { name: 'longest', testMatch: LONGEST_FILES },
    { name: 'others', testIgnore: LONGEST_FILES },
  ],
  globalTeardown: './tests/global-teardown.ts',
  workers,
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
    launchOptions: chromiumWithCamera(undefined, HEADLESS_SHELL_PATH),
    // No trace: it cost a quarter of the browsers' time, and CI shows only what the run prints
    // (each failure's error-context.md). Chasing a failure: `npx playwright test --trace retain-on-failure`.
    trace: 'off',
  },
  webServer: servers.map((server) => ({
    command: 'node --import tsx src/server/main.ts',
    url: `${server.url}/api/health`,
    env: {
      WARDEN_DEV: '1',
      PORT: String(server.port),
      DIST_DIR: server.distDir,
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      DATA_DIR: server.dataDir,
      PUBLIC_URL: server.url,
      TRUST_PROXY: '1',
      TRIGGER_ALLOW_HOSTS: '127.0.0.1',
      // The reminders' local push service (tests/reminders.spec.ts).
      PUSH_ALLOW_HOSTS: '127.0.0.1',
    },
    reuseExistingServer: false,
    // A start can take a minute on a busy machine.
    timeout: 180_000,
    stdout: 'ignore' as const,
    stderr: 'pipe' as const,
  })),
  // WARDEN_DEV: the tests read the outbox, move the clock and set up fixtures through /dev.
  // TRUST_PROXY: the tests give sign-ups addresses of their own (tests/helpers.ts, uniqueAddress).
  // TRIGGER_ALLOW_HOSTS: tests/collaboration.spec.ts receives trigger calls on 127.0.0.1.
});

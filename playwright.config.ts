import { defineConfig } from '@playwright/test';
import { chromiumWithCamera } from './tests/chromium.ts';

/**
 * Browser tests of the built client. Nothing is built here: `npm test` runs
 * `vite build` first (and the wasm build before it); the server started below
 * serves `dist/` on a port of its own.
 */
const port = Number(process.env.PLAYWRIGHT_PORT ?? 8793);
const baseURL = `http://127.0.0.1:${port}`;

export default defineConfig({
  testDir: 'tests',
  testMatch: '**/*.spec.ts',
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
    env: { PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', DATA_DIR: 'test-results/.data' },
    reuseExistingServer: false,
    timeout: 30_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});

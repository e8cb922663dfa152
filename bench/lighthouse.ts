/**
 * `npm run bench:lighthouse`: Lighthouse (its Node API, the default mobile
 * settings: a Moto G Power's screen, simulated slow 4G and a 4x slower CPU)
 * on the production build, for the first screen a visitor sees (`/`, the
 * intro) and the reservation list of a signed-in guest (`/reservations`).
 * Each run is a fresh Debian Chromium (/usr/bin/chromium, launched by
 * chrome-launcher) with an empty profile: no cache, no service worker. The
 * guest's session is put into the app's local database by a page of the
 * origin that loads no script (as bench/first-load.ts does), and Lighthouse
 * is told not to clear the origin's storage for that page. Prints, per page,
 * the median run (by performance score) beside the targets (performance at
 * least 95, accessibility 100), the scores of every run, and the failing
 * accessibility audits. Builds the client when its sources are newer than
 * the build (scripts/production.ts).
 *
 *   npm run bench:lighthouse
 *   npm run bench:lighthouse -- --runs 5 --check      # exit 1 when a target is missed
 *   npm run bench:lighthouse -- --dist dist-mine --json bench/results/lighthouse.json
 */
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';
import { launch } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { ensureBuilt, startProduction } from '../scripts/production.ts';
import { readyGuestOver } from '../src/server/test/server-process.ts';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../tests/chromium.ts';
import { signInPage } from '../tests/helpers.ts';

/** The targets (issue 19, "The first load"). */
const TARGET_PERFORMANCE = 95;
const TARGET_ACCESSIBILITY = 100;

const PAGES = [
  { name: 'intro (/, a visitor)', path: '/', signedIn: false },
  { name: 'reservation list (/reservations, a signed-in guest)', path: '/reservations', signedIn: true },
] as const;

/** The metrics printed, by Lighthouse audit id, and how each is shown. */
const METRICS = [
  { id: 'first-contentful-paint', label: 'FCP', unit: 'ms' },
  { id: 'largest-contentful-paint', label: 'LCP', unit: 'ms' },
  { id: 'total-blocking-time', label: 'TBT', unit: 'ms' },
  { id: 'cumulative-layout-shift', label: 'CLS', unit: '' },
  { id: 'speed-index', label: 'SI', unit: 'ms' },
] as const;

interface Run {
  performance: number;
  accessibility: number;
  metrics: Record<string, number>;
  /** The accessibility audits that failed: their titles and how many elements each. */
  accessibilityFailures: string[];
}

const { values: options } = parseArgs({
  options: {
    dist: { type: 'string', default: 'dist' },
    runs: { type: 'string', default: '3' },
    check: { type: 'boolean', default: false },
    json: { type: 'string' },
  },
});
const runs = Number(options.runs);
if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a positive whole number, not ${options.runs}`);

/** One Lighthouse run on `url` in a fresh Chromium; `guest` signs the page in first. */
async function lighthouseRun(url: string, guest: { id: number; token: string } | null): Promise<Run> {
  const chrome = await launch({ chromePath: CHROMIUM_PATH, chromeFlags: ['--headless=new', ...CHROMIUM_FLAGS] });
  try {
    if (guest !== null) {
      // A page of the origin that loads no script: no service worker, no cached chunk.
      const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
      const tab = await (browser.contexts()[0] ?? (await browser.newContext())).newPage();
      await tab.goto(new URL('/api/health', url).href);
      await signInPage(tab, guest);
      await tab.close();
      await browser.close();
    }
    const result = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility'],
      // The session is in the origin's storage; the cache and the service workers are empty anyway (a new profile).
      disableStorageReset: guest !== null,
    });
    if (result === undefined) throw new Error(`Lighthouse returned nothing for ${url}`);
    const { categories, audits, runtimeError, finalDisplayedUrl } = result.lhr;
    if (runtimeError !== undefined) throw new Error(`Lighthouse on ${url}: ${runtimeError.code} ${runtimeError.message}`);
    if (new URL(finalDisplayedUrl).pathname !== new URL(url).pathname) throw new Error(`${url} ended on ${finalDisplayedUrl}`);
    const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100);
    const accessibilityFailures = (categories.accessibility?.auditRefs ?? [])
      .map((ref) => audits[ref.id])
      .filter((audit) => audit !== undefined && audit.score !== null && audit.score < 1)
      .map((audit) => {
        const details = audit?.details as { items?: unknown[] } | undefined;
        return `${audit?.id}: ${audit?.title} (${details?.items?.length ?? 0} elements)`;
      });
    return {
      performance: score('performance'),
      accessibility: score('accessibility'),
      metrics: Object.fromEntries(METRICS.map(({ id }) => [id, audits[id]?.numericValue ?? Number.NaN])),
      accessibilityFailures,
    };
  } finally {
    chrome.kill();
  }
}

/** The run whose performance score is the median (the lower middle one of an even count). */
function medianRun(all: readonly Run[]): Run {
  const sorted = [...all].sort((a, b) => a.performance - b.performance);
  const median = sorted[Math.floor((sorted.length - 1) / 2)];
  if (median === undefined) throw new Error('no run');
  return median;
}

function shown(value: number, unit: string): string {
  return unit === 'ms' ? `${(value / 1000).toFixed(2)} s` : value.toFixed(3);
}

ensureBuilt(options.dist);
const server = await startProduction(options.dist);
const results: { page: string; median: Run; runs: Run[] }[] = [];
try {
  const guest = await readyGuestOver(server.url);
  for (const page of PAGES) {
    const pageRuns: Run[] = [];
    for (let index = 0; index < runs; index++) pageRuns.push(await lighthouseRun(new URL(page.path, server.url).href, page.signedIn ? guest : null));
    results.push({ page: page.name, median: medianRun(pageRuns), runs: pageRuns });
  }
} finally {
  await server.stop();
}

console.log(`\nLighthouse, mobile (simulated slow 4G, 4x CPU slowdown), median of ${runs} run(s) by performance score`);
let holds = true;
for (const { page, median, runs: pageRuns } of results) {
  const performanceOk = median.performance >= TARGET_PERFORMANCE;
  const accessibilityOk = median.accessibility >= TARGET_ACCESSIBILITY;
  holds &&= performanceOk && accessibilityOk;
  console.log(`\n${page}`);
  console.log(`  performance    ${String(median.performance).padStart(5)}   target >= ${TARGET_PERFORMANCE}: ${performanceOk ? 'holds' : 'MISSED'}`);
  console.log(`  accessibility  ${String(median.accessibility).padStart(5)}   target ${TARGET_ACCESSIBILITY}: ${accessibilityOk ? 'holds' : 'MISSED'}`);
  for (const { id, label, unit } of METRICS) console.log(`  ${label.padEnd(14)} ${shown(median.metrics[id] ?? Number.NaN, unit).padStart(8)}`);
  console.log(
    `  every run: performance ${pageRuns.map((run) => run.performance).join(', ')}; accessibility ${pageRuns.map((run) => run.accessibility).join(', ')}`,
  );
  for (const failure of new Set(pageRuns.flatMap((run) => run.accessibilityFailures))) console.log(`  accessibility finding: ${failure}`);
}
console.log(
  `\nTargets (performance >= ${TARGET_PERFORMANCE}, accessibility ${TARGET_ACCESSIBILITY} on both pages): ${holds ? 'HOLD' : 'MISSED'}; load now ${loadavg()
    .map((load) => load.toFixed(2))
    .join(' ')}`,
);
if (options.json !== undefined) writeFileSync(options.json, `${JSON.stringify(results, null, 2)}\n`);
if (options.check && !holds) process.exit(1);

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
 *   npm run bench:lighthouse -- --page list --reports /tmp/lh   # one page; every run's whole report kept
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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
  { key: 'intro', name: 'intro (/, a visitor)', path: '/', signedIn: false },
  { key: 'list', name: 'reservation list (/reservations, a signed-in guest)', path: '/reservations', signedIn: true },
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

const USAGE = `npm run bench:lighthouse [-- options]
  --runs N        runs a page (default 3); the median by performance is printed
  --page P        intro or list (default both)
  --dist DIR      the production build to serve (default dist, built when older than its sources)
  --json FILE     also write the figures as JSON
  --reports DIR   also write every run's whole Lighthouse report (DIR/<page>-<run>.json)
  --check         exit 1 when a target is missed`;

/** The options, or the usage and exit 2 on one this bench does not know (parseArgs throws). */
function readOptions() {
  try {
    return parseArgs({
      options: {
        dist: { type: 'string', default: 'dist' },
        runs: { type: 'string', default: '3' },
        page: { type: 'string' },
        check: { type: 'boolean', default: false },
        json: { type: 'string' },
        reports: { type: 'string' },
        help: { type: 'boolean', default: false },
      },
    }).values;
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    process.exit(2);
  }
}

const options = readOptions();
if (options.help) {
  console.log(USAGE);
  process.exit(0);
}
const runs = Number(options.runs);
if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a positive whole number, not ${options.runs}`);
const pages = PAGES.filter((page) => options.page === undefined || page.key === options.page);
if (pages.length === 0) throw new Error(`--page must be ${PAGES.map((page) => page.key).join(' or ')}, not ${options.page}`);
if (options.reports !== undefined) mkdirSync(options.reports, { recursive: true });

/** A run Lighthouse itself could not measure (`lhr.runtimeError`). */
class LighthouseRuntimeError extends Error {
  constructor(
    url: string,
    readonly code: string,
    message: string,
  ) {
    super(`Lighthouse on ${url}: ${code} ${message}`);
  }
}

/** Lighthouse's runtime errors that say to run it again: a trace it failed to record. */
const RETRIED_ERRORS = new Set(['NO_NAVSTART', 'NO_FCP', 'NO_TRACING_STARTED']);
const ATTEMPTS = 3;

/** `lighthouseRun`, again when Lighthouse failed to record the page (it asks for that); other failures end the bench. */
async function measuredRun(url: string, guest: { id: number; token: string } | null, report: string | undefined): Promise<Run> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await lighthouseRun(url, guest, report);
    } catch (error) {
      if (!(error instanceof LighthouseRuntimeError && RETRIED_ERRORS.has(error.code)) || attempt === ATTEMPTS) throw error;
      console.log(`  ${error.message}: run again (${attempt} of ${ATTEMPTS - 1} retries)`);
    }
  }
}

/** One Lighthouse run on `url` in a fresh Chromium; `guest` signs the page in first; `report` is where its whole report goes, if anywhere. */
async function lighthouseRun(url: string, guest: { id: number; token: string } | null, report: string | undefined): Promise<Run> {
  const chrome = await launch({ chromePath: CHROMIUM_PATH, chromeFlags: ['--headless=new', ...CHROMIUM_FLAGS] });
  try {
    if (guest !== null) {
      const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
      const tab = await (browser.contexts()[0] ?? (await browser.newContext())).newPage();
      await signInPage(tab, guest, url);
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
    if (report !== undefined) writeFileSync(report, typeof result.report === 'string' ? result.report : JSON.stringify(result.lhr));
    const { categories, audits, runtimeError, finalDisplayedUrl } = result.lhr;
    if (runtimeError !== undefined) throw new LighthouseRuntimeError(url, runtimeError.code, runtimeError.message);
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
  for (const page of pages) {
    const pageRuns: Run[] = [];
    for (let index = 0; index < runs; index++) {
      const report = options.reports === undefined ? undefined : join(options.reports, `${page.key}-${index + 1}.json`);
      pageRuns.push(await measuredRun(new URL(page.path, server.url).href, page.signedIn ? guest : null, report));
    }
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
  `\nTargets (performance >= ${TARGET_PERFORMANCE}, accessibility ${TARGET_ACCESSIBILITY} on ${pages.length === PAGES.length ? 'both pages' : 'this page'}): ${holds ? 'HOLD' : 'MISSED'}; load now ${loadavg()
    .map((load) => load.toFixed(2))
    .join(' ')}`,
);
if (options.json !== undefined) writeFileSync(options.json, `${JSON.stringify(results, null, 2)}\n`);
if (options.check && !holds) process.exit(1);

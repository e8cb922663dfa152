// What the page showed when each browser test failed: the accessibility
// snapshot that Playwright writes into the failure's error-context.md, printed
// at the end of `npm test`, since CI keeps only the run's output (docs/gates.md).

import { existsSync, readFileSync } from 'node:fs';
import { playwrightTestRuns } from './slowest-tests.mjs';

/** At most this many lines of page, over all failures: the summary above must stay within the output CI keeps. */
const LINES_SHOWN = 50;

/** Each failed run of a test of a Playwright JSON report as { name, ms, contextFile }. */
function failedTests(report) {
  return playwrightTestRuns(report).flatMap(({ name, results }) =>
    results
      .filter((result) => result.status !== 'passed' && result.status !== 'skipped')
      .map((result) => ({
        name,
        ms: result.duration,
        contextFile: result.attachments.find((attachment) => attachment.name === 'error-context')?.path,
      })),
  );
}

/** The page snapshot (the YAML block) of an error-context.md, or null. */
function pageSnapshot(contextFile) {
  if (contextFile === undefined || !existsSync(contextFile)) return null;
  const match = /```yaml\n([\s\S]*?)```/.exec(readFileSync(contextFile, 'utf8'));
  return match === null ? null : match[1].trimEnd().split('\n');
}

/**
 * Prints, for each failed test of the Playwright reports that exist, its
 * duration and the page it failed on, up to LINES_SHOWN lines in all.
 * `reports` is a list of { kind: 'vitest' | 'playwright', file }.
 */
export function printFailedPages(reports) {
  const failed = reports
    .filter(({ kind, file }) => kind === 'playwright' && existsSync(file))
    .flatMap(({ file }) => failedTests(JSON.parse(readFileSync(file, 'utf8'))));
  let linesLeft = LINES_SHOWN;
  for (const { name, ms, contextFile } of failed) {
    console.log(`\n\x1b[1mThe page when it failed\x1b[0m, after ${(ms / 1000).toFixed(1)} s: ${name}`);
    const lines = pageSnapshot(contextFile);
    if (lines === null) {
      console.log('  (no page snapshot)');
      continue;
    }
    for (const line of lines.slice(0, linesLeft)) console.log(`  ${line}`);
    if (lines.length > linesLeft) console.log(`  … ${lines.length - linesLeft} more lines in ${contextFile}`);
    linesLeft = Math.max(0, linesLeft - lines.length);
  }
}

// The slowest tests of an `npm test` run, read from the JSON reports that
// Vitest and Playwright write beside their usual output, so that the next
// change sees where the suite's time goes (docs/gates.md).

import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';

/** Each test of a Vitest JSON report as { pass, name, ms }. */
function vitestTests(report, pass, root) {
  return report.testResults.flatMap((file) =>
    file.assertionResults.map((test) => ({
      pass,
      name: `${relative(root, file.name)} › ${test.fullName}`,
      ms: test.duration ?? 0,
    })),
  );
}

/** Each test of a Playwright JSON report (suites nest) as { name, results }, one entry per project run. */
export function playwrightTestRuns(report) {
  const tests = [];
  const visit = (suite, titles) => {
    const path = suite.title ? [...titles, suite.title] : titles;
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests) tests.push({ name: [...path, spec.title].join(' › '), results: test.results });
    }
    for (const child of suite.suites ?? []) visit(child, path);
  };
  for (const suite of report.suites) visit(suite, []);
  return tests;
}

/** Each test of a Playwright JSON report as { pass, name, ms }. */
function playwrightTests(report, pass) {
  return playwrightTestRuns(report).map(({ name, results }) => ({ pass, name, ms: results.reduce((sum, result) => sum + result.duration, 0) }));
}

/**
 * Reads the reports that exist (a pass that did not run wrote none) and
 * prints the `count` slowest tests across all of them.
 * `reports` is a list of { pass, kind: 'vitest' | 'playwright', file }.
 */
export function printSlowestTests(reports, root, count = 10) {
  const tests = reports
    .filter(({ file }) => existsSync(file))
    .flatMap(({ pass, kind, file }) => {
      const report = JSON.parse(readFileSync(file, 'utf8'));
      return kind === 'vitest' ? vitestTests(report, pass, root) : playwrightTests(report, pass);
    });
  if (tests.length === 0) return;
  tests.sort((a, b) => b.ms - a.ms);
  console.log(`\n\x1b[1mThe ${Math.min(count, tests.length)} slowest tests\x1b[0m (of ${tests.length})`);
  for (const { pass, name, ms } of tests.slice(0, count)) {
    console.log(`  ${`${(ms / 1000).toFixed(1)} s`.padStart(8)}  ${pass.padEnd(12)} ${name}`);
  }
}

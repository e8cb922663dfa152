// `npm test`: installs what is missing, then runs every suite in order and
// stops at the first failure; the quick gates come first (docs/gates.md).
// 1-4 run beside 5-6, and 8 beside 9, as each keeps about one core busy:
//
//   1. the formatter, checked (Biome; `npm run format` writes)
//   2. the linter (Biome, with the React hooks rules), warnings included
//   3. knip: unused files, exports and dependencies, and exports that only
//      tests use
//   4. the TypeScript type check of every project (`tsc -b`)
//   5. cargo fmt --check and cargo clippy -D warnings on crates/vision
//   6. the vision wasm build (and the face model), then cargo test for the
//      crate, on Debian's Rust 1.63 (its tests read the model)
//   7. Vitest (src/ and bench/); the server suite on in-memory PGlite
//   8. the short chaos run on PGlite (`npm run bench:chaos -- --short`:
//      20 live guests, bookings and short jails while the server is killed
//      with SIGKILL 5 times and restarted on the same data; bench/README.md),
//      beside 9
//   9. on a real PostgreSQL server that this script starts privately
//      (scripts/postgres.mjs), the same short chaos run, then the server
//      suite again (src/server), with a private Redis (scripts/redis.mjs) for
//      the two-server relay test
//  10. Playwright (tests/), against a fresh vite build
//
// With CI set, a missing Playwright suite is a failure; on a developer's
// machine it is skipped with a warning.

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { constants, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CARGO,
  CARGO_CLIPPY,
  CARGO_FMT,
  ROOT,
  bin,
  cargoEnv,
  ensureChromium,
  ensureFaceCascade,
  ensureFfmpeg,
  ensureNodeModules,
  ensureRustLints,
  ensureWasmToolchain,
  run,
  step,
} from './ensure.mjs';
import { ensurePostgres, startTemporaryPostgres } from './postgres.mjs';
import { ensureRedis, startTemporaryRedis } from './redis.mjs';
import { printFailedPages } from './failed-pages.mjs';
import { printSlowestTests } from './slowest-tests.mjs';

const isCi = Boolean(process.env.CI) && process.env.CI !== 'false' && process.env.CI !== '0';
const results = [];
const startedAt = Date.now();

// Each test pass also writes a JSON report here; the summary lists the slowest tests from them.
const reportDir = mkdtempSync(join(tmpdir(), 'warden-test-reports-'));
const reports = [];
function jsonReport(pass, kind) {
  const file = join(reportDir, `${reports.length}-${kind}.json`);
  reports.push({ pass, kind, file });
  return file;
}
function vitestArgs(pass, ...paths) {
  return ['run', ...paths, '--reporter=default', '--reporter=json', `--outputFile.json=${jsonReport(pass, 'vitest')}`];
}

function seconds(ms) {
  return `${(ms / 1000).toFixed(1)} s`;
}

function summary() {
  console.log('\n\x1b[1mSummary\x1b[0m');
  for (const { name, outcome, ms, note } of results) {
    const mark = outcome === 'passed' ? '✔' : outcome === 'skipped' ? '–' : '✖';
    console.log(`  ${mark} ${name.padEnd(26)} ${outcome.padEnd(8)} ${seconds(ms).padStart(8)}${note ? `  ${note}` : ''}`);
  }
  console.log(`  total ${seconds(Date.now() - startedAt)}`);
  try {
    printSlowestTests(reports, ROOT);
    printFailedPages(reports);
  } catch (error) {
    // These lists only inform: an unreadable report must not change the run's outcome.
    console.warn(`(the slowest tests or the failed pages could not be listed: ${error instanceof Error ? error.message : error})`);
  }
}

function fail(name, ms, note) {
  results.push({ name, outcome: 'failed', ms, note });
  console.error(`\n✖ ${name} failed${note ? ` (${note})` : ''}`);
  summary();
  process.exit(1);
}

function passed(name, ms) {
  results.push({ name, outcome: 'passed', ms });
  console.log(`✔ ${name} passed in ${seconds(ms)}`);
}

/** Runs one suite (a function returning an exit status) and records it. */
function suite(name, body) {
  step(name);
  const start = Date.now();
  let status;
  try {
    status = body();
  } catch (error) {
    fail(name, Date.now() - start, error instanceof Error ? error.message : String(error));
  }
  const ms = Date.now() - start;
  if (status !== 0) fail(name, ms, `exit ${status}`);
  passed(name, ms);
}

function skip(name, note) {
  results.push({ name, outcome: 'skipped', ms: 0, note });
  console.warn(`\n– ${name} skipped: ${note}`);
}

function hasPlaywrightSpecs(dir) {
  if (!existsSync(dir)) return false;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory() && hasPlaywrightSpecs(join(dir, entry.name))) return true;
    if (entry.isFile() && /\.(spec|test)\.[cm]?[jt]sx?$/.test(entry.name)) return true;
  }
  return false;
}

ensureNodeModules();
ensureWasmToolchain();
ensureFaceCascade();
ensureRustLints();
ensureChromium();
ensureFfmpeg();
ensurePostgres();
ensureRedis();

/**
 * Runs a command with its output (standard output and error, in the order
 * written) held until it ends; resolves to its exit status and that output.
 */
function runHeld(command, args, options = {}) {
  return new Promise((resolve) => {
    const output = [];
    const child = spawn(command, args, { cwd: ROOT, ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('error', (error) => resolve({ status: 1, output: [...output, Buffer.from(`cannot run ${command}: ${error.message}\n`)] }));
    child.on('close', (status, signal) => resolve({ status: signal ? 128 + (constants.signals[signal] ?? 0) : (status ?? 1), output }));
  });
}

/**
 * Runs lanes of suites at the same time, each lane's suites one after
 * another, each suite's commands in turn until one fails. A suite's output
 * is printed whole when it ends, under its heading, so the log reads as if
 * the suites had run one by one. After a failure no lane starts another
 * suite; once the suites under way have ended, it resolves to the first
 * failure (for `failOn`), or null.
 */
async function sideBySide(...lanes) {
  let failed = null;
  const runLane = async (lane) => {
    for (const [name, commands] of lane) {
      if (failed !== null) return;
      const start = Date.now();
      let status = 0;
      const output = [];
      for (const [command, args, options] of commands) {
        const result = await runHeld(command, args, options);
        output.push(...result.output);
        status = result.status;
        if (status !== 0) break;
      }
      const ms = Date.now() - start;
      step(name);
      process.stdout.write(Buffer.concat(output));
      if (status === 0) passed(name, ms);
      else failed ??= { name, ms, note: `exit ${status}` };
    }
  };
  await Promise.all(lanes.map(runLane));
  return failed;
}

/** Ends the run with `failure` from `sideBySide`, if there is one. */
function failOn(failure) {
  if (failure !== null) fail(failure.name, failure.ms, failure.note);
}

// The JavaScript gates and the crate's run side by side: each mostly keeps one core busy.
failOn(
  await sideBySide(
    [
      ['format check (biome)', [[bin('biome'), ['format', '.']]]],
      ['lint (biome)', [[bin('biome'), ['lint', '--error-on-warnings', '.']]]],
      [
        'unused code (knip)',
        [
          [bin('knip'), []],
          [bin('knip'), ['--production', '--include', 'exports']],
        ],
      ],
      ['type check (tsc -b)', [[bin('tsc'), ['-b']]]],
    ],
    [
      [
        'cargo fmt and clippy',
        [
          [CARGO_FMT, ['-p', 'vision', '--check'], { env: cargoEnv() }],
          [CARGO_CLIPPY, ['clippy', '--offline', '-p', 'vision', '--all-targets', '--', '-D', 'warnings'], { env: cargoEnv() }],
        ],
      ],
      ['vision wasm build', [[process.execPath, [join(ROOT, 'scripts', 'build-wasm.mjs')]]]],
      ['cargo test (Rust 1.63)', [[CARGO, ['test', '--offline', '-p', 'vision'], { env: cargoEnv() }]]],
    ],
  ),
);

suite('vitest', () => run(bin('vitest'), vitestArgs('vitest')));

const shortChaos = ['bench/chaos.ts', '--short'];

// The two short chaos runs side by side, as each keeps about one core busy (61.7 s and 59.4 s
// alone, 74 s together); the server suite on PostgreSQL follows the chaos run there.
let postgres;
let redis;
try {
  postgres = startTemporaryPostgres();
  redis = startTemporaryRedis();
} catch (error) {
  redis?.stop();
  postgres?.stop();
  fail('PostgreSQL and Redis for the tests', 0, error instanceof Error ? error.message : String(error));
}
// src/server includes src/server/jail/cluster.test.ts, which runs only with both.
const onPostgres = { ...process.env, WARDEN_TEST_DATABASE_URL: postgres.url, WARDEN_TEST_REDIS_URL: redis.url };
let chaosFailure;
try {
  chaosFailure = await sideBySide(
    [['chaos, short (PGlite)', [[bin('tsx'), [...shortChaos, '--database', 'pglite']]]]],
    [
      ['chaos, short (PostgreSQL)', [[bin('tsx'), [...shortChaos, '--database', 'postgres', '--postgres', postgres.url]]]],
      ['server suite on PostgreSQL', [[bin('vitest'), vitestArgs('postgres', 'src/server'), { env: onPostgres }]]],
    ],
  );
} finally {
  redis.stop();
  postgres.stop();
}
failOn(chaosFailure);

const hasPlaywright = existsSync(join(ROOT, 'playwright.config.ts')) && hasPlaywrightSpecs(join(ROOT, 'tests'));
if (hasPlaywright) {
  // The production build, as `npm start` serves it, whatever NODE_ENV the shell has.
  suite('client build (vite build)', () => run(bin('vite'), ['build'], { env: { ...process.env, NODE_ENV: 'production' } }));
  suite('playwright', () =>
    run(bin('playwright'), ['test', '--reporter=list,json'], {
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: jsonReport('playwright', 'playwright') },
    }));
} else if (isCi) {
  fail('playwright', 0, 'no playwright.config.ts or no spec under tests/');
} else {
  skip('playwright', 'no playwright.config.ts or no spec under tests/ yet (this fails under CI)');
}

summary();

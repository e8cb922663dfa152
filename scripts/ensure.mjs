// Makes sure what `npm start` and `npm test` need is on the machine: the npm
// dependencies, Debian's Rust toolchain with the wasm32 standard library,
// rustfmt and clippy, OpenCV's face cascade (Debian's opencv-data, from which
// the face model is made), and Chromium for the browser tests. Only node: built-ins, because this runs
// before node_modules exists.

import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { constants } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (this file lives in scripts/). */
export const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));

/** The wasm is built with Debian's Rust 1.63, never a rustup toolchain. */
export const RUSTC = '/usr/bin/rustc';
export const CARGO = '/usr/bin/cargo';
export const RUSTDOC = '/usr/bin/rustdoc';
/**
 * Debian's rustfmt and clippy, run directly: `cargo fmt` and `cargo clippy`
 * would find a rustup toolchain's first ($CARGO_HOME/bin comes before PATH).
 */
export const RUSTFMT = '/usr/bin/rustfmt';
export const CARGO_FMT = '/usr/bin/cargo-fmt';
export const CARGO_CLIPPY = '/usr/bin/cargo-clippy';
export const CHROMIUM = '/usr/bin/chromium';
/** The browser tests' Chromium (tests/chromium.ts). */
const CHROMIUM_HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';

const WASM_PACKAGES = ['rustc', 'cargo', 'libstd-rust-dev-wasm32', 'lld', 'binaryen'];
const CHROMIUM_PACKAGES = ['chromium', 'chromium-headless-shell'];
const RUST_LINT_PACKAGES = ['rustfmt', 'rust-clippy'];
const FACE_CASCADE_PACKAGES = ['opencv-data'];

/** The cascade scripts/face-model.mjs converts (docs/vision.md, "Face"). */
export const FACE_CASCADE_XML = '/usr/share/opencv4/lbpcascades/lbpcascade_frontalface.xml';

/** Prints a step heading. */
export function step(message) {
  console.log(`\n\x1b[1m==> ${message}\x1b[0m`);
}

/**
 * Runs a command with inherited output and returns its exit status (never
 * throws for a non-zero exit; throws when the command cannot be started).
 */
export function run(command, args = [], options = {}) {
  const result = spawnSync(command, args, { stdio: 'inherit', cwd: ROOT, ...options });
  if (result.error) {
    throw new Error(`cannot run ${command}: ${result.error.message}`);
  }
  if (result.signal) {
    return 128 + (constants.signals[result.signal] ?? 0);
  }
  return result.status ?? 1;
}

/** Runs a command and exits the process with a clear message when it fails. */
export function runOrExit(command, args = [], options = {}) {
  const status = run(command, args, options);
  if (status !== 0) {
    console.error(`\n✖ ${[command, ...args].join(' ')} failed (exit ${status})`);
    process.exit(status);
  }
}

/** Runs a command quietly and returns its trimmed standard output, or null. */
export function capture(command, args = [], options = {}) {
  const result = spawnSync(command, args, { encoding: 'utf8', cwd: ROOT, ...options });
  if (result.error || result.status !== 0) return null;
  return result.stdout.trim();
}

/** Whether `name` is an executable on PATH. */
export function onPath(name) {
  return capture('sh', ['-c', `command -v ${name}`]) !== null;
}

/** The path of an npm-installed binary of this project. */
export function bin(name) {
  return join(ROOT, 'node_modules', '.bin', name);
}

function mtime(path) {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return null;
  }
}

/**
 * Installs the npm dependencies from the lockfile (`npm ci`) when
 * node_modules is missing or older than package-lock.json.
 */
export function ensureNodeModules() {
  const lock = mtime(join(ROOT, 'package-lock.json'));
  const installed = mtime(join(ROOT, 'node_modules', '.package-lock.json'));
  if (installed !== null && (lock === null || installed >= lock)) return;
  step(installed === null ? 'Installing npm dependencies (npm ci)' : 'package-lock.json changed: reinstalling (npm ci)');
  runOrExit('npm', ['ci', '--no-audit', '--no-fund'], { stdio: ['ignore', 'inherit', 'inherit'] });
}

let aptUpdated = false;

/**
 * Installs Debian packages when running as root on a system with apt-get;
 * otherwise prints the one command to run and exits non-zero.
 */
export function aptInstall(packages, why) {
  const command = `apt-get install -y ${packages.join(' ')}`;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot || !onPath('apt-get')) {
    console.error(`\n✖ ${why}`);
    console.error(`  Install it with:\n\n    sudo apt-get update && sudo ${command}\n`);
    console.error('  (Debian or Ubuntu packages; on another system install the equivalents.)');
    process.exit(1);
  }
  step(`${why}: ${command}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const options = { env, stdio: ['ignore', 'inherit', 'inherit'] };
  if (!aptUpdated) {
    runOrExit('apt-get', ['update'], options);
    aptUpdated = true;
  }
  runOrExit('apt-get', ['install', '-y', '--no-install-recommends', ...packages], options);
}

/** What is missing from the wasm toolchain, as readable reasons (empty when complete). */
export function wasmToolchainProblems() {
  const problems = [];
  if (!existsSync(RUSTC)) problems.push(`${RUSTC} is missing`);
  if (!existsSync(CARGO)) problems.push(`${CARGO} is missing`);
  if (problems.length === 0) {
    const sysroot = capture(RUSTC, ['--print', 'sysroot']);
    if (sysroot === null) {
      problems.push(`${RUSTC} --print sysroot failed`);
    } else if (!existsSync(join(sysroot, 'lib', 'rustlib', 'wasm32-unknown-unknown'))) {
      problems.push(`the wasm32-unknown-unknown standard library is missing from ${sysroot}/lib/rustlib`);
    }
  }
  if (!existsSync('/usr/bin/rust-lld') && !onPath('rust-lld') && !onPath('wasm-ld')) {
    problems.push('no wasm linker (rust-lld or wasm-ld)');
  }
  return problems;
}

/**
 * Debian's Rust (1.63) with the wasm32 standard library and a wasm linker;
 * binaryen's wasm-opt comes along but stays optional.
 */
export function ensureWasmToolchain() {
  let problems = wasmToolchainProblems();
  if (problems.length === 0) return;
  aptInstall(WASM_PACKAGES, `The wasm toolchain is incomplete (${problems.join('; ')})`);
  problems = wasmToolchainProblems();
  if (problems.length > 0) {
    console.error(`\n✖ The wasm toolchain is still incomplete: ${problems.join('; ')}`);
    process.exit(1);
  }
}

/** rustfmt and clippy, for the crate's gates in `npm test`. */
export function ensureRustLints() {
  const missing = () => [RUSTFMT, CARGO_FMT, CARGO_CLIPPY].filter((path) => !existsSync(path));
  if (missing().length === 0) return;
  aptInstall(RUST_LINT_PACKAGES, `The Rust lint tools are incomplete (${missing().join(', ')} missing)`);
  if (missing().length > 0) {
    console.error(`\n✖ still missing after installing ${RUST_LINT_PACKAGES.join(' ')}: ${missing().join(', ')}`);
    process.exit(1);
  }
}

/** OpenCV's LBP face cascade, from which the build makes the face model. */
export function ensureFaceCascade() {
  if (existsSync(FACE_CASCADE_XML)) return;
  aptInstall(FACE_CASCADE_PACKAGES, `OpenCV's face cascade is missing (${FACE_CASCADE_XML})`);
  if (!existsSync(FACE_CASCADE_XML)) {
    console.error(`\n✖ ${FACE_CASCADE_XML} is still missing after installing ${FACE_CASCADE_PACKAGES.join(' ')}`);
    process.exit(1);
  }
}

/**
 * Debian's Chromium: the full browser (the screens and the benchmarks) and
 * its headless shell (the Playwright suite).
 */
export function ensureChromium() {
  const missing = () => [CHROMIUM, CHROMIUM_HEADLESS_SHELL].filter((path) => !existsSync(path));
  if (missing().length === 0) return;
  aptInstall(CHROMIUM_PACKAGES, `Chromium is missing (${missing().join(', ')})`);
  if (missing().length > 0) {
    console.error(`\n✖ ${missing().join(', ')} still missing after installing ${CHROMIUM_PACKAGES.join(' ')}`);
    process.exit(1);
  }
}

/**
 * ffmpeg, which decodes the judgment benchmark's footage (bench/footage) and
 * so the browser tests' face video (tests/face-video.ts).
 */
export function ensureFfmpeg() {
  if (onPath('ffmpeg')) return;
  aptInstall(['ffmpeg'], 'ffmpeg is missing (it decodes the footage of bench/footage)');
  if (!onPath('ffmpeg')) {
    console.error('\n✖ ffmpeg is still missing after installing ffmpeg');
    process.exit(1);
  }
}

/** The path of wasm-opt when binaryen is installed, else null. */
export function wasmOpt() {
  if (existsSync('/usr/bin/wasm-opt')) return '/usr/bin/wasm-opt';
  return capture('sh', ['-c', 'command -v wasm-opt']);
}

/**
 * Environment for Debian's cargo: its own rustc, rustdoc and rustfmt, never
 * rustup's.
 */
export function cargoEnv(extra = {}) {
  // cargo-clippy runs the `cargo` it finds on PATH: Debian's comes first.
  const path = [dirname(CARGO), process.env.PATH].filter(Boolean).join(':');
  const env = { ...process.env, PATH: path, RUSTC, RUSTDOC, RUSTFMT, ...extra };
  // A rustup toolchain override would otherwise be ignored anyway, but keep
  // the environment unambiguous.
  delete env.RUSTUP_TOOLCHAIN;
  return env;
}

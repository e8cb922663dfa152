/**
 * The production build and server for the review tools (`npm run screens`,
 * `npm run bench:first-load`): the client is built when its sources are newer
 * than the build, and the server runs on it with a throw-away PGlite
 * database, the development routes on (WARDEN_DEV=1) and each request's
 * address taken from X-Forwarded-For (TRUST_PROXY=1, as the browser tests).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, stopGracefully } from '../src/server/test/server-process.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** What the client build is made from. */
const SOURCES = [
  'src/client',
  'src/shared',
  'index.html',
  'warden.html',
  'terms.html',
  'privacy.html',
  'public',
  'vite.config.ts',
  'crates/vision/pkg',
  'package-lock.json',
];

/** The newest modification time under `path` (0 when it does not exist). */
function newestChange(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newestChange(join(path, name))));
}

function run(command: string, args: string[]): void {
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.status ?? result.signal})`);
}

/** Builds the vision wasm and the client into `distDir` (absolute, or relative to the repository) unless the build is newer than its sources. */
export function ensureBuilt(distDir: string): void {
  const index = resolve(ROOT, distDir, 'index.html');
  const built = existsSync(index) ? statSync(index).mtimeMs : 0;
  if (built >= Math.max(...SOURCES.map((source) => newestChange(join(ROOT, source))))) {
    console.log(`${distDir}/ is newer than its sources: not rebuilt`);
    return;
  }
  run(process.execPath, ['scripts/build-wasm.mjs']);
  run(process.execPath, [join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--outDir', distDir, '--emptyOutDir']);
}

export interface ProductionServer {
  url: string;
  stop(): Promise<void>;
}

/** How long the server may take to start: PGlite's first start (its migrations) is slow on a busy machine. */
const START_TIMEOUT_MS = 180_000;

/** Runs the server on `distDir` with a fresh data directory, removed by `stop`; resolves once `/api/health` answers. */
export async function startProduction(distDir: string): Promise<ProductionServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'warden-review-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const output: string[] = [];
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      HOST: '127.0.0.1',
      PORT: String(port),
      WARDEN_DEV: '1',
      TRUST_PROXY: '1',
      DIST_DIR: distDir,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const stop = async () => {
    await stopGracefully(child);
    rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`the server exited with ${child.exitCode}:\n${output.join('')}`);
    }
    if (
      await fetch(`${url}/api/health`).then(
        (response) => response.ok,
        () => false,
      )
    )
      return { url, stop };
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the server did not start within ${START_TIMEOUT_MS / 1000} s:\n${output.join('')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

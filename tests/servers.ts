import { cpSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * The servers the browser tests run against: one per Playwright worker
 * (playwright.config.ts starts them). The tests move a server's clock,
 * read its outbox and, for the update test, rewrite its service worker, so
 * each worker has a server, a data directory and a copy of the build of its
 * own, all under the run's temporary directory.
 */
export interface TestServer {
  port: number;
  url: string;
  dataDir: string;
  /** The copy of the build (`DIST_DIR`, default `dist/`) this server serves. */
  distDir: string;
}

/** The run's temporary directory, made by playwright.config.ts and inherited by its workers. */
function runDir(): string {
  const dir = process.env.WARDEN_E2E_DATA_DIR;
  if (dir === undefined) throw new Error('playwright.config.ts sets WARDEN_E2E_DATA_DIR');
  return dir;
}

export function testServer(index: number): TestServer {
  const port = Number(process.env.PLAYWRIGHT_PORT ?? 8793) + index;
  return { port, url: `http://127.0.0.1:${port}`, dataDir: join(runDir(), String(index), 'data'), distDir: join(runDir(), String(index), 'dist') };
}

/** The server of the worker this runs in (Playwright numbers the workers running at once from 0). */
export function thisWorkersServer(): TestServer {
  return testServer(Number(process.env.TEST_PARALLEL_INDEX ?? 0));
}

/** Copies the build for `server`, once per run; a missing build is left to the server to report. */
export function copyBuild(server: TestServer): void {
  const build = resolve(process.env.DIST_DIR ?? 'dist');
  if (existsSync(build) && !existsSync(server.distDir)) cpSync(build, server.distDir, { recursive: true });
}

/** The run's migrated database, made once by `migrateTemplate`. */
function templateDir(): string {
  return join(runDir(), 'template');
}

/**
 * Makes the run's migrated PGlite database, once, for the servers to start
 * on copies of (`startFromTemplate`): a server's first start on an empty
 * directory creates and migrates its database, about 11 s of CPU against 4
 * for a start on a migrated one. `npm start` on an empty directory is
 * checked by src/server/modes.test.ts.
 */
export async function migrateTemplate(): Promise<void> {
  const { openDatabase } = await import('../src/server/db/database.ts');
  const database = await openDatabase({ driver: 'pglite', dataDir: templateDir() });
  await database.close();
}

/** Gives the data directory `dataDir` (a server's `DATA_DIR`) a copy of the run's migrated database. */
export function startFromTemplate(dataDir: string): void {
  // The server's PGlite directory under DATA_DIR (src/server/config.ts, parseDatabaseUrl).
  cpSync(templateDir(), join(dataDir, 'pglite'), { recursive: true });
}

import { randomBytes } from 'node:crypto';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { adminQuery, DATABASE_SERVER_URL, ON_POSTGRES } from './server-process.ts';

/**
 * A server process's environment on a data directory of its own and, in the
 * PostgreSQL pass, a fresh database; `cleanups` gets what removes them. On
 * PGlite the directory starts as a copy of the run's migrated database
 * (pglite-template.ts), so the server skips creating and migrating one; a
 * first start on an empty directory is checked by modes.test.ts and
 * db/database.test.ts.
 */
export async function freshServerData(cleanups: (() => Promise<void>)[]): Promise<Record<string, string>> {
  const dataDir = await mkdtemp(join(tmpdir(), 'warden-restart-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const env = { DATA_DIR: dataDir, TRUST_PROXY: '1', WARDEN_DEV: '1' };
  if (!ON_POSTGRES) {
    const template = inject('pgliteTemplate');
    // The server's PGlite directory under DATA_DIR (config.ts, parseDatabaseUrl).
    if (template !== null && template !== undefined) await cp(template.dataDir, join(dataDir, 'pglite'), { recursive: true });
    return env;
  }
  const name = `warden_restart_${randomBytes(6).toString('hex')}`;
  await adminQuery(DATABASE_SERVER_URL, `create database ${name}`);
  cleanups.push(() => adminQuery(DATABASE_SERVER_URL, `drop database if exists ${name} with (force)`));
  const url = new URL(DATABASE_SERVER_URL);
  url.pathname = `/${name}`;
  return { ...env, DATABASE_URL: url.toString() };
}

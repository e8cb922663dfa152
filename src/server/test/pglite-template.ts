import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../db/database.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /**
     * The migrated PGlite database every server suite starts from, or null on PostgreSQL: a
     * `dumpDataDir` tarball for the in-process servers, and its data directory, closed, for
     * server processes to start on a copy of (server-data.ts).
     */
    pgliteTemplate: { dump: string; dataDir: string } | null;
  }
}

/**
 * Vitest's global set-up: one PGlite database migrated by `openDatabase`
 * (the one home of the migrations) and dumped once per run; each suite's
 * in-memory database starts from the dump (harness.ts). Creating a PGlite
 * database (its initdb) and migrating it took most of a server suite's
 * set-up; loading the dump skips both, and the migrations then find
 * nothing to do. A server process started on a copy of the directory skips
 * them too (its first start took about 11 s instead of 4 on a quiet machine).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const directory = await mkdtemp(join(tmpdir(), 'warden-pglite-template-'));
  const cleanUp = () => rm(directory, { recursive: true, force: true });
  if ((process.env.WARDEN_TEST_DATABASE_URL ?? '') !== '') {
    project.provide('pgliteTemplate', null);
    return cleanUp;
  }
  const dataDir = join(directory, 'data');
  const migrated = await openDatabase({ driver: 'pglite', dataDir });
  await migrated.close();
  const client = await PGlite.create(dataDir);
  const dump = await client.dumpDataDir('none');
  await client.close();
  const file = join(directory, 'template.tar');
  await writeFile(file, Buffer.from(await dump.arrayBuffer()));
  project.provide('pgliteTemplate', { dump: file, dataDir });
  return cleanUp;
}

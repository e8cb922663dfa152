import { isUsageError, runAdmin, USAGE } from './admin.ts';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/database.ts';
import { CLEAR_ALL, notifyReadCaches } from './lib/read-cache-channel.ts';

/** `npm run admin -- <command>`: see `USAGE` in admin.ts and docs/api.md. */
async function main(): Promise<void> {
  const config = loadConfig();
  const { db, close } = await openDatabase(config.database);
  try {
    console.log((await runAdmin(process.argv.slice(2), db, { now: () => Date.now() }, config)).join('\n'));
    // Servers sharing a PostgreSQL database drop their read caches (with
    // PGlite no server runs beside this command).
    if (config.database.driver === 'postgres') await notifyReadCaches(db, CLEAR_ALL);
  } catch (error) {
    if (!isUsageError(error)) throw error;
    console.error(`${error.message}\n\n${USAGE}`);
    process.exitCode = 2;
  } finally {
    await close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

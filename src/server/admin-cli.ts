import { runAdmin, USAGE, UsageError } from './admin.ts';
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
    if (!(error instanceof UsageError || isParseArgsError(error))) throw error;
    console.error(`${error.message}\n\n${USAGE}`);
    process.exitCode = 2;
  } finally {
    await close();
  }
}

/** `util.parseArgs` rejects unknown options with a TypeError whose code starts ERR_PARSE_ARGS. */
function isParseArgsError(error: unknown): error is TypeError {
  return error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS');
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

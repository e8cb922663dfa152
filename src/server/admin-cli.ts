import { isUsageError, runAdmin, USAGE } from './admin.ts';
import { adminSocketPath, sendAdminCommand } from './admin-socket.ts';
import { dataDirFrom, loadConfig } from './config.ts';
import { openDatabase } from './db/database.ts';
import { CLEAR_ALL, notifyReadCaches } from './lib/read-cache-channel.ts';

function usageFailure(message: string): void {
  console.error(`${message}\n\n${USAGE}`);
  process.exitCode = 2;
}

/** The command run on the database itself, when no server runs on this data directory. */
async function runLocally(args: string[]): Promise<void> {
  const config = loadConfig();
  const { db, close } = await openDatabase(config.database);
  try {
    console.log((await runAdmin(args, db, { now: () => Date.now() }, config)).join('\n'));
    // Servers sharing a PostgreSQL database drop their read caches.
    if (config.database.driver === 'postgres') await notifyReadCaches(db, CLEAR_ALL);
  } catch (error) {
    if (!isUsageError(error)) throw error;
    usageFailure(error.message);
  } finally {
    await close();
  }
}

/**
 * `npm run admin -- <command>`: see `USAGE` in admin.ts and docs/api.md. A
 * server running on the same data directory runs the command (admin-socket.ts);
 * without one the command opens the database itself.
 */
async function main(): Promise<void> {
  const args = process.argv.slice(2);
  // Only DATA_DIR is needed to reach a server: its own configuration holds the rest.
  const answer = await sendAdminCommand(adminSocketPath(dataDirFrom(process.env)), args);
  if (answer === null) return runLocally(args);
  if ('lines' in answer) console.log(answer.lines.join('\n'));
  else if ('usageError' in answer) usageFailure(answer.usageError);
  else {
    console.error(answer.error);
    process.exitCode = 1;
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

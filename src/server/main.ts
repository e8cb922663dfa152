import { mkdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { buildApp, LOG_REDACT_PATHS } from './app.ts';
import { loadConfig } from './config.ts';

/** Starts the Warden server: `npm start` runs this after building the client. */
async function main(): Promise<void> {
  const config = loadConfig();
  await mkdir(config.dataDir, { recursive: true });

  const app = await buildApp(config, {
    logger: { level: process.env.LOG_LEVEL ?? 'info', redact: LOG_REDACT_PATHS },
  });
  if (!existsSync(join(config.distDir, 'index.html'))) {
    app.log.warn(`${config.distDir} has no index.html: run "npm start" (or "npx vite build") to build the client`);
  }

  let closing = false;
  const shutdown = (signal: NodeJS.Signals): void => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal}: closing`);
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'close failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);

  await app.listen({ port: config.port, host: config.host });
  app.log.info(
    {
      database: config.database.driver === 'pglite' ? config.database.dataDir : 'DATABASE_URL',
      publicUrl: config.publicUrl,
      version: config.version,
      production: config.isProduction,
      smtp: config.smtpUrl !== null,
    },
    `Warden is serving ${config.distDir}`,
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

import { mkdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import adminSocket from './admin-socket.ts';
import { buildApp, LOG_REDACT_PATHS } from './app.ts';
import { loadConfig } from './config.ts';

/** Starts the Warden server: `npm start` runs this after building the client. */
async function main(): Promise<void> {
  const config = loadConfig();
  await mkdir(config.dataDir, { recursive: true });

  const app = await buildApp(config, {
    logger: { level: process.env.LOG_LEVEL ?? 'info', redact: LOG_REDACT_PATHS },
  });
  // `npm run admin` reaches this server through DATA_DIR/admin.sock (admin-socket.ts).
  await app.register(adminSocket);
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
  // One line an operator can read the set-up from (docs/operations.md).
  app.log.info(
    {
      mode: config.isProduction ? 'production' : config.devRoutes ? 'development routes on' : 'plain',
      database: config.database.driver,
      dataDir: config.database.driver === 'pglite' ? config.database.dataDir : null,
      email: config.emailDelivery === 'log' ? 'log-only' : config.emailDelivery,
      sms: config.sms.provider === 'log' ? 'log-only' : config.sms.provider,
      payments: app.paymentProvider.name,
      redis: config.redisUrl !== null,
      publicUrl: config.publicUrl,
      version: config.version,
    },
    `Warden is serving ${config.distDir}`,
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

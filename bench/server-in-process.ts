/**
 * The server a benchmark measures, built in the benchmark's own process: on
 * the PostgreSQL server of DATABASE_URL when it is set, else on PGlite in
 * memory, so that a run never writes into the data `npm start` keeps.
 */
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/server/app.ts';
import { loadConfig } from '../src/server/config.ts';

export async function benchApp(): Promise<{ app: Awaited<ReturnType<typeof buildApp>>; database: string }> {
  const environment = loadConfig(process.env);
  const usesPostgres = environment.database.driver === 'postgres';
  const config = { ...environment, database: usesPostgres ? environment.database : ({ driver: 'pglite', dataDir: null } as const) };
  return { app: await buildApp(config, { logger: false }), database: usesPostgres ? 'PostgreSQL (DATABASE_URL)' : 'PGlite in memory' };
}

/** Listens on a free port of the loopback address and answers the server's address. */
export async function listenOnLoopback(app: FastifyInstance): Promise<string> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address() as AddressInfo;
  return `http://127.0.0.1:${address.port}`;
}

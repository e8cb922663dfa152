import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import type { SQL } from 'drizzle-orm';
import { PgDialect, type PgDatabase, type PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzleNodePostgres } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePostgres } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { ROOT_DIR, type DatabaseConfig } from '../config.ts';
import * as schema from './schema/index.ts';

type Schema = typeof schema;

/** The drizzle database, the same type for PGlite and node-postgres. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;

/**
 * Runs a statement of the hot path as a named prepared statement where the
 * driver has them (PostgreSQL then parses and plans it once per connection,
 * not per event); answers its rows. The name must always go with the same
 * SQL text.
 */
export type NamedQuery = <Row>(name: string, query: SQL) => Promise<Row[]>;

export interface OpenDatabase {
  db: Database;
  queryNamed: NamedQuery;
  close(): Promise<void>;
}

const dialect = new PgDialect();

/** The migrations drizzle-kit generated (`npx drizzle-kit generate`). */
const MIGRATIONS_DIR = `${ROOT_DIR}src/server/db/migrations`;

/**
 * Opens the database and brings its schema up to date: PGlite in its data
 * directory (in memory when it has none), or a PostgreSQL server by URL.
 */
export async function openDatabase(config: DatabaseConfig): Promise<OpenDatabase> {
  if (config.driver === 'postgres') {
    const pool = new pg.Pool({ connectionString: config.url, max: 10 });
    // An idle connection that the server ends (a restart, an administrator's termination) is dropped by the pool
    // and the next query opens another; without a listener its 'error' would end the whole process.
    pool.on('error', () => {});
    const db = drizzleNodePostgres({ client: pool, schema });
    try {
      await migrateNodePostgres(db, { migrationsFolder: MIGRATIONS_DIR });
    } catch (error) {
      await pool.end();
      throw error;
    }
    const queryNamed: NamedQuery = async <Row>(name: string, query: SQL) => {
      const { sql: text, params } = dialect.sqlToQuery(query);
      return (await pool.query({ name, text, values: params })).rows as Row[];
    };
    return { db, queryNamed, close: () => pool.end() };
  }
  if (config.dataDir !== null) await mkdir(config.dataDir, { recursive: true });
  const client = await PGlite.create(config.dataDir ?? 'memory://');
  const db = drizzlePglite({ client, schema });
  try {
    await migratePglite(db, { migrationsFolder: MIGRATIONS_DIR });
  } catch (error) {
    await client.close();
    throw error;
  }
  // PGlite runs in this process: there is no round trip or plan cache to save.
  const queryNamed: NamedQuery = async <Row>(_name: string, query: SQL) => {
    const { sql: text, params } = dialect.sqlToQuery(query);
    return (await client.query<Row>(text, params)).rows;
  };
  return { db, queryNamed, close: () => client.close() };
}

import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { fillPlaceholders, type SQL } from 'drizzle-orm';
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

/** A prepared statement run with the values of its placeholders (`sql.placeholder(key)`); answers its rows. */
export type NamedStatement<Row> = (values: Record<string, unknown>) => Promise<Row[]>;

/**
 * Prepares a statement of the hot path: its SQL text is built once, and it
 * runs as a named prepared statement where the driver has them (PostgreSQL
 * then parses and plans it once per connection, not per event). The name
 * must always go with the same SQL text.
 */
export type PrepareNamed = <Row>(name: string, query: SQL) => NamedStatement<Row>;

/** Runs a statement built with its values as a named prepared statement (`PrepareNamed`); answers its rows. */
export type NamedQuery = <Row>(name: string, query: SQL) => Promise<Row[]>;

export interface OpenDatabase {
  db: Database;
  prepareNamed: PrepareNamed;
  queryNamed: NamedQuery;
  close(): Promise<void>;
}

/** `queryNamed` by way of `prepareNamed`: the statement's own values fill no placeholder. */
function queryingBy(prepareNamed: PrepareNamed): NamedQuery {
  return <Row>(name: string, query: SQL) => prepareNamed<Row>(name, query)({});
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
    const prepareNamed: PrepareNamed = <Row>(name: string, query: SQL) => {
      const { sql: text, params } = dialect.sqlToQuery(query);
      return async (values) => (await pool.query({ name, text, values: fillPlaceholders(params, values) })).rows as Row[];
    };
    return { db, prepareNamed, queryNamed: queryingBy(prepareNamed), close: () => pool.end() };
  }
  if (config.dataDir !== null) await mkdir(config.dataDir, { recursive: true });
  const client = await PGlite.create(config.dataDir ?? 'memory://', config.startFrom === undefined ? {} : { loadDataDir: config.startFrom });
  const db = drizzlePglite({ client, schema });
  try {
    await migratePglite(db, { migrationsFolder: MIGRATIONS_DIR });
  } catch (error) {
    await client.close();
    throw error;
  }
  // PGlite runs in this process: there is no round trip or plan cache to save.
  const prepareNamed: PrepareNamed = <Row>(_name: string, query: SQL) => {
    const { sql: text, params } = dialect.sqlToQuery(query);
    return async (values) => (await client.query<Row>(text, fillPlaceholders(params, values))).rows;
  };
  return { db, prepareNamed, queryNamed: queryingBy(prepareNamed), close: () => client.close() };
}

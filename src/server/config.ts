import { readFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { iceServersSchema, type IceServer } from '../shared/api/warden.ts';

/** The repository root (this file is src/server/config.ts). */
export const ROOT_DIR = fileURLToPath(new URL('../../', import.meta.url));

export interface Config {
  /** TCP port (`PORT`, default 8080). */
  port: number;
  /** Interface to listen on (`HOST`, default 0.0.0.0). */
  host: string;
  /** Where the server keeps its data (`DATA_DIR`, default `.data/`), absolute. */
  dataDir: string;
  /** The public origin the app is reached at (`PUBLIC_URL`), when known. */
  publicUrl: string | null;
  /** The built client (`vite build` output), absolute. */
  distDir: string;
  /** The release version, from package.json. */
  version: string;
  /** `NODE_ENV=production`: no `/dev/` routes, no development outbox. */
  isProduction: boolean;
  /** Where the data lives: PGlite under `dataDir`, or PostgreSQL at `DATABASE_URL`. */
  database: DatabaseConfig;
  /** SMTP server for e-mail (`SMTP_URL`, e.g. `smtps://user:pass@mail.example:465`), when set. */
  smtpUrl: string | null;
  /** The sender of e-mail (`SMTP_FROM`). */
  smtpFrom: string;
  /** Trust `X-Forwarded-For` from a reverse proxy for the client address (`TRUST_PROXY=1`). */
  trustProxy: boolean;
  /** The STUN/TURN servers the console's live video uses (`ICE_SERVERS`, a JSON array of RTCIceServer); none by default. */
  iceServers: IceServer[];
  /** Redis for the relay across several servers (`REDIS_URL`, `redis://host:6379`), when set. */
  redisUrl: string | null;
  /** How long a guest's session lasts (`SESSION_IDLE_DAYS`, `SESSION_MAX_DAYS`; docs/sessions.md). */
  guestSessions: SessionLifetimes;
}

/** A session ends after `idleMs` without use, or `maxMs` after it began, whichever comes first. */
export interface SessionLifetimes {
  idleMs: number;
  maxMs: number;
}

/**
 * The database: embedded PGlite in a directory (or in memory when `dataDir`
 * is null, for tests), or a PostgreSQL server.
 */
export type DatabaseConfig = { driver: 'pglite'; dataDir: string | null } | { driver: 'postgres'; url: string };

function readVersion(): string {
  const manifest: unknown = JSON.parse(readFileSync(resolve(ROOT_DIR, 'package.json'), 'utf8'));
  if (typeof manifest === 'object' && manifest !== null && 'version' in manifest && typeof manifest.version === 'string') {
    return manifest.version;
  }
  return '0.0.0';
}

function parsePort(value: string | undefined): number {
  if (value === undefined || value === '') return 8080;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`PORT must be an integer from 0 to 65535, not ${JSON.stringify(value)}`);
  }
  return port;
}

function parsePublicUrl(value: string | undefined): string | null {
  if (value === undefined || value === '') return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`PUBLIC_URL must be an absolute URL, not ${JSON.stringify(value)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`PUBLIC_URL must be http or https, not ${JSON.stringify(value)}`);
  }
  return url.origin;
}

function parseDatabaseUrl(value: string | undefined, dataDir: string): DatabaseConfig {
  if (value === undefined || value === '') return { driver: 'pglite', dataDir: join(dataDir, 'pglite') };
  if (!/^postgres(ql)?:\/\//.test(value)) {
    throw new Error('DATABASE_URL must be a postgres:// or postgresql:// URL');
  }
  return { driver: 'postgres', url: value };
}

function parseSmtpUrl(value: string | undefined): string | null {
  if (value === undefined || value === '') return null;
  if (!/^smtps?:\/\//.test(value)) throw new Error('SMTP_URL must be an smtp:// or smtps:// URL');
  return value;
}

function parseIceServers(value: string | undefined): IceServer[] {
  if (value === undefined || value.trim() === '') return [];
  let json: unknown;
  try {
    json = JSON.parse(value);
  } catch {
    throw new Error('ICE_SERVERS must be JSON: an array of {urls, username?, credential?}');
  }
  const parsed = iceServersSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue === undefined || issue.path.length === 0 ? '' : ` at ${issue.path.join('.')}`;
    throw new Error(`ICE_SERVERS must be an array of {urls, username?, credential?}${where}: ${issue?.message ?? 'invalid'}`);
  }
  return parsed.data;
}

function parseRedisUrl(value: string | undefined): string | null {
  if (value === undefined || value === '') return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`REDIS_URL must be a redis:// or rediss:// URL, not ${JSON.stringify(value)}`);
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') {
    throw new Error(`REDIS_URL must be a redis:// or rediss:// URL, not ${JSON.stringify(value)}`);
  }
  return value;
}

const DAY_MS = 86_400_000;

function parseDays(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback * DAY_MS;
  const days = Number(value);
  if (!Number.isFinite(days) || days <= 0) throw new Error(`${name} must be a positive number of days, not ${JSON.stringify(value)}`);
  return days * DAY_MS;
}

function parseSessionLifetimes(env: NodeJS.ProcessEnv): SessionLifetimes {
  const idleMs = parseDays('SESSION_IDLE_DAYS', env.SESSION_IDLE_DAYS, 30);
  const maxMs = parseDays('SESSION_MAX_DAYS', env.SESSION_MAX_DAYS, 90);
  if (idleMs > maxMs) throw new Error('SESSION_IDLE_DAYS must not be more than SESSION_MAX_DAYS');
  return { idleMs, maxMs };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

/** Reads the configuration from the environment; throws a readable error on a bad value. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const dataDirSetting = nonEmpty(env.DATA_DIR) ?? '.data/';
  const dataDir = isAbsolute(dataDirSetting) ? dataDirSetting : resolve(ROOT_DIR, dataDirSetting);
  return {
    port: parsePort(env.PORT),
    host: nonEmpty(env.HOST) ?? '0.0.0.0',
    dataDir,
    publicUrl: parsePublicUrl(env.PUBLIC_URL),
    distDir: resolve(ROOT_DIR, nonEmpty(env.DIST_DIR) ?? 'dist'),
    version: readVersion(),
    isProduction: env.NODE_ENV === 'production',
    database: parseDatabaseUrl(env.DATABASE_URL, dataDir),
    smtpUrl: parseSmtpUrl(env.SMTP_URL),
    smtpFrom: nonEmpty(env.SMTP_FROM) ?? 'Warden <no-reply@localhost>',
    trustProxy: env.TRUST_PROXY === '1' || env.TRUST_PROXY === 'true',
    iceServers: parseIceServers(env.ICE_SERVERS),
    redisUrl: parseRedisUrl(env.REDIS_URL),
    guestSessions: parseSessionLifetimes(env),
  };
}

/** The absolute address of the app, for links in messages: `PUBLIC_URL`, else the local address. */
export function appUrl(config: Config): string {
  return config.publicUrl ?? `http://localhost:${config.port}`;
}

import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
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
  /** `NODE_ENV=production`: every message needs a transport or a named log-only choice, payments need Stripe or a named choice (docs/operations.md). */
  isProduction: boolean;
  /** `WARDEN_DEV=1`: the `/dev/` routes and the development outbox; refused in production. */
  devRoutes: boolean;
  /** Where the data lives: PGlite under `dataDir`, or PostgreSQL at `DATABASE_URL`. */
  database: DatabaseConfig;
  /** SMTP server for e-mail (`SMTP_URL`, e.g. `smtps://user:pass@mail.example:465`), when set. */
  smtpUrl: string | null;
  /** The sender of e-mail (`SMTP_FROM`). */
  smtpFrom: string;
  /** How e-mail leaves: SMTP (`SMTP_URL`), printed on the console (outside production without SMTP), or only logged as not sent (`EMAIL_DELIVERY=log`). */
  emailDelivery: 'smtp' | 'console' | 'log';
  /** How SMS leave (`SMS_PROVIDER`): Twilio, printed on the console (outside production without a provider), or only logged as not sent. */
  sms: SmsConfig;
  /** The card provider named by `PAYMENT_PROVIDER`; null: Stripe when its keys are set, else the local one (refused in production). */
  paymentProvider: 'stripe' | 'local' | null;
  /**
   * Which reverse proxies may tell the client address in `X-Forwarded-For` (`TRUST_PROXY`): how many hops
   * (a count), or which addresses and CIDR ranges; none by default.
   */
  trustProxy: TrustedProxies;
  /** The STUN servers of the live video (`ICE_SERVERS`, a JSON array of RTCIceServer with stun: URLs); none by default. */
  iceServers: IceServer[];
  /** The TURN servers of the live video (`TURN_URLS`) and the secret they share with Warden (`TURN_SECRET`); null: none (docs/operations.md, Live video). */
  turn: TurnConfig | null;
  /** Redis for the relay across several servers (`REDIS_URL`, `redis://host:6379`), when set. */
  redisUrl: string | null;
  /** How long a guest's session lasts (`SESSION_IDLE_DAYS`, `SESSION_MAX_DAYS`; docs/sessions.md). */
  guestSessions: SessionLifetimes;
  /** The Web Push key pair (`VAPID_PUBLIC_KEY`, `VAPID_PRIVATE_KEY`); null: made on the first start and kept in the database (docs/reminders.md). */
  vapidKeys: { publicKey: string; privateKey: string } | null;
  /** Who runs this server, for push services (`VAPID_SUBJECT`, a `mailto:` or `https:` address). */
  vapidSubject: string;
}

/** A session ends after `idleMs` without use, or `maxMs` after it began, whichever comes first. */
export interface SessionLifetimes {
  idleMs: number;
  maxMs: number;
}

/** TURN servers that take coturn's shared-secret credentials (`use-auth-secret`, `static-auth-secret`). */
export interface TurnConfig {
  urls: string[];
  secret: string;
}

/** Fastify's `trustProxy`: off, a hop count, or the proxies' addresses and ranges. */
export type TrustedProxies = false | number | string[];

/**
 * The database: embedded PGlite in a directory (or in memory when `dataDir`
 * is null, for tests), or a PostgreSQL server.
 */
export type DatabaseConfig =
  | {
      driver: 'pglite';
      /** The data directory; null keeps the database in memory. */
      dataDir: string | null;
      /** A database to start from (a PGlite `dumpDataDir` tarball): the test suites' migrated template (src/server/test/pglite-template.ts). */
      startFrom?: Blob;
    }
  | { driver: 'postgres'; url: string };

/** SMS through Twilio's Messages API (`apiBase` only for tests' stand-in), on the console, or not sent and only logged. */
export type SmsConfig =
  | { provider: 'twilio'; accountSid: string; authToken: string; from: string; countryCode: string; apiBase: string | null }
  | { provider: 'console' }
  | { provider: 'log' };

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

/**
 * `ICE_SERVERS`: STUN servers only. A TURN server with a fixed username and
 * password here would hand that pair to every caller for good; TURN goes in
 * `TURN_URLS` and `TURN_SECRET`, which give each call credentials of its own.
 */
function parseIceServers(value: string | undefined): IceServer[] {
  if (value === undefined || value.trim() === '') return [];
  let json: unknown;
  try {
    json = JSON.parse(value);
  } catch {
    throw new Error('ICE_SERVERS must be JSON: an array of {urls}');
  }
  const parsed = iceServersSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue === undefined || issue.path.length === 0 ? '' : ` at ${issue.path.join('.')}`;
    throw new Error(`ICE_SERVERS must be an array of {urls}${where}: ${issue?.message ?? 'invalid'}`);
  }
  const turn = parsed.data.some(
    (server) => server.username !== undefined || server.credential !== undefined || [server.urls].flat().some((url) => /^turns?:/.test(url)),
  );
  if (turn) {
    throw new Error(
      'ICE_SERVERS takes STUN servers only: name a TURN server in TURN_URLS, with TURN_SECRET shared with it, so that each call gets credentials of its own (docs/operations.md, Live video)',
    );
  }
  return parsed.data;
}

/** The shortest `TURN_SECRET`: 128 bits as hex (`openssl rand -hex 32` gives 64 characters). */
const TURN_SECRET_MIN_LENGTH = 32;

/** `TURN_URLS` (comma-separated turn: and turns: URLs) and `TURN_SECRET`, both or neither. */
function parseTurn(urlsSetting: string | undefined, secret: string | undefined): TurnConfig | null {
  if (urlsSetting === undefined && secret === undefined) return null;
  if (urlsSetting === undefined || secret === undefined) throw new Error('Set both TURN_URLS and TURN_SECRET, or neither.');
  const urls = urlsSetting.split(',').map((url) => url.trim());
  const wrong = urls.find((url) => !/^turns?:[^\s,]+$/.test(url));
  if (wrong !== undefined) throw new Error(`TURN_URLS must be turn: or turns: URLs separated by commas, not ${JSON.stringify(wrong)}`);
  if (secret.length < TURN_SECRET_MIN_LENGTH) {
    throw new Error(`TURN_SECRET must be at least ${TURN_SECRET_MIN_LENGTH} characters (openssl rand -hex 32), the same as coturn's static-auth-secret`);
  }
  return { urls, secret };
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

/** proxy-addr's names for reserved ranges, which Fastify accepts in the list. */
const NAMED_RANGES = ['loopback', 'linklocal', 'uniquelocal'];

function isAddressOrRange(item: string): boolean {
  if (NAMED_RANGES.includes(item)) return true;
  const [address = '', prefix, ...rest] = item.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * `TRUST_PROXY`: the number of proxies in front of the server (the client
 * address is the one the outermost of them added to `X-Forwarded-For`), or
 * a comma list of the proxies' addresses and ranges. Trusting every address would let a client
 * choose its own for the rate limits, so `true` is refused.
 */
function parseTrustProxy(value: string | undefined): TrustedProxies {
  if (value === undefined || value.trim() === '' || value.trim() === '0') return false;
  const setting = value.trim();
  if (/^\d+$/.test(setting)) return Number(setting);
  const items = setting.split(',').map((item) => item.trim());
  const wrong = items.find((item) => !isAddressOrRange(item));
  if (wrong === undefined) return items;
  const why = setting.toLowerCase() === 'true' ? ' (trusting every address would let a client choose its own)' : '';
  throw new Error(
    `TRUST_PROXY must be the number of reverse proxies in front of Warden (e.g. 1) or their addresses and ranges ` +
      `(e.g. 10.0.0.2,10.1.0.0/16), not ${JSON.stringify(value)}${why}`,
  );
}

/**
 * The setting as Fastify takes it. Fastify ignores a bare hop count (it cannot
 * tell a proxy from a client that reached the server directly), so a count
 * becomes a function that trusts that many hops: right when the proxies are
 * the only way in, as the docs say.
 */
export function fastifyTrustProxy(trusted: TrustedProxies): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trusted !== 'number') return trusted;
  return (_address, hop) => hop < trusted;
}

function parseDevRoutes(value: string | undefined, isProduction: boolean): boolean {
  if (value === undefined || value === '' || value === '0') return false;
  if (value !== '1') throw new Error(`WARDEN_DEV must be 1 (or unset), not ${JSON.stringify(value)}`);
  if (isProduction) {
    throw new Error('WARDEN_DEV=1 turns on the development routes (accounts, outbox, clock) and is refused with NODE_ENV=production: unset one of them');
  }
  return true;
}

function parseEmailDelivery(value: string | undefined, smtpUrl: string | null, isProduction: boolean): Config['emailDelivery'] {
  if (value !== undefined && value !== 'log') throw new Error(`EMAIL_DELIVERY must be log (or unset), not ${JSON.stringify(value)}`);
  if (value === 'log') {
    if (smtpUrl !== null) throw new Error('EMAIL_DELIVERY=log and SMTP_URL are both set: unset one of them');
    return 'log';
  }
  if (smtpUrl !== null) return 'smtp';
  if (isProduction) {
    throw new Error(
      'In production e-mail needs SMTP_URL (sign-up and password reset mail links), or EMAIL_DELIVERY=log to send none and only log that it was not sent',
    );
  }
  return 'console';
}

/** The country a national number (leading 0) is in, unless `SMS_COUNTRY_CODE` says otherwise: Japan. */
export const DEFAULT_SMS_COUNTRY_CODE = '81';

function parseSms(env: NodeJS.ProcessEnv, isProduction: boolean): SmsConfig {
  const provider = nonEmpty(env.SMS_PROVIDER);
  if (provider === 'log') return { provider: 'log' };
  if (provider === 'twilio') {
    const names = ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN', 'TWILIO_FROM'] as const;
    const missing = names.filter((name) => nonEmpty(env[name]) === undefined);
    if (missing.length > 0) throw new Error(`SMS_PROVIDER=twilio needs ${missing.join(', ')}`);
    const countryCode = nonEmpty(env.SMS_COUNTRY_CODE) ?? DEFAULT_SMS_COUNTRY_CODE;
    if (!/^[1-9][0-9]{0,2}$/.test(countryCode)) throw new Error(`SMS_COUNTRY_CODE must be 1 to 3 digits, not ${JSON.stringify(countryCode)}`);
    return {
      provider: 'twilio',
      accountSid: env.TWILIO_ACCOUNT_SID ?? '',
      authToken: env.TWILIO_AUTH_TOKEN ?? '',
      from: env.TWILIO_FROM ?? '',
      countryCode,
      apiBase: nonEmpty(env.TWILIO_API_BASE) ?? null,
    };
  }
  if (provider !== undefined) throw new Error(`SMS_PROVIDER must be twilio or log, not ${JSON.stringify(provider)}`);
  if (isProduction) {
    throw new Error(
      'In production SMS (phone verification codes) need SMS_PROVIDER=twilio with TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM, or SMS_PROVIDER=log to send none and only log that they were not sent',
    );
  }
  return { provider: 'console' };
}

function parsePaymentProvider(env: NodeJS.ProcessEnv, isProduction: boolean): Config['paymentProvider'] {
  const provider = nonEmpty(env.PAYMENT_PROVIDER);
  if (provider !== undefined && provider !== 'stripe' && provider !== 'local') {
    throw new Error(`PAYMENT_PROVIDER must be stripe or local, not ${JSON.stringify(provider)}`);
  }
  if (provider === 'local') return 'local';
  const missing = ['STRIPE_SECRET_KEY', 'STRIPE_PUBLISHABLE_KEY'].filter((name) => nonEmpty(env[name]) === undefined);
  if (missing.length > 0 && (provider === 'stripe' || isProduction)) {
    const who = provider === 'stripe' ? 'PAYMENT_PROVIDER=stripe needs' : 'In production card payments need';
    throw new Error(
      `${who} ${missing.join(' and ')} (Stripe), or PAYMENT_PROVIDER=local for the local provider, which accepts the public test cards and lets guests approve their own payments`,
    );
  }
  return provider ?? null;
}

const DAY_MS = 86_400_000;

function parseDays(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback * DAY_MS;
  const days = Number(value);
  if (!Number.isFinite(days) || days <= 0) throw new Error(`${name} must be a positive number of days, not ${JSON.stringify(value)}`);
  return days * DAY_MS;
}

/** A guest's session ends after this many days unused, unless `SESSION_IDLE_DAYS` says otherwise (docs/sessions.md says why). */
export const DEFAULT_SESSION_IDLE_DAYS = 30;
/** ... and this many days after sign-in, unless `SESSION_MAX_DAYS` says otherwise. */
export const DEFAULT_SESSION_MAX_DAYS = 90;

function parseSessionLifetimes(env: NodeJS.ProcessEnv): SessionLifetimes {
  const idleMs = parseDays('SESSION_IDLE_DAYS', env.SESSION_IDLE_DAYS, DEFAULT_SESSION_IDLE_DAYS);
  const maxMs = parseDays('SESSION_MAX_DAYS', env.SESSION_MAX_DAYS, DEFAULT_SESSION_MAX_DAYS);
  if (idleMs > maxMs) throw new Error('SESSION_IDLE_DAYS must not be more than SESSION_MAX_DAYS');
  return { idleMs, maxMs };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

/** `DATA_DIR` (default `.data/`, relative to the repository root), absolute. */
export function dataDirFrom(env: NodeJS.ProcessEnv): string {
  const dataDirSetting = nonEmpty(env.DATA_DIR) ?? '.data/';
  return isAbsolute(dataDirSetting) ? dataDirSetting : resolve(ROOT_DIR, dataDirSetting);
}

/** Reads the configuration from the environment; throws a readable error on a bad value. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const dataDir = dataDirFrom(env);
  const isProduction = env.NODE_ENV === 'production';
  const smtpUrl = parseSmtpUrl(env.SMTP_URL);
  return {
    port: parsePort(env.PORT),
    host: nonEmpty(env.HOST) ?? '0.0.0.0',
    dataDir,
    publicUrl: parsePublicUrl(env.PUBLIC_URL),
    distDir: resolve(ROOT_DIR, nonEmpty(env.DIST_DIR) ?? 'dist'),
    version: readVersion(),
    isProduction,
    devRoutes: parseDevRoutes(env.WARDEN_DEV, isProduction),
    database: parseDatabaseUrl(env.DATABASE_URL, dataDir),
    smtpUrl,
    smtpFrom: nonEmpty(env.SMTP_FROM) ?? 'Warden <no-reply@localhost>',
    emailDelivery: parseEmailDelivery(nonEmpty(env.EMAIL_DELIVERY), smtpUrl, isProduction),
    sms: parseSms(env, isProduction),
    paymentProvider: parsePaymentProvider(env, isProduction),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    iceServers: parseIceServers(env.ICE_SERVERS),
    turn: parseTurn(nonEmpty(env.TURN_URLS), nonEmpty(env.TURN_SECRET)),
    redisUrl: parseRedisUrl(env.REDIS_URL),
    guestSessions: parseSessionLifetimes(env),
    vapidKeys: parseVapidKeys(env),
    vapidSubject: parseVapidSubject(env.VAPID_SUBJECT, env.CONTACT_EMAIL),
  };
}

/** Both VAPID keys or neither: one alone is a mistake worth stopping for. */
function parseVapidKeys(env: NodeJS.ProcessEnv): Config['vapidKeys'] {
  const publicKey = nonEmpty(env.VAPID_PUBLIC_KEY);
  const privateKey = nonEmpty(env.VAPID_PRIVATE_KEY);
  if (publicKey === undefined && privateKey === undefined) return null;
  if (publicKey === undefined || privateKey === undefined) throw new Error('Set both VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY, or neither.');
  if (!/^[A-Za-z0-9_-]{87}$/.test(publicKey) || !/^[A-Za-z0-9_-]{43}$/.test(privateKey)) {
    throw new Error('VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must be the base64url keys `npx web-push generate-vapid-keys` prints.');
  }
  return { publicKey, privateKey };
}

/** `VAPID_SUBJECT`, else the contact address the client shows (`CONTACT_EMAIL`). */
function parseVapidSubject(value: string | undefined, contactEmail: string | undefined): string {
  const subject = nonEmpty(value) ?? `mailto:${nonEmpty(contactEmail) ?? 'support@localhost'}`;
  if (!/^(mailto:|https:\/\/)/.test(subject)) throw new Error('VAPID_SUBJECT must start with mailto: or https://.');
  return subject;
}

/** The absolute address of the app, for links in messages: `PUBLIC_URL`, else the local address. */
export function appUrl(config: Config): string {
  return config.publicUrl ?? `http://localhost:${config.port}`;
}

import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyPluginAsync } from 'fastify';
import type { Database } from '../db/database.ts';

export interface HealthOptions extends Record<string, unknown> {
  version: string;
}

export interface HealthResponse {
  status: 'ok';
  version: string;
}

const healthSchema = {
  response: {
    200: {
      type: 'object',
      properties: {
        status: { type: 'string', enum: ['ok'] },
        version: { type: 'string' },
      },
      required: ['status', 'version'],
      additionalProperties: false,
    },
  },
} as const;

/** What the server needs to serve: each check resolves when its service answers. */
export type ReadinessChecks = Readonly<Record<string, () => Promise<unknown>>>;

export type CheckState = 'ok' | 'failed';

export interface Readiness {
  status: 'ready' | 'unavailable';
  checks: Record<string, CheckState>;
}

/** How long a check may take before it counts as failed: a probe must answer even when a service hangs. */
export const READINESS_CHECK_TIMEOUT_MS = 2_000;

/** A real query, through the pool or PGlite the routes use. */
export function databaseCheck(db: Database): () => Promise<unknown> {
  return () => db.execute(sql`select 1`);
}

function withinTimeout(check: () => Promise<unknown>, timeoutMs: number): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  return Promise.race([Promise.resolve().then(check), timeout]).finally(() => clearTimeout(timer));
}

/**
 * Runs the checks side by side: ready when every one answered in time. A
 * failure is logged with its error and named in the answer, never described.
 */
export async function readiness(checks: ReadinessChecks, log: FastifyBaseLogger, timeoutMs = READINESS_CHECK_TIMEOUT_MS): Promise<Readiness> {
  const entries = await Promise.all(
    Object.entries(checks).map(async ([name, check]): Promise<[string, CheckState]> => {
      try {
        await withinTimeout(check, timeoutMs);
        return [name, 'ok'];
      } catch (error) {
        log.warn({ err: error, check: name }, 'readiness check failed');
        return [name, 'failed'];
      }
    }),
  );
  return { status: entries.every(([, state]) => state === 'ok') ? 'ready' : 'unavailable', checks: Object.fromEntries(entries) };
}

const readinessBody = {
  type: 'object',
  properties: {
    status: { type: 'string', enum: ['ready', 'unavailable'] },
    checks: { type: 'object', additionalProperties: { type: 'string', enum: ['ok', 'failed'] } },
  },
  required: ['status', 'checks'],
  additionalProperties: false,
} as const;

/**
 * `GET /api/health`: the server is up, and which release it runs.
 * `GET /api/ready`: whether it can serve, for a load balancer or an
 * orchestrator: the database answers a query and, with `REDIS_URL`, the
 * relay's Redis answers PING (200), or which of them did not (503).
 */
const health: FastifyPluginAsync<HealthOptions> = async (app, options) => {
  app.get(
    '/health',
    { schema: healthSchema },
    async (): Promise<HealthResponse> => ({
      status: 'ok',
      version: options.version,
    }),
  );

  app.get('/ready', { schema: { response: { 200: readinessBody, 503: readinessBody } } }, async (request, reply): Promise<Readiness> => {
    // The relay is registered after this plugin: its Redis is looked up per request.
    const redisPing = app.relayRedisPing;
    const result = await readiness({ database: databaseCheck(app.db), ...(redisPing === null ? {} : { redis: redisPing }) }, request.log);
    reply.code(result.status === 'ready' ? 200 : 503);
    return result;
  });
};

export default health;

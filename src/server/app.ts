import { access } from 'node:fs/promises';
import { STATUS_CODES } from 'node:http';
import { join } from 'node:path';
import fastifyCompress from '@fastify/compress';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { COMPRESSION_THRESHOLD_BYTES } from '../shared/compression.ts';
import { fastifyTrustProxy, type Config } from './config.ts';
import { AdjustableClock } from './lib/clock.ts';
import { withTokenMasking } from './lib/log-privacy.ts';
import type { MessageTransport } from './lib/outbox.ts';
import { forumMirrorSettings, type ForumMirrorSettings } from './services/forum-mirror.ts';
import routeAccess from './plugins/access.ts';
import apiEnvelope from './plugins/api-envelope.ts';
import readCacheHooks from './plugins/read-cache-hooks.ts';
import securityHeaders from './plugins/security-headers.ts';
import { triggerDelivery } from './services/triggers/plugin.ts';
import { reminders } from './services/reminders/plugin.ts';
import services from './plugins/services.ts';
import staticFiles from './plugins/static-files.ts';
import dev from './routes/dev.ts';
import errorLog from './routes/error-log.ts';
import featureImage from './routes/feature-image/index.ts';
import forum from './routes/forum/index.ts';
import collaboration from './routes/guest/collaboration.ts';
import reminderRoutes from './routes/guest/reminders.ts';
import guest from './routes/guest/index.ts';
import health from './routes/health.ts';
import calendar from './routes/calendar/index.ts';
import progress from './routes/progress/index.ts';
import hooks from './routes/hooks/index.ts';
import relay from './jail/relay.ts';
import reservation from './routes/reservation/index.ts';
import pause from './routes/pause/index.ts';
import paymentRoutes from './routes/payments/index.ts';
import stripeWebhook from './routes/payments/stripe-webhook.ts';
import payments from './services/payments/plugin.ts';
import { stripeSettingsFrom } from './services/payments/stripe.ts';
import warden from './routes/warden/index.ts';
import { HOME_PATH } from '../shared/pages.ts';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
  }
}

/** The JSON body of every error response. Never a stack trace. */
export interface ErrorBody {
  statusCode: number;
  error: string;
  message: string;
}

function errorBody(statusCode: number, message: string): ErrorBody {
  return { statusCode, error: STATUS_CODES[statusCode] ?? 'Error', message };
}

/** Paths the server answers itself, never with the client app. */
function isServerPath(path: string): boolean {
  return ['/api', '/dev', '/assets', '/hooks', '/calendar'].some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}

function statusOf(error: unknown): number {
  if (typeof error === 'object' && error !== null && 'statusCode' in error) {
    const code = error.statusCode;
    if (typeof code === 'number' && Number.isInteger(code) && code >= 400 && code <= 599) return code;
  }
  return 500;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Log fields that could hold a secret. Fastify logs no request bodies, and
 * the handlers log none; this is the second line of defence.
 */
export const LOG_REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'body.guest.token',
  'body.guest.password',
  'body.guest.phoneCode',
  'body.facilitator.token',
  'body.warden.token',
  'body.warden.password',
  '*.token',
  '*.password',
];

export interface BuildOptions extends FastifyServerOptions {
  /** The server's clock (tests hold on to it to move time). */
  clock?: AdjustableClock;
  /** The SMS gateway, in place of the one the configuration names (tests). */
  smsTransport?: MessageTransport;
  /** The forum's chat-workspace mirror; read from `FORUM_*` in the environment when not given (docs/forum.md). */
  forumMirror?: ForumMirrorSettings | null;
}

/** How long a plugin may take to start (the database's migrations among them) before the start fails. */
const PLUGIN_START_TIMEOUT_MS = 120_000;

/**
 * Builds the Warden server: security headers, the database, the API under
 * /api (see docs/api.md), development routes under /dev with `WARDEN_DEV=1`,
 * the built client from `config.distDir` with a single-page-app fallback,
 * and error and not-found handlers that answer JSON without internals.
 */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const { clock = new AdjustableClock(), smsTransport, forumMirror = forumMirrorSettings(process.env), ...fastifyOptions } = options;
  const app = Fastify({
    trustProxy: fastifyTrustProxy(config.trustProxy),
    // Opening the database and migrating a new one took past Fastify's 10 s on a busy 2-core machine, and the start failed.
    pluginTimeout: PLUGIN_START_TIMEOUT_MS,
    ...fastifyOptions,
    logger: withTokenMasking(fastifyOptions.logger),
  });
  app.decorate('config', config);

  const stripe = stripeSettingsFrom(process.env);
  await app.register(securityHeaders, { stripe: stripe !== null, publicUrl: config.publicUrl });
  // Before every route: answers above the threshold go out in Brotli or gzip, as the client accepts (docs/server.md).
  await app.register(fastifyCompress, { threshold: COMPRESSION_THRESHOLD_BYTES, encodings: ['br', 'gzip'], globalDecompression: false });
  await app.register(services, { config, clock, smsTransport });
  await app.register(triggerDelivery);
  await app.register(reminders);
  await app.register(health, { prefix: '/api', version: config.version });
  await app.register(
    async (api) => {
      await api.register(apiEnvelope);
      // Before the routes: every call but a pure read invalidates the read cache.
      await api.register(readCacheHooks);
      // Before the routes: each names who may call it, and this hook authenticates them.
      await api.register(routeAccess);
      await api.register(guest, { prefix: '/guest' });
      await api.register(collaboration, { prefix: '/guest' });
      await api.register(reminderRoutes, { prefix: '/guest' });
      await api.register(errorLog, { prefix: '/errorLog' });
      await api.register(reservation, { prefix: '/reservation' });
      await api.register(pause, { prefix: '/pause' });
      await api.register(progress, { prefix: '/progress' });
      await api.register(warden, { prefix: '/warden' });
      await api.register(paymentRoutes, { prefix: '/payments' });
      await api.register(featureImage, { prefix: '/featureImage' });
      await api.register(forum, { prefix: '/forum', mirror: forumMirror });
    },
    { prefix: '/api' },
  );
  await app.register(hooks, { prefix: '/hooks' });
  await app.register(calendar, { prefix: '/calendar' });
  await app.register(relay);
  await app.register(payments, { stripe });
  // Outside the envelope: Stripe signs the raw body.
  await app.register(stripeWebhook, { prefix: '/api/payments/stripe' });
  if (config.devRoutes) await app.register(dev, { prefix: '/dev' });
  await app.register(staticFiles, { root: config.distDir });

  app.setErrorHandler((error: unknown, request, reply) => {
    const statusCode = statusOf(error);
    if (statusCode >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.code(statusCode).send(errorBody(statusCode, 'Something went wrong on our side.'));
    }
    request.log.info({ err: error }, 'request rejected');
    return reply.code(statusCode).send(errorBody(statusCode, messageOf(error)));
  });

  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?', 1)[0] ?? '/';
    const isRead = request.method === 'GET' || request.method === 'HEAD';
    // Client routes get the app (the wardens' console under /warden its own
    // page); missing build assets, API and development routes get a real 404,
    // so that a stale chunk never arrives as HTML.
    if (isRead && !isServerPath(path)) {
      const page = await clientPage(config.distDir, path);
      if (page === null) return reply.code(503).send(errorBody(503, 'The client is not built yet (npm start builds it).'));
      return reply.header('cache-control', 'no-cache').sendFile(page);
    }
    return reply.code(404).send(errorBody(404, `Route ${request.method} ${path} not found`));
  });

  return app;
}

/**
 * The page of a client route: the wardens' console under /warden; for the
 * app's other addresses `app.html`, index.html with the app's chunks preloaded
 * (vite.config.ts, `appPages`), which / (index.html, the visitor's first
 * screen) does without; for the guest's home `home.html`, which also preloads
 * the list. Null when the client is not built.
 */
async function clientPage(distDir: string, path: string): Promise<string | null> {
  // `/` reaches here too when the client accepts a compressed copy (@fastify/static's index does not look for one).
  const candidates = /^\/warden(\/|$)/.test(path)
    ? ['warden.html']
    : path === '/'
      ? ['index.html']
      : path === HOME_PATH
        ? ['home.html', 'app.html', 'index.html']
        : ['app.html', 'index.html'];
  for (const page of candidates) {
    try {
      await access(join(distDir, page));
      return page;
    } catch {
      // Not built: the next candidate.
    }
  }
  return null;
}

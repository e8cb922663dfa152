import { access } from 'node:fs/promises';
import { STATUS_CODES } from 'node:http';
import { join } from 'node:path';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Config } from './config.ts';
import securityHeaders from './plugins/security-headers.ts';
import staticFiles from './plugins/static-files.ts';
import health from './routes/health.ts';

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

function isApiPath(path: string): boolean {
  return path === '/api' || path.startsWith('/api/');
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
 * Builds the Warden server: security headers, the API under /api, the built
 * client from `config.distDir` with a single-page-app fallback, and error
 * and not-found handlers that answer JSON without internals.
 */
export async function buildApp(config: Config, options: FastifyServerOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({ ...options });
  app.decorate('config', config);

  await app.register(securityHeaders);
  await app.register(health, { prefix: '/api', version: config.version });
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

  const indexHtml = join(config.distDir, 'index.html');
  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?', 1)[0] ?? '/';
    const isRead = request.method === 'GET' || request.method === 'HEAD';
    // Client routes get the app; missing build assets and API routes get a
    // real 404, so that a stale chunk never arrives as HTML.
    if (isRead && !isApiPath(path) && !path.startsWith('/assets/')) {
      try {
        await access(indexHtml);
      } catch {
        return reply.code(503).send(errorBody(503, 'The client is not built yet (npm start builds it).'));
      }
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply.code(404).send(errorBody(404, `Route ${request.method} ${path} not found`));
  });

  return app;
}

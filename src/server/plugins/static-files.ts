import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import fastifyPlugin from 'fastify-plugin';

export interface StaticFilesOptions extends Record<string, unknown> {
  /** The built client (`vite build` output). */
  root: string;
}

/**
 * Serves the built client. Files under /assets/ carry a content hash and are
 * cached for a year; everything else (index.html, the service worker, the
 * manifest) is revalidated on every load so that an update is seen at once.
 * A file the build compressed (vite.config.ts writes `.br` and `.gz` beside
 * it) goes out in Brotli or gzip when the client accepts it, with
 * `Vary: Accept-Encoding`; `reply.sendFile` (the single-page-app fallback)
 * does the same. The vision modules are sent as `application/wasm`, which
 * `WebAssembly.instantiateStreaming` insists on.
 */
async function staticFilesPlugin(app: FastifyInstance, options: StaticFilesOptions): Promise<void> {
  const assets = `${options.root.replace(/\/$/, '')}/assets/`;
  await app.register(fastifyStatic, {
    root: options.root,
    prefix: '/',
    index: 'index.html',
    dotfiles: 'ignore',
    cacheControl: false,
    preCompressed: true,
    setHeaders(reply, path) {
      // `path` is the file sent: `app.js.br` for a compressed `app.js`.
      const file = path.replace(/\.(br|gz)$/, '');
      if (file.endsWith('.wasm')) reply.header('content-type', 'application/wasm');
      reply.header('cache-control', file.startsWith(assets) ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
}

export default fastifyPlugin(staticFilesPlugin, { name: 'static-files' });

import fastifyStatic from '@fastify/static';
import { unencapsulated } from './unencapsulated.ts';

export interface StaticFilesOptions extends Record<string, unknown> {
  /** The built client (`vite build` output). */
  root: string;
}

/**
 * Serves the built client. Files under /assets/ carry a content hash and are
 * cached for a year; everything else (index.html, the service worker, the
 * manifest) is revalidated on every load so that an update is seen at once.
 * The vision modules are sent as `application/wasm`, which
 * `WebAssembly.instantiateStreaming` insists on.
 */
export default unencapsulated<StaticFilesOptions>('static-files', async (app, options) => {
  await app.register(fastifyStatic, {
    root: options.root,
    prefix: '/',
    index: 'index.html',
    dotfiles: 'ignore',
    cacheControl: false,
    setHeaders(reply, path) {
      if (path.endsWith('.wasm')) reply.header('content-type', 'application/wasm');
      const hashed = path.startsWith(`${options.root.replace(/\/$/, '')}/assets/`);
      reply.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
});

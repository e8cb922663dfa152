import type { FastifyPluginAsync } from 'fastify';

/**
 * Marks a plugin so that its hooks and decorators apply to the context it is
 * registered in rather than to a child context: what `fastify-plugin` does,
 * through the symbol Fastify documents for it.
 */
export function unencapsulated<Options extends Record<string, unknown>>(name: string, plugin: FastifyPluginAsync<Options>): FastifyPluginAsync<Options> {
  Object.defineProperty(plugin, Symbol.for('skip-override'), { value: true });
  Object.defineProperty(plugin, Symbol.for('fastify.display-name'), { value: name });
  return plugin;
}

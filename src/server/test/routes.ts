import type { FastifyInstance } from 'fastify';

/**
 * The paths of every registered `POST /api/*` route, read from Fastify's
 * route tree (`printRoutes`): a line is `├── segment (POST)` indented four
 * characters a level, and a path is its ancestors' segments joined.
 */
export function apiPostRoutes(app: FastifyInstance): string[] {
  const tree = app.printRoutes({ commonPrefix: false, method: 'POST' });
  const ancestors: string[] = [];
  const paths: string[] = [];
  for (const line of tree.split('\n')) {
    const match = /^(.*?)[├└]── (.+?)( \(POST\))?$/u.exec(line);
    if (match === null) continue;
    const depth = [...(match[1] ?? '')].length / 4;
    const path = (ancestors[depth - 1] ?? '') + (match[2] ?? '');
    ancestors[depth] = path;
    ancestors.length = depth + 1;
    if (match[3] !== undefined && path.startsWith('/api/')) paths.push(path);
  }
  return paths.sort();
}

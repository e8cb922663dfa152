import type { FastifyInstance } from 'fastify';
import { randomBytes } from 'node:crypto';
import { chmod, rename, stat, unlink } from 'node:fs/promises';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { z } from 'zod';
import { isUsageError, runAdmin } from './admin.ts';
import fastifyPlugin from 'fastify-plugin';

/**
 * `npm run admin` while the server runs: the server listens on a Unix socket
 * in its data directory, which only the operator's user may open (mode 0600),
 * and runs each command it receives inside itself (PGlite admits one process).
 * One JSON line in (`{args}`), one JSON line out, then the connection closes.
 */

/** The socket's name in the data directory. */
export const ADMIN_SOCKET_NAME = 'admin.sock';

export function adminSocketPath(dataDir: string): string {
  return join(dataDir, ADMIN_SOCKET_NAME);
}

const requestSchema = z.object({ args: z.array(z.string().max(200)).max(20) });

/** What the server answers: the lines to print, a command-line mistake (printed with the usage), or a failure. */
export const adminAnswerSchema = z.union([z.object({ lines: z.array(z.string()) }), z.object({ usageError: z.string() }), z.object({ error: z.string() })]);
export type AdminAnswer = z.infer<typeof adminAnswerSchema>;

/** A request is one short line; anything longer is not a command line. */
const MAX_REQUEST_BYTES = 16 * 1024;
const REQUEST_TIMEOUT_MS = 10_000;

/** Reads one line from the socket (null when it closes, runs too long or takes too long). */
function readLine(socket: Socket): Promise<string | null> {
  return new Promise((resolve) => {
    let buffer = '';
    const finish = (line: string | null): void => {
      socket.removeAllListeners('data');
      socket.setTimeout(0);
      resolve(line);
    };
    socket.setEncoding('utf8');
    socket.setTimeout(REQUEST_TIMEOUT_MS, () => finish(null));
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      const end = buffer.indexOf('\n');
      if (end >= 0) finish(buffer.slice(0, end));
      else if (buffer.length > MAX_REQUEST_BYTES) finish(null);
    });
    socket.once('end', () => finish(buffer === '' ? null : buffer));
    socket.once('error', () => finish(null));
  });
}

function parseRequest(line: string): string[] | null {
  try {
    const parsed = requestSchema.safeParse(JSON.parse(line));
    return parsed.success ? parsed.data.args : null;
  } catch {
    return null;
  }
}

/** Listens on `DATA_DIR/admin.sock` from the moment the app is ready until it closes. */
async function adminSocketPlugin(app: FastifyInstance): Promise<void> {
  const path = adminSocketPath(app.config.dataDir);
  let server: Server | null = null;
  let inode: number | null = null;

  const answer = async (args: string[]): Promise<AdminAnswer> => {
    try {
      const lines = await runAdmin(args, app.db, app.clock, app.config, app.endSessionSockets);
      await app.invalidateReadCache('*');
      return { lines };
    } catch (error) {
      if (isUsageError(error)) return { usageError: error.message };
      app.log.error({ err: error }, 'admin command failed');
      return { error: 'the command failed; the server log has the details' };
    }
  };

  const serve = async (socket: Socket): Promise<void> => {
    // A client gone before its answer costs nothing but its connection.
    socket.on('error', () => socket.destroy());
    const line = await readLine(socket);
    if (line === null) return void socket.destroy();
    const args = parseRequest(line);
    const reply = args === null ? { error: 'a request is one line of JSON: {"args": [up to 20 strings]}' } : await answer(args);
    socket.end(`${JSON.stringify(reply)}\n`);
  };

  app.addHook('onReady', async () => {
    // Bound under a random name, made private, then moved into place: the
    // socket is never reachable with looser permissions, and a stale one
    // left by a killed server is replaced.
    const pending = `${path}.${randomBytes(6).toString('hex')}`;
    const listening = createServer((socket) => void serve(socket));
    try {
      await new Promise<void>((resolve, reject) => {
        listening.once('error', reject);
        listening.listen(pending, () => resolve());
      });
      await chmod(pending, 0o600);
      await rename(pending, path);
      inode = (await stat(path)).ino;
      server = listening;
    } catch (error) {
      listening.close();
      await unlink(pending).catch(() => {});
      app.log.warn({ err: error, path }, 'no admin socket: `npm run admin` cannot reach this server');
    }
  });

  app.addHook('preClose', async () => {
    if (server === null) return;
    const closing = server;
    server = null;
    await new Promise<void>((resolve) => closing.close(() => resolve()));
    // Only our own socket: another server may have taken the name since.
    const current = await stat(path).catch(() => null);
    if (current !== null && current.ino === inode) await unlink(path).catch(() => {});
  });
}

export default fastifyPlugin(adminSocketPlugin, { name: 'admin-socket' });

/**
 * Sends a command to the server listening on `path`; null when no server
 * answers there (no socket, or a stale one).
 */
export function sendAdminCommand(path: string, args: readonly string[]): Promise<AdminAnswer | null> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(path);
    let connected = false;
    let received = '';
    socket.setEncoding('utf8');
    socket.once('connect', () => {
      connected = true;
      socket.write(`${JSON.stringify({ args })}\n`);
    });
    socket.on('data', (chunk: string) => {
      received += chunk;
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      if (!connected && (error.code === 'ENOENT' || error.code === 'ECONNREFUSED')) resolve(null);
      else reject(new Error(`the server's admin socket ${path} failed: ${error.message}`));
    });
    socket.once('end', () => {
      try {
        resolve(adminAnswerSchema.parse(JSON.parse(received)));
      } catch {
        reject(new Error(`the server's admin socket ${path} gave no answer`));
      }
    });
  });
}

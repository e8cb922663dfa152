import type { FastifyInstance } from 'fastify';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { Server, type Socket } from 'socket.io';
import { DEFAULT_LANGUAGE } from '../../shared/constants.ts';
import type { GuestCredentials } from '../../shared/api/envelope.ts';
import { message } from '../../shared/messages.ts';
import { RELAY_PATH } from '../../shared/relay.ts';
import fastifyPlugin from 'fastify-plugin';
import { purgeExpired } from '../services/purge.ts';
import { purgeExpiredGuestSessions } from '../services/sessions.ts';
import { openWardenSessions } from '../services/wardens.ts';
import { ConsoleUpdates } from './console-updates.ts';
import { JailEngine } from './engine.ts';
import { EventBudget, spendBudgetOnEvents } from './event-budget.ts';
import type { RelayEmitter } from './jail-changes.ts';
import { onGuest } from './relay-guest.ts';
import { originAllowed, relayHandshake } from './relay-handshake.ts';
import { useRedisAdapter } from './relay-redis.ts';
import { guestRoom, jailRoom, sessionRoom, type Member, type RelayContext } from './relay-sockets.ts';
import { onWarden } from './relay-warden.ts';
import { JailScheduler } from './scheduler.ts';

declare module 'fastify' {
  interface FastifyInstance {
    jailEngine: JailEngine;
    jailScheduler: JailScheduler;
    relay: Server;
    /** A PING on the relay's Redis connection (the readiness check, routes/health.ts); null without `REDIS_URL`. */
    relayRedisPing: (() => Promise<unknown>) | null;
    /**
     * Ends at once, on every server, the sockets opened with these sessions
     * (token hashes of guest or console sessions): after a sign-out, a
     * password reset, an e-mail change or an expiry (docs/sessions.md).
     */
    endSessionSockets(kind: 'guest' | 'warden', tokenHashes: readonly string[]): void;
    /** Deletes the guest sessions that have ended and ends their sockets, and the sockets of expired console sessions here. */
    endExpiredSessions(): Promise<void>;
  }
}

/** How often each server looks for sessions that have ended by time. */
const SESSION_SWEEP_MS = 60_000;

/**
 * How long a stopping server waits for its clients to answer the close of
 * their transports before it drops the connections (a client that does not
 * answer would hold the stop for 30 s).
 */
const CLOSE_GRACE_MS = 2_000;

/** The largest event a client may send (a patrol image of 24 KiB as base64, with room). */
const MAX_EVENT_BYTES = 64 * 1024;

/**
 * The realtime relay (docs/jail.md, Relay): socket.io on the app's server,
 * for guests' devices and the wardens' console, in front of the jail engine
 * and its scheduler (which runs from the moment the app is ready).
 */
async function relayPlugin(app: FastifyInstance): Promise<void> {
  const { config } = app;
  const engine = new JailEngine({
    db: app.db,
    prepareNamed: app.prepareNamed,
    clock: app.clock,
    outbox: app.outbox,
    config,
    log: app.log,
    invalidateGuest: (guestId) => app.invalidateReadCache(guestId),
  });
  app.decorate('jailEngine', engine);

  let stopping = false;
  const io = new Server(app.server, {
    path: RELAY_PATH,
    serveClient: false,
    maxHttpBufferSize: MAX_EVENT_BYTES,
    allowRequest: (request, callback) => {
      // A stopping server takes no new connection: the client tries again, and reaches a server that runs.
      if (stopping) callback('the server is stopping', false);
      else if (originAllowed(request, config.publicUrl, config.isProduction)) callback(null, true);
      else callback(message(DEFAULT_LANGUAGE, 'relay_wrong_origin'), false);
    },
  });
  app.decorate('relay', io);
  // The relay's connections, once upgraded to WebSocket: the HTTP server no longer counts them as requests to close.
  const upgraded = new Set<Duplex>();
  app.server.on('upgrade', (_request: IncomingMessage, connection: Duplex) => {
    upgraded.add(connection);
    connection.once('close', () => upgraded.delete(connection));
  });

  if (config.redisUrl !== null) await useRedisAdapter(app, io, config.redisUrl, CLOSE_GRACE_MS);
  else app.decorate('relayRedisPing', null);

  // --- Sending ---------------------------------------------------------------------

  const consoleUpdates = new ConsoleUpdates(io, app);

  const emitter: RelayEmitter = {
    toGuest(guestId, event, ...args) {
      io.to(guestRoom(guestId)).emit(event, ...args);
    },
    logToWatchers(reservationId, log) {
      const room = jailRoom(reservationId);
      // Without Redis every watcher is on this server: a jail nobody has open costs no packet (each log would be encoded for nobody).
      if (config.redisUrl === null && !io.of('/').adapter.rooms.has(room)) return;
      io.to(room).emit('jail_log_to_warden', { reservationId, log });
    },
    liveJailsChanged(reservationIds, listChanged) {
      consoleUpdates.changed(reservationIds, listChanged);
    },
  };
  engine.connect(emitter);

  // --- Receiving ----------------------------------------------------------------------

  const context: RelayContext = { app, io, engine };

  /** A guest socket's session, kept here rather than in `socket.data`, which the Redis adapter may send to other servers. */
  const guestSessions = new WeakMap<Socket, GuestCredentials>();
  io.use(relayHandshake(app, guestSessions));

  const budget = new EventBudget();

  io.on('connection', (socket) => {
    const member = socket.data.member as Member;
    spendBudgetOnEvents(socket, member, budget, app.log);
    if (member.kind === 'warden') {
      onWarden(context, socket, member.warden, member.language, member.tokenHash);
      return;
    }
    // The handshake sets both together; without the session there is nothing to renew it with.
    const credentials = guestSessions.get(socket);
    if (credentials === undefined) socket.disconnect(true);
    else onGuest(context, socket, member.guestId, credentials);
  });

  // --- Sessions that end ---------------------------------------------------------------

  const endSessionSockets = (kind: 'guest' | 'warden', tokenHashes: readonly string[]): void => {
    if (tokenHashes.length > 0) io.in(tokenHashes.map((hash) => sessionRoom(kind, hash))).disconnectSockets(true);
  };
  app.decorate('endSessionSockets', endSessionSockets);

  app.decorate('endExpiredSessions', async (): Promise<void> => {
    const now = app.clock.now();
    endSessionSockets('guest', await purgeExpiredGuestSessions(app.db, now, config.guestSessions));
    // A console session ends by its 12 hours, its idle time or its warden disabled: each server checks its own consoles' sockets.
    const consoles = new Map<Socket, string>();
    for (const socket of io.of('/').sockets.values()) {
      const member = socket.data.member as Member;
      if (member.kind === 'warden') consoles.set(socket, member.tokenHash);
    }
    const open = await openWardenSessions(app.db, [...consoles.values()], now);
    for (const [socket, tokenHash] of consoles) if (!open.has(tokenHash)) socket.disconnect(true);
  });

  const scheduler = new JailScheduler(engine.transitions, app.log, () => purgeExpired(app.db, app.clock.now()));
  app.decorate('jailScheduler', scheduler);
  app.addHook('onReady', async () => scheduler.start());

  const sessionSweep = setInterval(() => {
    app.endExpiredSessions().catch((error: unknown) => app.log.error({ err: error }, 'ending expired sessions failed'));
  }, SESSION_SWEEP_MS);
  sessionSweep.unref();

  // Before the HTTP server closes: open sockets would keep it waiting. Only
  // the transports close, without socket.io's disconnect packet: a client
  // takes that packet as its server hanging up on it for good, while a
  // closed transport is a drop it reconnects from, to this server once it is
  // back or to another one behind the same address (docs/jail.md, Restarts).
  app.addHook('preClose', async () => {
    stopping = true;
    await scheduler.stop();
    clearInterval(sessionSweep);
    consoleUpdates.stop();
    io.engine.close();
    const deadline = Date.now() + CLOSE_GRACE_MS;
    while (upgraded.size > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    for (const connection of upgraded) connection.destroy();
  });
}

export default fastifyPlugin(relayPlugin, { name: 'relay' });

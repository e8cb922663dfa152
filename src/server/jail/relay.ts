import type { FastifyInstance } from 'fastify';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { createAdapter } from '@socket.io/redis-adapter';
import { createClient } from 'redis';
import { Server, type Socket } from 'socket.io';
import { DEFAULT_LANGUAGE } from '../../shared/constants.ts';
import type { GuestCredentials } from '../../shared/api/envelope.ts';
import { message, type MessageKey } from '../../shared/messages.ts';
import { RELAY_PATH, relayAuthSchema, type ServerToWardenEvents } from '../../shared/relay.ts';
import { ApiFailure } from '../lib/api.ts';
import fastifyPlugin from 'fastify-plugin';
import { purgeExpired } from '../services/purge.ts';
import { purgeExpiredGuestSessions } from '../services/sessions.ts';
import { openWardenSessions, wardenSessionOf } from '../services/wardens.ts';
import { JailEngine } from './engine.ts';
import { EventBudget } from './event-budget.ts';
import type { RelayEmitter } from './jail-changes.ts';
import { liveJails } from './live-view.ts';
import { onGuest } from './relay-guest.ts';
import { guestRoom, jailRoom, languageOf, sessionRoom, WARDENS_ROOM, type Member, type RelayContext } from './relay-sockets.ts';
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

/** Console updates are gathered for this long and sent together. */
const CONSOLE_FLUSH_MS = 500;

/**
 * How long a stopping server waits for its clients to answer the close of
 * their transports before it drops the connections (a client that does not
 * answer would hold the stop for 30 s).
 */
const CLOSE_GRACE_MS = 2_000;

/** The largest event a client may send (a patrol image of 24 KiB as base64, with room). */
const MAX_EVENT_BYTES = 64 * 1024;

function isLoopbackOrigin(origin: URL): boolean {
  return origin.hostname === 'localhost' || origin.hostname === '127.0.0.1' || origin.hostname === '[::1]';
}

/**
 * The app's own origin only: `PUBLIC_URL` when set, else the origin the
 * request was made to; outside production also a page on a loopback
 * address (the Vite development server on another port).
 */
function originAllowed(request: IncomingMessage, publicUrl: string | null, isProduction: boolean): boolean {
  const header = request.headers.origin;
  if (header === undefined) return false;
  let origin: URL;
  try {
    origin = new URL(header);
  } catch {
    return false;
  }
  if (!isProduction && isLoopbackOrigin(origin)) return true;
  if (publicUrl !== null) return origin.origin === new URL(publicUrl).origin;
  return origin.host === request.headers.host;
}

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

  if (config.redisUrl !== null) {
    const publisher = createClient({ url: config.redisUrl });
    const subscriber = publisher.duplicate();
    for (const client of [publisher, subscriber]) client.on('error', (error: unknown) => app.log.error({ err: error }, 'redis'));
    await Promise.all([publisher.connect(), subscriber.connect()]);
    io.adapter(createAdapter(publisher, subscriber));
    app.decorate('relayRedisPing', () => publisher.ping());
    // Pending publishes go out first; a connection still reconnecting (Redis
    // away) would hold the stop for ever, so it is cut after the grace.
    app.addHook('onClose', async () => {
      await Promise.all(
        [publisher, subscriber].map(async (client) => {
          const cut = setTimeout(() => client.destroy(), CLOSE_GRACE_MS);
          await client.close().catch(() => undefined);
          clearTimeout(cut);
        }),
      );
    });
  } else {
    app.decorate('relayRedisPing', null);
  }

  // --- Sending ---------------------------------------------------------------------

  const pendingJails = new Set<number>();
  let pendingList = false;
  let flushTimer: NodeJS.Timeout | null = null;

  const flushConsoles = async () => {
    flushTimer = null;
    const ids = [...pendingJails];
    const listChanged = pendingList;
    pendingJails.clear();
    pendingList = false;
    // No console anywhere: nothing to read (a console gets the whole list when it connects).
    if ((await io.in(WARDENS_ROOM).fetchSockets()).length === 0) return;
    const now = app.clock.now();
    if (listChanged) {
      emitToWardens('live_jails_to_warden', { jails: await liveJails(app.db, now), serverTime: now });
      return;
    }
    for (const jail of await liveJails(app.db, now, ids)) emitToWardens('live_jail_to_warden', { jail, serverTime: now });
  };

  function emitToWardens<Event extends keyof ServerToWardenEvents>(event: Event, ...args: Parameters<ServerToWardenEvents[Event]>) {
    io.to(WARDENS_ROOM).emit(event, ...args);
  }

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
      for (const id of reservationIds) pendingJails.add(id);
      pendingList ||= listChanged;
      flushTimer ??= setTimeout(() => {
        flushConsoles().catch((error: unknown) => app.log.error({ err: error }, 'console update failed'));
      }, CONSOLE_FLUSH_MS);
    },
  };
  engine.connect(emitter);

  // --- Receiving ----------------------------------------------------------------------

  const context: RelayContext = { app, io, engine };

  /** A guest socket's session, kept here rather than in `socket.data`, which the Redis adapter may send to other servers. */
  const guestSessions = new WeakMap<Socket, GuestCredentials>();

  io.use((socket, next) => {
    const auth = relayAuthSchema.safeParse(socket.handshake.auth);
    const refuse = () => next(new Error(message(DEFAULT_LANGUAGE, 'relay_sign_in_again')));
    if (!auth.success) {
      refuse();
      return;
    }
    const identify = async (): Promise<{ member: Member; room: string } | null> => {
      if ('guest' in auth.data) {
        const credentials = auth.data.guest;
        try {
          const { guest, session } = await app.authenticatedSession(credentials);
          guestSessions.set(socket, credentials);
          return { member: { kind: 'guest', guestId: guest.id }, room: sessionRoom('guest', session.tokenHash) };
        } catch (error) {
          if (error instanceof ApiFailure) return null;
          throw error;
        }
      }
      const session = await wardenSessionOf(app.db, auth.data.warden.token, app.clock.now());
      if (session === null) return null;
      const member: Member = {
        kind: 'warden',
        warden: session.warden,
        language: auth.data.warden.language ?? DEFAULT_LANGUAGE,
        tokenHash: session.tokenHash,
      };
      return { member, room: sessionRoom('warden', session.tokenHash) };
    };
    identify().then(
      (identified) => {
        if (identified === null) {
          refuse();
          return;
        }
        socket.data.member = identified.member;
        void socket.join(identified.room);
        next();
      },
      (error: unknown) => {
        app.log.error({ err: error }, 'relay handshake failed');
        refuse();
      },
    );
  });

  const budget = new EventBudget();

  /**
   * Every event a client sends, known or not, first spends the socket's and
   * its account's budget (event-budget.ts); one over budget goes no further
   * and its ack, if it asked for one, says so.
   */
  function spendBudget(socket: Socket, member: Member) {
    const account = member.kind === 'guest' ? `guest:${member.guestId}` : `warden:${member.warden.id}`;
    const language = member.kind === 'warden' ? member.language : DEFAULT_LANGUAGE;
    socket.use(([, payload, ...rest], next) => {
      const refuse = (key: MessageKey) => {
        const ack: unknown = rest.at(-1) ?? payload;
        if (typeof ack === 'function') ack({ ok: false, error: message(languageOf(payload) ?? language, key) });
      };
      budget.spend(socket.id, account).then(
        (within) => (within ? next() : refuse('relay_too_many_events')),
        (error: unknown) => {
          app.log.error({ err: error }, 'relay budget failed');
          refuse('server_error');
        },
      );
    });
  }

  io.on('connection', (socket) => {
    const member = socket.data.member as Member;
    spendBudget(socket, member);
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
    if (flushTimer !== null) clearTimeout(flushTimer);
    io.engine.close();
    const deadline = Date.now() + CLOSE_GRACE_MS;
    while (upgraded.size > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    for (const connection of upgraded) connection.destroy();
  });
}

export default fastifyPlugin(relayPlugin, { name: 'relay' });

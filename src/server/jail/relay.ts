import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { createAdapter } from '@socket.io/redis-adapter';
import { createClient } from 'redis';
import { Server, type Socket } from 'socket.io';
import type { z } from 'zod';
import { DEFAULT_LANGUAGE, type Language } from '../../shared/constants.ts';
import { languageSchema, type GuestCredentials } from '../../shared/api/envelope.ts';
import { message, type MessageKey } from '../../shared/messages.ts';
import {
  callupFromWardenSchema,
  checkAliveFromGuestSchema,
  dialogFromGuestSchema,
  dialogFromWardenSchema,
  featureImageFromWardenSchema,
  finishEarlyFromGuestSchema,
  finishJailFromWardenSchema,
  iceServersFromWardenSchema,
  initializeFromGuestSchema,
  jailLogsFromWardenSchema,
  jailStatusFromGuestSchema,
  MOTION_EVENTS,
  motionFromGuestSchema,
  openJailFromWardenSchema,
  patrolFromGuestSchema,
  RELAY_PATH,
  relayAuthSchema,
  requestPatrolFromWardenSchema,
  updateCommandsFromGuestSchema,
  updateCommandsFromWardenSchema,
  webrtcHandshakeSchema,
  type RelayAck,
  type RelayWarden,
  type ServerToGuestEvents,
  type ServerToWardenEvents,
} from '../../shared/relay.ts';
import { ApiFailure } from '../lib/api.ts';
import { unencapsulated } from '../plugins/unencapsulated.ts';
import { purgeExpired } from '../services/purge.ts';
import { purgeExpiredGuestSessions } from '../services/sessions.ts';
import { recordJailOpened, recordLiveVideoStarted } from '../services/warden-audit.ts';
import { openWardenSessions, renewWardenSession, wardenSessionOf } from '../services/wardens.ts';
import { JailEngine } from './engine.ts';
import { EventBudget } from './event-budget.ts';
import { iceServersForCall } from './ice-servers.ts';
import { RelayRefusal, type RelayEmitter } from './jail-changes.ts';
import { liveJails, logPageOf } from './live-view.ts';
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

/** Who a socket is, settled by the handshake, and a console's session (the hash of its token). */
type Member = { kind: 'guest'; guestId: number } | { kind: 'warden'; warden: RelayWarden; language: Language; tokenHash: string };

const guestRoom = (guestId: number) => `guest:${guestId}`;
const wardenRoom = (wardenId: number) => `warden:${wardenId}`;
const jailRoom = (reservationId: number) => `jail:${reservationId}`;
const WARDENS_ROOM = 'wardens';
/** Every socket is in the room of its session, so that ending the session ends it on any server. */
const sessionRoom = (kind: 'guest' | 'warden', tokenHash: string) => `${kind}-session:${tokenHash}`;

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

/** The fields a payload got wrong, for the error ack. */
function fieldsOf(error: z.ZodError): string {
  const fields = new Set(error.issues.map((issue) => (issue.path.length === 0 ? 'payload' : issue.path.join('.'))));
  return [...fields].join(', ');
}

/** The `api.language` a payload names, if any. */
function languageOf(payload: unknown): Language | null {
  if (typeof payload !== 'object' || payload === null || !('api' in payload)) return null;
  const api = payload.api;
  if (typeof api !== 'object' || api === null || !('language' in api)) return null;
  const parsed = languageSchema.safeParse(api.language);
  return parsed.success ? parsed.data : null;
}

/**
 * The realtime relay (docs/jail.md, Relay): socket.io on the app's server,
 * for guests' devices and the wardens' console, in front of the jail engine
 * and its scheduler (which runs from the moment the app is ready).
 */
export default unencapsulated('relay', async (app) => {
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

  /**
   * Listens for `event`: the payload is checked against `schema` (a bad one
   * is answered with the fields it got wrong and goes no further), `run`
   * answers it, a refusal becomes `{ok: false, error}` in the sender's
   * language (the payload's `api.language`, else `language`), and anything
   * unexpected is logged and answered as a server error without its details.
   */
  function listen<Schema extends z.ZodType>(
    socket: Socket,
    event: string,
    schema: Schema,
    run: (payload: z.output<Schema>) => Promise<RelayAck & Record<string, unknown>>,
    language: Language = DEFAULT_LANGUAGE,
  ) {
    socket.on(event, (payload: unknown, ack: unknown) => {
      const reply = (answer: RelayAck & Record<string, unknown>) => {
        if (typeof ack === 'function') ack(answer);
      };
      const replyLanguage = languageOf(payload) ?? language;
      const parsed = schema.safeParse(payload);
      if (!parsed.success) {
        reply({ ok: false, error: message(replyLanguage, 'relay_invalid_event', { fields: fieldsOf(parsed.error) }) });
        return;
      }
      run(parsed.data).then(reply, (error: unknown) => {
        if (error instanceof RelayRefusal) {
          reply({ ok: false, error: message(replyLanguage, error.key, error.params) });
          return;
        }
        app.log.error({ err: error, event }, 'relay event failed');
        reply({ ok: false, error: message(replyLanguage, 'server_error') });
      });
    });
  }

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
      onWarden(socket, member.warden, member.language, member.tokenHash);
      return;
    }
    // The handshake sets both together; without the session there is nothing to renew it with.
    const credentials = guestSessions.get(socket);
    if (credentials === undefined) socket.disconnect(true);
    else onGuest(socket, member.guestId, credentials);
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

  /**
   * A guest's use of the relay renews the session like a call does; a
   * session that has ended meanwhile ends the socket (after the refusal is
   * answered).
   */
  async function renewGuestSession(socket: Socket, credentials: GuestCredentials): Promise<void> {
    try {
      await app.authenticatedSession(credentials);
    } catch (error) {
      if (!(error instanceof ApiFailure)) throw error;
      setImmediate(() => socket.disconnect(true));
      throw new RelayRefusal('relay_sign_in_again');
    }
  }

  function onGuest(socket: Socket, guestId: number, credentials: GuestCredentials) {
    void socket.join(guestRoom(guestId));
    const send = <Event extends keyof ServerToGuestEvents>(event: Event, ...args: Parameters<ServerToGuestEvents[Event]>) => {
      socket.emit(event, ...args);
    };
    send('connected', { clientId: socket.id });
    const ok = (stored?: { duplicate: boolean }) => ({ ok: true as const, ...(stored?.duplicate ? { duplicate: true } : {}) });
    /** A guest event must name the socket's own guest. */
    const own = <Payload extends { guest: { id: number } }>(payload: Payload): Payload => {
      if (payload.guest.id !== guestId) throw new RelayRefusal('relay_not_your_guest');
      return payload;
    };

    listen(socket, 'initialize_from_guest', initializeFromGuestSchema, async (payload) => {
      own(payload);
      return { ok: true, jail: await engine.initialize(guestId, send) };
    });
    listen(socket, 'check_alive_from_guest', checkAliveFromGuestSchema, async (payload) => {
      own(payload);
      // A live jail's alive checks are activity: nobody is signed out in the middle of one.
      await renewGuestSession(socket, credentials);
      const correction = await engine.checkAlive(guestId, payload.jailStatus);
      if (correction !== null) {
        send('jail_update_to_guest', { guest: { jailStatus: correction.jailStatus, statusSince: correction.statusSince }, warden: correction.warden });
      }
      return ok();
    });
    listen(socket, 'jail_status_from_guest', jailStatusFromGuestSchema, async (payload) =>
      ok(await engine.setStatus(guestId, own(payload).eventId, payload.jailStatus)),
    );
    listen(socket, 'update_commands_from_guest', updateCommandsFromGuestSchema, async (payload) => {
      await engine.setGuestCommands(guestId, own(payload).commands);
      return ok();
    });
    listen(socket, 'guest_dialog_event_from_guest', dialogFromGuestSchema, async (payload) =>
      ok(await engine.dialogFromGuest(guestId, own(payload).eventId, payload.dialog.text, 0)),
    );
    listen(socket, 'snitch_dialog_event_from_guest', dialogFromGuestSchema, async (payload) =>
      ok(await engine.dialogFromGuest(guestId, own(payload).eventId, payload.dialog.text, 2)),
    );
    for (const [event, kind] of Object.entries(MOTION_EVENTS)) {
      listen(socket, event, motionFromGuestSchema, async (payload) => ok(await engine.motion(guestId, own(payload).eventId, kind, payload.motion.type)));
    }
    listen(socket, 'patrol_from_guest', patrolFromGuestSchema, async (payload) => ok(await engine.patrol(guestId, own(payload).eventId, payload.patrol.data)));
    listen(socket, 'jail_finish_early_from_guest', finishEarlyFromGuestSchema, async (payload) =>
      ok(await engine.finishEarly(guestId, own(payload).eventId, payload.reservation.id, payload.instruction.text)),
    );
    listen(socket, 'webrtc_handshake', webrtcHandshakeSchema, async (payload) => {
      const [side, id] = payload.to.split(':');
      if (side !== 'warden' || !(await engine.hasLiveJail(guestId))) throw new RelayRefusal('webrtc_nobody_there');
      return relaySignal(wardenRoom(Number(id)), { ...payload, from: `guest:${guestId}` });
    });
  }

  /** Passes a WebRTC signal on to `room`, if anyone is in it (on any server). */
  async function relaySignal(room: string, delivered: Parameters<ServerToGuestEvents['webrtc_handshake']>[0]) {
    const receivers = await io.in(room).fetchSockets();
    if (receivers.length === 0) throw new RelayRefusal('webrtc_nobody_there');
    io.to(room).emit('webrtc_handshake', delivered);
    return { ok: true as const };
  }

  function onWarden(socket: Socket, warden: RelayWarden, language: Language, tokenHash: string) {
    void socket.join([WARDENS_ROOM, wardenRoom(warden.id)]);
    const send = <Event extends keyof ServerToWardenEvents>(event: Event, ...args: Parameters<ServerToWardenEvents[Event]>) => {
      socket.emit(event, ...args);
    };
    send('connected', { clientId: socket.id, warden });
    const now = app.clock.now();
    liveJails(app.db, now).then(
      (jails) => send('live_jails_to_warden', { jails, serverTime: now }),
      (error: unknown) => app.log.error({ err: error }, 'live jails for a console failed'),
    );
    const ok = (stored?: { duplicate: boolean }) => ({ ok: true as const, ...(stored?.duplicate ? { duplicate: true } : {}) });
    /**
     * A console event is use of the session: it keeps it from going idle
     * (docs/sessions.md); one that has ended meanwhile ends the socket, after
     * the refusal is answered.
     */
    const renewSession = async () => {
      if ((await renewWardenSession(app.db, tokenHash, app.clock.now())) !== null) return;
      setImmediate(() => socket.disconnect(true));
      throw new RelayRefusal('warden_signed_out');
    };
    /** Warden events carry no `api.language`: refusals come in the language of the handshake. */
    const on = <Schema extends z.ZodType>(event: string, schema: Schema, run: (payload: z.output<Schema>) => Promise<RelayAck & Record<string, unknown>>) =>
      listen(
        socket,
        event,
        schema,
        async (payload) => {
          await renewSession();
          return run(payload);
        },
        language,
      );

    on('open_jail_from_warden', openJailFromWardenSchema, async ({ reservationId }) => {
      // Recorded before anything of the jail is sent (docs/privacy.md, the audit trail).
      await recordJailOpened(app.db, warden.id, await engine.liveJail(reservationId), app.clock.now());
      await socket.join(jailRoom(reservationId));
      const [jail] = await liveJails(app.db, app.clock.now(), [reservationId]);
      if (jail === undefined) throw new RelayRefusal('jail_not_live');
      return { ok: true, jail, ...(await logPageOf(app.db, reservationId, null)) };
    });
    on('jail_logs_from_warden', jailLogsFromWardenSchema, async ({ reservationId, before }) => {
      // Only of the jail this console has open: a warden reads what they opened.
      if (!socket.rooms.has(jailRoom(reservationId))) throw new RelayRefusal('jail_not_open');
      return { ok: true, ...(await logPageOf(app.db, reservationId, before)) };
    });
    on('close_jail_from_warden', openJailFromWardenSchema, async ({ reservationId }) => {
      await socket.leave(jailRoom(reservationId));
      return ok();
    });
    on('dialog_from_warden', dialogFromWardenSchema, async ({ reservationId, eventId, text }) =>
      ok(await engine.wardenDialog(warden, reservationId, eventId, text)),
    );
    on('callup_from_warden', callupFromWardenSchema, async ({ reservationId, eventId, text }) => ok(await engine.callup(warden, reservationId, eventId, text)));
    on('update_commands_from_warden', updateCommandsFromWardenSchema, async ({ reservationId, commands }) => {
      await engine.wardenCommands(reservationId, commands);
      return ok();
    });
    on('feature_image_from_warden', featureImageFromWardenSchema, async ({ reservationId, patrolLogId }) => {
      await engine.approveScene(warden, reservationId, patrolLogId);
      return ok();
    });
    on('finish_jail_from_warden', finishJailFromWardenSchema, async ({ reservationId, eventId, reason }) =>
      ok(await engine.wardenFinish(reservationId, eventId, reason)),
    );
    on('request_patrol_from_warden', requestPatrolFromWardenSchema, async ({ reservationId }) => {
      await engine.requestPatrol(reservationId);
      return ok();
    });
    on('ice_servers_from_warden', iceServersFromWardenSchema, async ({ reservationId }) => {
      await engine.liveJail(reservationId);
      return { ok: true, iceServers: iceServersForCall(config, `warden-${warden.id}`, app.clock.now()) };
    });
    on('webrtc_handshake', webrtcHandshakeSchema, async (payload) => {
      const [side, id] = payload.to.split(':');
      const guestId = Number(id);
      if (side !== 'guest' || !(await engine.hasLiveJail(guestId))) throw new RelayRefusal('webrtc_nobody_there');
      // An offer starts a live video: recorded before it reaches the guest's device (docs/privacy.md, the audit trail).
      if (payload.type === 'offer' && !(await recordLiveVideoStarted(app.db, warden.id, guestId, app.clock.now()))) {
        throw new RelayRefusal('webrtc_nobody_there');
      }
      // An offer starts a call: the guest answers it through TURN credentials made for it, and only while the jail is live.
      const servers = payload.type === 'offer' ? { iceServers: iceServersForCall(config, `guest-${guestId}`, app.clock.now()) } : {};
      return relaySignal(guestRoom(guestId), { ...payload, from: `warden:${warden.id}`, ...servers });
    });
  }

  const scheduler = new JailScheduler(engine, app.log, () => purgeExpired(app.db, app.clock.now()));
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
});

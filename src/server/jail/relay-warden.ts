import type { Socket } from 'socket.io';
import type { Language } from '../../shared/constants.ts';
import {
  callupFromWardenSchema,
  dialogFromWardenSchema,
  featureImageFromWardenSchema,
  finishJailFromWardenSchema,
  iceServersFromWardenSchema,
  jailLogsFromWardenSchema,
  openJailFromWardenSchema,
  requestPatrolFromWardenSchema,
  updateCommandsFromWardenSchema,
  webrtcHandshakeSchema,
  type RelayWarden,
  type ServerToWardenEvents,
} from '../../shared/relay.ts';
import { recordJailOpened, recordLiveVideoStarted } from '../services/warden-audit.ts';
import { renewWardenSession } from '../services/wardens.ts';
import { iceServersForCall } from './ice-servers.ts';
import { RelayRefusal } from './jail-changes.ts';
import { liveJails, logPageOf } from './live-view.ts';
import { guestRoom, handler, jailRoom, listen, ok, relaySignal, WARDENS_ROOM, wardenRoom, type Handler, type RelayContext } from './relay-sockets.ts';

/**
 * A human warden's console socket (docs/jail.md, Relay): the live jails on
 * connecting, then each event a named handler calling the engine's warden
 * part (warden-events.ts). Console events carry no `api.language`:
 * refusals come in the language of the handshake.
 */
export function onWarden(context: RelayContext, socket: Socket, warden: RelayWarden, language: Language, tokenHash: string): void {
  const { app, engine } = context;
  const { config } = app;
  const wardens = engine.wardens;
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

  /**
   * A console event is use of the session: it keeps it from going idle
   * (docs/sessions.md); one that has ended meanwhile ends the socket, after
   * the refusal is answered.
   */
  const renewSession = async (): Promise<void> => {
    if ((await renewWardenSession(app.db, tokenHash, app.clock.now())) !== null) return;
    setImmediate(() => socket.disconnect(true));
    throw new RelayRefusal('warden_signed_out');
  };

  const handlers: Record<string, Handler> = {
    open_jail_from_warden: handler(openJailFromWardenSchema, async ({ reservationId }) => {
      // Recorded before anything of the jail is sent (docs/privacy.md, the audit trail).
      await recordJailOpened(app.db, warden.id, await wardens.liveJail(reservationId), app.clock.now());
      await socket.join(jailRoom(reservationId));
      const [jail] = await liveJails(app.db, app.clock.now(), [reservationId]);
      if (jail === undefined) throw new RelayRefusal('jail_not_live');
      return { ok: true, jail, ...(await logPageOf(app.db, reservationId, null)) };
    }),
    jail_logs_from_warden: handler(jailLogsFromWardenSchema, async ({ reservationId, before }) => {
      // Only of the jail this console has open: a warden reads what they opened.
      if (!socket.rooms.has(jailRoom(reservationId))) throw new RelayRefusal('jail_not_open');
      return { ok: true, ...(await logPageOf(app.db, reservationId, before)) };
    }),
    close_jail_from_warden: handler(openJailFromWardenSchema, async ({ reservationId }) => {
      await socket.leave(jailRoom(reservationId));
      return ok();
    }),
    dialog_from_warden: handler(dialogFromWardenSchema, async ({ reservationId, eventId, text }) =>
      ok(await wardens.wardenDialog(warden, reservationId, eventId, text)),
    ),
    callup_from_warden: handler(callupFromWardenSchema, async ({ reservationId, eventId, text }) =>
      ok(await wardens.callup(warden, reservationId, eventId, text)),
    ),
    update_commands_from_warden: handler(updateCommandsFromWardenSchema, async ({ reservationId, commands }) => {
      await wardens.wardenCommands(reservationId, commands);
      return ok();
    }),
    feature_image_from_warden: handler(featureImageFromWardenSchema, async ({ reservationId, patrolLogId }) => {
      await wardens.approveScene(warden, reservationId, patrolLogId);
      return ok();
    }),
    finish_jail_from_warden: handler(finishJailFromWardenSchema, async ({ reservationId, eventId, reason }) =>
      ok(await wardens.wardenFinish(reservationId, eventId, reason)),
    ),
    request_patrol_from_warden: handler(requestPatrolFromWardenSchema, async ({ reservationId }) => {
      await wardens.requestPatrol(reservationId);
      return ok();
    }),
    ice_servers_from_warden: handler(iceServersFromWardenSchema, async ({ reservationId }) => {
      await wardens.liveJail(reservationId);
      return { ok: true, iceServers: iceServersForCall(config, `warden-${warden.id}`, app.clock.now()) };
    }),
    webrtc_handshake: handler(webrtcHandshakeSchema, async (payload) => {
      const [side, id] = payload.to.split(':');
      const guestId = Number(id);
      if (side !== 'guest' || !(await engine.guests.hasLiveJail(guestId))) throw new RelayRefusal('webrtc_nobody_there');
      // An offer starts a live video: recorded before it reaches the guest's device (docs/privacy.md, the audit trail).
      if (payload.type === 'offer' && !(await recordLiveVideoStarted(app.db, warden.id, guestId, app.clock.now()))) {
        throw new RelayRefusal('webrtc_nobody_there');
      }
      // An offer starts a call: the guest answers it through TURN credentials made for it, and only while the jail is live.
      const servers = payload.type === 'offer' ? { iceServers: iceServersForCall(config, `guest-${guestId}`, app.clock.now()) } : {};
      return relaySignal(context, guestRoom(guestId), { ...payload, from: `warden:${warden.id}`, ...servers });
    }),
  };
  listen(context, socket, handlers, language, renewSession);
}

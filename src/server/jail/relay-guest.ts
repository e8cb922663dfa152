import type { Socket } from 'socket.io';
import type { GuestCredentials } from '../../shared/api/envelope.ts';
import {
  checkAliveFromGuestSchema,
  dialogFromGuestSchema,
  finishEarlyFromGuestSchema,
  initializeFromGuestSchema,
  jailStatusFromGuestSchema,
  motionFromGuestSchema,
  patrolFromGuestSchema,
  updateCommandsFromGuestSchema,
  webrtcHandshakeSchema,
  type ServerToGuestEvents,
} from '../../shared/relay.ts';
import { ApiFailure } from '../lib/api.ts';
import { RelayRefusal } from './jail-changes.ts';
import { guestRoom, handler, listen, ok, relaySignal, wardenRoom, type Handler, type RelayContext } from './relay-sockets.ts';
import { MOTION_EVENTS } from '../../shared/jail-vocabulary.ts';

/**
 * A guest's socket (docs/jail.md, Relay): what the guest's device sends,
 * each event a named handler calling the engine's guest part
 * (guest-events.ts). Every event must name the socket's own guest.
 */
export function onGuest(context: RelayContext, socket: Socket, guestId: number, credentials: GuestCredentials): void {
  const { app, engine } = context;
  const guests = engine.guests;
  void socket.join(guestRoom(guestId));
  const send = <Event extends keyof ServerToGuestEvents>(event: Event, ...args: Parameters<ServerToGuestEvents[Event]>) => {
    socket.emit(event, ...args);
  };
  send('connected', { clientId: socket.id });

  const own = <Payload extends { guest: { id: number } }>(payload: Payload): Payload => {
    if (payload.guest.id !== guestId) throw new RelayRefusal('relay_not_your_guest');
    return payload;
  };

  /**
   * A guest's use of the relay renews the session like a call does; a
   * session that has ended meanwhile ends the socket (after the refusal is
   * answered).
   */
  const renewSession = async (): Promise<void> => {
    try {
      await app.authenticatedSession(credentials);
    } catch (error) {
      if (!(error instanceof ApiFailure)) throw error;
      setImmediate(() => socket.disconnect(true));
      throw new RelayRefusal('relay_sign_in_again');
    }
  };

  const handlers: Record<string, Handler> = {
    initialize_from_guest: handler(initializeFromGuestSchema, async (payload) => {
      own(payload);
      return { ok: true, jail: await guests.initialize(guestId, send) };
    }),
    check_alive_from_guest: handler(checkAliveFromGuestSchema, async (payload) => {
      own(payload);
      // A live jail's alive checks are activity: nobody is signed out in the middle of one.
      await renewSession();
      const correction = await guests.checkAlive(guestId, payload.jailStatus);
      if (correction !== null) {
        send('jail_update_to_guest', { guest: { jailStatus: correction.jailStatus, statusSince: correction.statusSince }, warden: correction.warden });
      }
      return ok();
    }),
    jail_status_from_guest: handler(jailStatusFromGuestSchema, async (payload) =>
      ok(await guests.setStatus(guestId, own(payload).eventId, payload.jailStatus, payload.api.language)),
    ),
    update_commands_from_guest: handler(updateCommandsFromGuestSchema, async (payload) => {
      await guests.setGuestCommands(guestId, own(payload).commands);
      return ok();
    }),
    guest_dialog_event_from_guest: handler(dialogFromGuestSchema, async (payload) =>
      ok(await guests.dialogFromGuest(guestId, own(payload).eventId, payload.dialog.text, 0)),
    ),
    snitch_dialog_event_from_guest: handler(dialogFromGuestSchema, async (payload) =>
      ok(await guests.dialogFromGuest(guestId, own(payload).eventId, payload.dialog.text, 2)),
    ),
    patrol_from_guest: handler(patrolFromGuestSchema, async (payload) => ok(await guests.patrol(guestId, own(payload).eventId, payload.patrol.data))),
    jail_finish_early_from_guest: handler(finishEarlyFromGuestSchema, async (payload) =>
      ok(await guests.finishEarly(guestId, own(payload).eventId, payload.reservation.id, payload.instruction.text)),
    ),
    webrtc_handshake: handler(webrtcHandshakeSchema, async (payload) => {
      const [side, id] = payload.to.split(':');
      if (side !== 'warden' || !(await guests.hasLiveJail(guestId))) throw new RelayRefusal('webrtc_nobody_there');
      return relaySignal(context, wardenRoom(Number(id)), { ...payload, from: `guest:${guestId}` });
    }),
  };
  for (const [event, kind] of Object.entries(MOTION_EVENTS)) {
    handlers[event] = handler(motionFromGuestSchema, async (payload) => ok(await guests.motion(guestId, own(payload).eventId, kind, payload.motion.type)));
  }
  listen(context, socket, handlers);
}

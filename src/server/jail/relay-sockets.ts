import type { FastifyInstance } from 'fastify';
import type { Server, Socket } from 'socket.io';
import type { z } from 'zod';
import { DEFAULT_LANGUAGE, type Language } from '../../shared/constants.ts';
import { languageSchema } from '../../shared/api/envelope.ts';
import { message } from '../../shared/messages.ts';
import type { RelayAck, RelayWarden, ServerToGuestEvents } from '../../shared/relay.ts';
import type { JailEngine } from './engine.ts';
import { RelayRefusal } from './jail-changes.ts';

/**
 * What the guest's socket (relay-guest.ts) and the console's socket
 * (relay-warden.ts) share: who a socket is, the rooms, and how an event is
 * received and answered.
 */

/** Who a socket is, settled by the handshake, and a console's session (the hash of its token). */
export type Member = { kind: 'guest'; guestId: number } | { kind: 'warden'; warden: RelayWarden; language: Language; tokenHash: string };

export const guestRoom = (guestId: number) => `guest:${guestId}`;
export const wardenRoom = (wardenId: number) => `warden:${wardenId}`;
export const jailRoom = (reservationId: number) => `jail:${reservationId}`;
export const WARDENS_ROOM = 'wardens';
/** Every socket is in the room of its session, so that ending the session ends it on any server. */
export const sessionRoom = (kind: 'guest' | 'warden', tokenHash: string) => `${kind}-session:${tokenHash}`;

/** What a socket's handlers reach: the app, the socket.io server and the jail engine. */
export interface RelayContext {
  app: FastifyInstance;
  io: Server;
  engine: JailEngine;
}

type Answer = RelayAck & Record<string, unknown>;

/**
 * One event a socket listens for: its payload's schema and what answers it.
 * (`run` is a method so that a handler of any schema fits a record of them;
 * `listen` only calls it with what that schema parsed.)
 */
export interface Handler<Schema extends z.ZodType = z.ZodType> {
  schema: Schema;
  run(payload: z.output<Schema>): Promise<Answer>;
}

/** Keeps a handler's payload type tied to its schema. */
export function handler<Schema extends z.ZodType>(schema: Schema, run: (payload: z.output<Schema>) => Promise<Answer>): Handler<Schema> {
  return { schema, run };
}

/** The ack of a stored event, saying when it was a duplicate (an event sent again after a drop). */
export function ok(stored?: { duplicate: boolean }) {
  return { ok: true as const, ...(stored?.duplicate ? { duplicate: true } : {}) };
}

/** The fields a payload got wrong, for the error ack. */
function fieldsOf(error: z.ZodError): string {
  const fields = new Set(error.issues.map((issue) => (issue.path.length === 0 ? 'payload' : issue.path.join('.'))));
  return [...fields].join(', ');
}

/** The `api.language` a payload names, if any. */
export function languageOf(payload: unknown): Language | null {
  if (typeof payload !== 'object' || payload === null || !('api' in payload)) return null;
  const api = payload.api;
  if (typeof api !== 'object' || api === null || !('language' in api)) return null;
  const parsed = languageSchema.safeParse(api.language);
  return parsed.success ? parsed.data : null;
}

/**
 * Listens for each of `handlers`: the payload is checked against its schema
 * (a bad one is answered with the fields it got wrong and goes no further),
 * its `run` answers it, a refusal becomes `{ok: false, error}` in the
 * sender's language (the payload's `api.language`, else `language`), and
 * anything unexpected is logged and answered as a server error without its
 * details. `before` runs first for every event (a console renews its session).
 */
export function listen(
  { app }: RelayContext,
  socket: Socket,
  handlers: Record<string, Handler>,
  language: Language = DEFAULT_LANGUAGE,
  before: () => Promise<void> = async () => {},
): void {
  for (const [event, { schema, run }] of Object.entries(handlers)) {
    socket.on(event, (payload: unknown, ack: unknown) => {
      const reply = (answer: Answer) => {
        if (typeof ack === 'function') ack(answer);
      };
      const replyLanguage = languageOf(payload) ?? language;
      const parsed = schema.safeParse(payload);
      if (!parsed.success) {
        reply({ ok: false, error: message(replyLanguage, 'relay_invalid_event', { fields: fieldsOf(parsed.error) }) });
        return;
      }
      before()
        .then(() => run(parsed.data))
        .then(reply, (error: unknown) => {
          if (error instanceof RelayRefusal) {
            reply({ ok: false, error: message(replyLanguage, error.key, error.params) });
            return;
          }
          app.log.error({ err: error, event }, 'relay event failed');
          reply({ ok: false, error: message(replyLanguage, 'server_error') });
        });
    });
  }
}

/** Passes a WebRTC signal on to `room`, if anyone is in it (on any server). */
export async function relaySignal({ io }: RelayContext, room: string, delivered: Parameters<ServerToGuestEvents['webrtc_handshake']>[0]) {
  const receivers = await io.in(room).fetchSockets();
  if (receivers.length === 0) throw new RelayRefusal('webrtc_nobody_there');
  io.to(room).emit('webrtc_handshake', delivered);
  return { ok: true as const };
}

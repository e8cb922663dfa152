import type { FastifyInstance } from 'fastify';
import type { IncomingMessage } from 'node:http';
import type { ExtendedError, Socket } from 'socket.io';
import { DEFAULT_LANGUAGE } from '../../shared/constants.ts';
import type { GuestCredentials } from '../../shared/api/envelope.ts';
import { message } from '../../shared/messages.ts';
import { relayAuthSchema } from '../../shared/relay.ts';
import { ApiFailure } from '../lib/api.ts';
import { wardenSessionOf } from '../services/wardens.ts';
import { sessionRoom, type Member } from './relay-sockets.ts';

/**
 * Who may connect to the relay (docs/jail.md, Relay): a page of the app's
 * own origin, signed in as a guest or a warden with a session that holds.
 */

function isLoopbackOrigin(origin: URL): boolean {
  return origin.hostname === 'localhost' || origin.hostname === '127.0.0.1' || origin.hostname === '[::1]';
}

/**
 * The app's own origin only: `PUBLIC_URL` when set, else the origin the
 * request was made to; outside production also a page on a loopback
 * address (the Vite development server on another port).
 */
export function originAllowed(request: IncomingMessage, publicUrl: string | null, isProduction: boolean): boolean {
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

/** Who the handshake's credentials are, and the room of their session; null when they are not signed in. */
async function identify(
  app: FastifyInstance,
  socket: Socket,
  guestSessions: WeakMap<Socket, GuestCredentials>,
): Promise<{ member: Member; room: string } | null> {
  const auth = relayAuthSchema.safeParse(socket.handshake.auth);
  if (!auth.success) return null;
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
  const member: Member = { kind: 'warden', warden: session.warden, language: auth.data.warden.language ?? DEFAULT_LANGUAGE, tokenHash: session.tokenHash };
  return { member, room: sessionRoom('warden', session.tokenHash) };
}

/**
 * The relay's handshake (a socket.io middleware): a socket signed in joins
 * the room of its session and carries who it is (`socket.data.member`); a
 * guest's credentials go to `guestSessions`, kept apart from `socket.data`,
 * which the Redis adapter may send to other servers. Anyone else is asked
 * to sign in again.
 */
export function relayHandshake(app: FastifyInstance, guestSessions: WeakMap<Socket, GuestCredentials>) {
  return (socket: Socket, next: (error?: ExtendedError) => void): void => {
    const refuse = () => next(new Error(message(DEFAULT_LANGUAGE, 'relay_sign_in_again')));
    identify(app, socket, guestSessions).then(
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
  };
}

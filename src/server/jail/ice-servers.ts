import { createHmac } from 'node:crypto';
import type { IceServer } from '../../shared/api/warden.ts';
import { HOUR_MS, SECOND_MS } from '../../shared/durations.ts';
import type { Config } from '../config.ts';

/**
 * How long the TURN credentials of one live video call stay good: longer
 * than a warden watches at a time, short enough that credentials which got
 * out are soon worthless. The TURN server refuses a call's refreshes after
 * it, so a call this long ends and is started again (docs/jail.md, Live video).
 */
export const TURN_CREDENTIAL_LIFETIME_MS = 2 * HOUR_MS;

/**
 * coturn's shared-secret credentials ("TURN REST API", `use-auth-secret`):
 * the username is the end of their life in Unix seconds and who they are
 * for; the password is base64(HMAC-SHA1(secret, username)), which the TURN
 * server computes again from the secret it shares with Warden.
 */
export function turnCredentials(secret: string, user: string, now: number): { username: string; credential: string } {
  const username = `${Math.floor((now + TURN_CREDENTIAL_LIFETIME_MS) / SECOND_MS)}:${user}`;
  return { username, credential: createHmac('sha1', secret).update(username).digest('base64') };
}

/**
 * The STUN and TURN servers of one live video call, for `user` (`guest-12`,
 * `warden-3`): asked for only once the relay has found the jail live
 * (docs/jail.md, Live video).
 */
export function iceServersForCall(config: Pick<Config, 'iceServers' | 'turn'>, user: string, now: number): IceServer[] {
  if (config.turn === null) return config.iceServers;
  return [...config.iceServers, { urls: config.turn.urls, ...turnCredentials(config.turn.secret, user, now) }];
}

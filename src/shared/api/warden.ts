import { z } from 'zod';
import { apiRequestSchema, tokenSchema } from './envelope.ts';
import { EMAIL_MAX_LENGTH, PASSWORD_MAX_LENGTH } from './guest.ts';

/**
 * The calls of the human wardens' console (`/api/warden/…`, docs/api.md):
 * sign-in, reading the session, and sign-out. The live video's ICE servers
 * come through the relay, each call's own (docs/jail.md, Live video).
 */

/**
 * One ICE server as `RTCIceServer` takes it: a `stun:`/`stuns:`/`turn:`/
 * `turns:` URL or a list of them, with the TURN credentials when needed.
 */
const iceUrlSchema = z.string().regex(/^(stun|stuns|turn|turns):\S+$/, { error: 'must be a stun:, stuns:, turn: or turns: URL' });
export const iceServerSchema = z.strictObject({
  urls: z.union([iceUrlSchema, z.array(iceUrlSchema).min(1)]),
  username: z.string().optional(),
  credential: z.string().optional(),
});
export type IceServer = z.infer<typeof iceServerSchema>;
export const iceServersSchema = z.array(iceServerSchema);

/** A warden as the console shows them. */
export const wardenSchema = z.object({ id: z.number(), title: z.string() });
export type Warden = z.infer<typeof wardenSchema>;

/** The console session's credentials: its token alone names the warden. */
export const wardenCredentialsSchema = z.object({ token: tokenSchema });

export const wardenAuthenticateRequestSchema = z.object({
  api: apiRequestSchema,
  warden: z.object({
    email: z.string().trim().min(1).max(EMAIL_MAX_LENGTH),
    password: z.string().min(1).max(PASSWORD_MAX_LENGTH),
  }),
});

/** `/warden/read` and `/warden/logout`. */
export const wardenSessionRequestSchema = z.object({ api: apiRequestSchema, warden: wardenCredentialsSchema });

/** What sign-in answers: the warden with the new session's token. */
export const signedInWardenSchema = wardenSchema.extend({ token: z.string() });
export type SignedInWarden = z.infer<typeof signedInWardenSchema>;

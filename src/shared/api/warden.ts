import { z } from 'zod';
import { apiRequestSchema, tokenSchema } from './envelope.ts';
import { EMAIL_MAX_LENGTH, PASSWORD_MAX_LENGTH, passwordSchema } from './guest.ts';

/**
 * The calls of the human wardens' console (`/api/warden/…`, docs/api.md):
 * sign-in (the password, then the code of the second factor), reading the
 * session, a new password, and sign-out. The live video's ICE servers
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

// --- Second factor, password, idle time (docs/sessions.md, Console sessions) ---

/**
 * A console session ends after this long without a console call or event:
 * someone who walks away from a console that shows guests' cameras is
 * signed out soon after, and a warden watching still has time between clicks.
 */
export const WARDEN_IDLE_TIMEOUT_MS = 20 * 60_000;

/** The console warns this long before the idle time ends, with a way to stay. */
export const WARDEN_IDLE_WARNING_MS = 2 * 60_000;

/** What a warden without a second factor is shown to enrol: the secret to type, its `otpauth:` address and that address as a QR code (SVG). */
export const secondFactorEnrolmentSchema = z.object({ secret: z.string(), uri: z.string(), qrSvg: z.string() });
export type SecondFactorEnrolment = z.infer<typeof secondFactorEnrolmentSchema>;

/** What a right password answers: the ticket for the code, with an enrolment when the warden has no second factor yet. */
export const wardenSignInTicketSchema = z.object({ ticket: z.string(), enrolment: secondFactorEnrolmentSchema.nullable() });
export type WardenSignInTicket = z.infer<typeof wardenSignInTicketSchema>;

/** `/warden/confirmCode`: the ticket and the six digits of the authenticator app (spaces allowed). */
export const wardenConfirmCodeRequestSchema = z.object({
  api: apiRequestSchema,
  warden: z.object({
    ticket: tokenSchema,
    code: z
      .string({ error: 'second_factor_code_wrong' })
      .transform((code) => code.replace(/\s/g, ''))
      .pipe(z.string().regex(/^\d{6}$/, { error: 'second_factor_code_wrong' })),
  }),
});

/** `/warden/updatePassword`: the session, the password it has and the new one. */
export const wardenUpdatePasswordRequestSchema = z.object({
  api: apiRequestSchema,
  warden: wardenCredentialsSchema.extend({
    currentPassword: z.string({ error: 'current_password_wrong' }).max(PASSWORD_MAX_LENGTH, { error: 'current_password_wrong' }),
    password: passwordSchema,
  }),
});

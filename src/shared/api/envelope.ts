import { z } from 'zod';
import { LANGUAGES } from '../constants.ts';

/**
 * The envelope every API call shares (docs/api.md, The contract): each request body carries
 * `api.language`; each answer carries `api.status`, and on failure
 * `api.errorMessage` in that language.
 */

export const languageSchema = z.enum(LANGUAGES);

/** The `api` block of a request. */
export const apiRequestSchema = z.object({ language: languageSchema });

/** The largest id a row can have (PostgreSQL `integer`). */
const MAX_ID = 2_147_483_647;

/**
 * A row id: a positive integer, also accepted as a string of digits (ids
 * come from route segments such as /reservation/{id}).
 */
export const idSchema = z.union([
  z.number().int().min(1).max(MAX_ID),
  z
    .string()
    .regex(/^[1-9][0-9]{0,9}$/)
    .transform(Number)
    .pipe(z.number().max(MAX_ID)),
]);

/** Session tokens, e-mail tokens and facilitator tokens: 43 base64url characters, accepted up to 200. */
export const tokenSchema = z.string().min(1).max(200);

/** What an authenticated call carries to say who is calling. */
export const guestCredentialsSchema = z.object({ id: idSchema, token: tokenSchema });
export type GuestCredentials = z.infer<typeof guestCredentialsSchema>;

/** A request body with only the `api` block. */
export const bareRequestSchema = z.object({ api: apiRequestSchema });

/** A request body of an authenticated call with nothing else. */
export const authenticatedRequestSchema = z.object({ api: apiRequestSchema, guest: guestCredentialsSchema });

/**
 * A failure: `errorMessage` in the request's language, and `errorCode`, the
 * message's key (src/shared/messages.ts), by which a form shows the refusal
 * beside the field it concerns.
 */
export const failedResponseSchema = z.object({
  api: z.object({ status: z.literal('failed'), errorMessage: z.string(), errorCode: z.string() }),
});
export type FailedResponse = z.infer<typeof failedResponseSchema>;

/** A successful answer: `api.status` 'success' beside the payload fields. */
export function successResponseSchema<Payload extends z.ZodRawShape>(payload: Payload) {
  return z.object({ api: z.object({ status: z.literal('success') }), ...payload });
}

/** Every answer of a call: success with its payload, or failure with a message. */
export function responseSchema<Payload extends z.ZodRawShape>(payload: Payload) {
  return z.union([successResponseSchema(payload), failedResponseSchema]);
}

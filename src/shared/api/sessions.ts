import { z } from 'zod';
import { authenticatedRequestSchema, idSchema } from './envelope.ts';

/**
 * The guest's signed-in devices (docs/sessions.md, "Signed-in devices"): each
 * open session, and signing out one or all of them.
 */

/** One open session as the guest sees it. */
export const signedInDeviceSchema = z.object({
  /** Names the session in `/guest/logoutSession`; not its token. */
  id: z.number().int(),
  /** The browser and the system its user agent named at sign-in (e.g. Chrome, Android); null when it named none we know. */
  browser: z.string().nullable(),
  os: z.string().nullable(),
  /** A facilitator opened it. */
  facilitator: z.boolean(),
  /** The session this call was made with. */
  current: z.boolean(),
  createdAt: z.number(),
  /** The last use, written at most about once a minute. */
  lastSeenAt: z.number(),
});
export type SignedInDevice = z.infer<typeof signedInDeviceSchema>;

export const readSessionsRequestSchema = authenticatedRequestSchema;

export const logoutSessionRequestSchema = authenticatedRequestSchema.extend({ session: z.object({ id: idSchema }) });

export const logoutEverywhereRequestSchema = authenticatedRequestSchema;

import { z } from 'zod';
import { apiRequestSchema, guestCredentialsSchema, idSchema, languageSchema, tokenSchema } from './envelope.ts';
import { isValidTriggerBodyTemplate } from './collaboration.ts';
import { JAIL_STATUSES } from '../jail-vocabulary.ts';

/**
 * The guest calls of docs/api.md (Guest calls): request bodies and the guest payload. A field
 * rule's error names a message key (src/shared/messages.ts), so a rejected
 * field is explained in the caller's language. Fields a schema does not name
 * are dropped, never stored.
 */

export const TITLE_MAX_LENGTH = 50;
export const EMAIL_MAX_LENGTH = 254;
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;
export const TRIGGER_URL_MAX_LENGTH = 2_000;
export const TRIGGER_BODY_MAX_LENGTH = 10_000;

/** A username: 1 to 50 characters after trimming, without '@' (which marks an e-mail at sign-in). */
export const titleSchema = z
  .string({ error: 'title_invalid' })
  .trim()
  .min(1, { error: 'title_invalid' })
  .max(TITLE_MAX_LENGTH, { error: 'title_invalid' })
  .refine((title) => !title.includes('@'), { error: 'title_invalid' });

/** An e-mail address, trimmed and lower-cased. */
export const emailSchema = z
  .string({ error: 'email_invalid' })
  .trim()
  .max(EMAIL_MAX_LENGTH, { error: 'email_invalid' })
  .pipe(z.email({ error: 'email_invalid' }))
  .transform((email) => email.toLowerCase());

/** A new password: 8 to 128 characters (OWASP's minimum length). */
export const passwordSchema = z
  .string({ error: 'password_invalid' })
  .min(PASSWORD_MIN_LENGTH, { error: 'password_invalid' })
  .max(PASSWORD_MAX_LENGTH, { error: 'password_invalid' });

/**
 * A phone number as typed ('090-1234-5678', '+81 90 1234 5678'), kept as
 * its digits with an optional leading '+': 7 to 15 digits.
 */
export const phoneSchema = z
  .string({ error: 'phone_invalid' })
  .max(30, { error: 'phone_invalid' })
  .regex(/^\+?[0-9 ()-]+$/, { error: 'phone_invalid' })
  .transform((phone) => phone.replace(/[^0-9+]/g, ''))
  .refine((phone) => /^\+?[0-9]{7,15}$/.test(phone), { error: 'phone_invalid' });

/** The 6 digits of an SMS code as typed. */
export const phoneCodeDigitsSchema = z
  .string({ error: 'phone_code_wrong' })
  .trim()
  .regex(/^[0-9]{6}$/, { error: 'phone_code_wrong' });

/** The browser's offset from UTC in minutes, as `Date.prototype.getTimezoneOffset` gives it (Tokyo: -540). */
export const timezoneSchema = z.number().int().min(-840).max(840);

export const triggerMethodSchema = z.enum(['POST', 'GET']);

const triggerUrlSchema = z.url({ protocol: /^https?$/ }).max(TRIGGER_URL_MAX_LENGTH);

// --- Requests -----------------------------------------------------------------

export const guestCreateRequestSchema = z.object({
  api: apiRequestSchema,
  guest: z.object({
    title: titleSchema,
    email: emailSchema,
    password: passwordSchema,
    timezone: timezoneSchema,
    language: languageSchema,
  }),
});

/** Sign-in by username or e-mail (`guest.title` holds either) and password. */
export const guestAuthenticateRequestSchema = z.object({
  api: apiRequestSchema,
  guest: z.object({
    title: z.string().trim().min(1).max(EMAIL_MAX_LENGTH),
    password: z.string().min(1).max(PASSWORD_MAX_LENGTH),
  }),
});

export const guestAuthenticateAsFacilitatorRequestSchema = z.object({
  api: apiRequestSchema,
  guest: z.object({ id: idSchema }),
  facilitator: z.object({ token: tokenSchema }),
});

/**
 * `/guest/update`: the client sends its whole guest object; only these
 * fields change. `null` or a missing field leaves the value as it is, except
 * `triggerUrl` and `triggerBody`, which `null` clears. A new `phone` needs
 * `phoneCode`, the digits of the SMS code sent to it; a new `email` needs
 * `currentPassword`, the account's password, and waits as `pendingEmail`
 * until the link mailed to it is opened.
 */
export const guestUpdateRequestSchema = z.object({
  api: apiRequestSchema,
  guest: guestCredentialsSchema.extend({
    title: titleSchema.nullish(),
    email: emailSchema.nullish(),
    currentPassword: z.string().max(PASSWORD_MAX_LENGTH).nullish(),
    phone: z.union([z.literal(''), phoneSchema]).nullish(),
    phoneCode: z.union([z.literal(''), phoneCodeDigitsSchema]).nullish(),
    language: languageSchema.nullish(),
    timezone: timezoneSchema.nullish(),
    webhookEnabled: z.boolean().nullish(),
    triggerEnabled: z.boolean().nullish(),
    triggerMethod: triggerMethodSchema.nullish(),
    triggerUrl: z.union([z.literal(''), triggerUrlSchema]).nullish(),
    triggerBody: z
      .string()
      .max(TRIGGER_BODY_MAX_LENGTH)
      .refine((body) => body.trim() === '' || isValidTriggerBodyTemplate(body), { error: 'trigger_body_invalid' })
      .nullish(),
  }),
});

export const guestRequestPhoneCodeRequestSchema = z.object({
  api: apiRequestSchema,
  guest: guestCredentialsSchema.extend({ phone: phoneSchema }),
});

/** `/guest/verifyEmail`: `guest.token` is the token of the link, not a session. */
export const guestVerifyEmailRequestSchema = z.object({
  api: apiRequestSchema,
  guest: z.object({ token: tokenSchema }),
});

export const guestUpdatePasswordEmailRequestSchema = z.object({
  api: apiRequestSchema,
  guest: z.object({ email: emailSchema }),
});

/**
 * `/guest/updatePassword` and `/guest/takeBack`: `guest.token` is the token
 * of the reset link, or of the way back mailed after an e-mail change.
 */
export const guestUpdatePasswordRequestSchema = z.object({
  api: apiRequestSchema,
  guest: z.object({ token: tokenSchema, password: passwordSchema }),
});

/**
 * `/guest/delete` (docs/privacy.md, Deletion): the account's password beside
 * the session; a missing or wrong one is the failure of a wrong password.
 */
export const guestDeleteRequestSchema = z.object({
  api: apiRequestSchema,
  guest: guestCredentialsSchema,
  password: z.string({ error: 'current_password_wrong' }).max(PASSWORD_MAX_LENGTH, { error: 'current_password_wrong' }),
  /** Only checks the password (counted as every try is), deleting nothing: the form's first step, before it asks once more. */
  passwordCheckOnly: z.literal(true).optional(),
});

// --- Answers ------------------------------------------------------------------

/** What a guest may see of their own account. Never a password hash; `token` only when a session starts. */
export const guestSchema = z.object({
  id: z.number(),
  title: z.string(),
  email: z.string(),
  /** A new address the guest asked for, waiting for its link to be opened; `email` stays in force until then. */
  pendingEmail: z.string().nullable(),
  isVerified: z.boolean(),
  language: languageSchema,
  timezone: z.number(),
  phone: z.string().nullable(),
  subscriptionPlan: z.number(),
  subscriptionCreatedAt: z.number().nullable(),
  subscriptionExpiredAt: z.number().nullable(),
  isSleeper: z.boolean(),
  isLimMember: z.boolean(),
  jailStatus: z.enum(JAIL_STATUSES).nullable(),
  jailStatusUpdated: z.number().nullable(),
  lazyAlerts: z.array(z.object({ created: z.number() })),
  totalDurationThisMonth: z.number(),
  suspendedUntil: z.number().nullable(),
  earlyFinishBlockUntil: z.number().nullable(),
  webhookEnabled: z.boolean(),
  triggerEnabled: z.boolean(),
  /** The last characters of the webhook token: the token itself is shown only when it is made. */
  webhookTokenHint: z.string().nullable(),
  /** The last characters of the calendar feed's token, or null while there is no feed (docs/calendar.md). */
  calendarFeedHint: z.string().nullable(),
  triggerMethod: triggerMethodSchema,
  triggerUrl: z.string().nullable(),
  triggerBody: z.string().nullable(),
  createdAt: z.number(),
  /** When a facilitator last signed in as the guest (the account menu says so), or null. */
  facilitatorSignedInAt: z.number().nullable(),
  token: z.string().optional(),
});
export type Guest = z.infer<typeof guestSchema>;

/**
 * How long after a code another may be asked for the same number: the
 * server refuses sooner ones ('phone_code_wait'), and the code screen counts
 * down to it before it offers to send again.
 */
export const PHONE_CODE_RESEND_WAIT_MS = 60_000;

/** `/guest/requestPhoneCode` answers an opaque id of the request; the code itself goes only by SMS. */
export const phoneCodeSchema = z.string();

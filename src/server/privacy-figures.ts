import { CHECK_IN_WINDOW_MS, PATROL_IMAGE_MAX_SIDE_PX, PATROL_MAX_LOGS_PER_SESSION } from '../shared/constants.ts';
import { DAY_MS, HOUR_MS, MINUTE_MS, SECOND_MS } from '../shared/durations.ts';
import { ALERT_WINDOW_MS } from '../shared/penalties.ts';
import { DEFAULT_SESSION_IDLE_DAYS, DEFAULT_SESSION_MAX_DAYS } from './config.ts';
import { PATROL_RETENTION_MS, PURGE_INTERVAL_MS } from './jail/scheduler.ts';
import { LONGEST_RATE_WINDOW_MS } from './lib/rate-limiter.ts';
import { MAIL_LINK_LIFETIME_MS } from './services/mail-links.ts';
import { PHONE_CODE_LIFETIME_MS } from './services/phone-codes.ts';
import { FACILITATOR_SESSION_MS } from './services/sessions.ts';
import { ERROR_LOG_RETENTION_MS, EXPIRED_PHONE_CODE_KEPT_MS, TRIGGER_DELIVERY_RETENTION_MS } from './services/purge.ts';
import { WARDEN_AUDIT_RETENTION_DAYS } from './services/warden-audit.ts';

/** The units a figure of the page is written in. */
const DURATION_MS = { second: SECOND_MS, minute: MINUTE_MS, hour: HOUR_MS, day: DAY_MS } as const;
type DurationUnit = keyof typeof DURATION_MS;
export type FigureUnit = DurationUnit | 'pixel' | 'image';

export interface Figure {
  value: number;
  unit: FigureUnit;
}

/** A duration of the code in the unit the page writes it in; never a fraction, so that the page can state it exactly. */
function duration(ms: number, unit: DurationUnit): Figure {
  const value = ms / DURATION_MS[unit];
  if (!Number.isInteger(value)) throw new Error(`${ms} ms is not a whole number of ${unit}s`);
  return { value, unit };
}

/**
 * Every figure that privacy.html states about what leaves the device and how
 * long what is kept stays, taken from the constants the code runs on (never
 * typed again here): the one list of them (docs/privacy.md, Retention). The
 * page marks each one, in both languages, as
 * `<data data-figure="patrolImages" value="7">7</data>` followed by its unit;
 * src/server/privacy-page.test.ts fails when a marked figure disagrees with
 * this list or a figure is missing from either language.
 */
export const PRIVACY_FIGURES = {
  /** A patrol image's long side at most (the device makes it so, the server refuses larger). */
  patrolImageSide: { value: PATROL_IMAGE_MAX_SIDE_PX, unit: 'pixel' },
  /** Patrol images of one jail at most. */
  patrolImagesPerJail: { value: PATROL_MAX_LOGS_PER_SESSION, unit: 'image' },
  /** An answer to the Warden's check-in within this long keeps a weakly seen alert (away, nodding) on the device. */
  checkInWindow: duration(CHECK_IN_WINDOW_MS, 'second'),
  /** The console's card of a live jail shows its alerts of this last while. */
  consoleAlerts: duration(ALERT_WINDOW_MS, 'minute'),
  /** Patrol images are deleted this long after their jail ends. */
  patrolImages: duration(PATROL_RETENTION_MS, 'day'),
  /** A session ends after this long unused (the default of `SESSION_IDLE_DAYS`). */
  sessionIdle: duration(DEFAULT_SESSION_IDLE_DAYS * DAY_MS, 'day'),
  /** ... and this long after sign-in whatever its use (the default of `SESSION_MAX_DAYS`). */
  sessionLifetime: duration(DEFAULT_SESSION_MAX_DAYS * DAY_MS, 'day'),
  /** A facilitator's sign-in ends this long after it began. */
  facilitatorSession: duration(FACILITATOR_SESSION_MS, 'hour'),
  /** The mailed link that verifies an address works this long. */
  verifyEmailLink: duration(MAIL_LINK_LIFETIME_MS.verify_email, 'hour'),
  /** The mailed password-reset link works this long. */
  resetPasswordLink: duration(MAIL_LINK_LIFETIME_MS.reset_password, 'hour'),
  /** The way back mailed to the former address after an address change works this long. */
  takeBackLink: duration(MAIL_LINK_LIFETIME_MS.take_back, 'day'),
  /** A code sent by SMS works this long ... */
  phoneCode: duration(PHONE_CODE_LIFETIME_MS, 'minute'),
  /** ... and, unused, is deleted this long after it expired. */
  expiredPhoneCode: duration(EXPIRED_PHONE_CODE_KEPT_MS, 'hour'),
  /** A rate-limit counter (it names the network address or the account) lasts at most this long. */
  rateLimitWindow: duration(LONGEST_RATE_WINDOW_MS, 'hour'),
  /** How often the purge runs (what is past its time goes at the next run). */
  purgeInterval: duration(PURGE_INTERVAL_MS, 'hour'),
  /** Client error reports are deleted this long after they came. */
  errorLogs: duration(ERROR_LOG_RETENTION_MS, 'day'),
  /** The record of wardens opening jails and starting live video is deleted this long after each entry. */
  wardenAudit: duration(WARDEN_AUDIT_RETENTION_DAYS * DAY_MS, 'day'),
  /** Trigger calls that are over are deleted this long after their jail finished. */
  triggerDeliveries: duration(TRIGGER_DELIVERY_RETENTION_MS, 'day'),
} as const satisfies Record<string, Figure>;

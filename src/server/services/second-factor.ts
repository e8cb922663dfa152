import { and, eq, gt, isNull, lt, lte, or } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import type { SecondFactorEnrolment } from '../../shared/api/warden.ts';
import type { Database } from '../db/database.ts';
import { wardenSignIns, wardens } from '../db/schema/index.ts';
import { ApiFailure } from '../lib/api.ts';
import { RATE_RULES, type RateLimiter } from '../lib/rate-limiter.ts';
import { hashToken, newToken } from '../lib/secrets.ts';
import { startWardenSession, type WardenIdentity } from './wardens.ts';

/**
 * The wardens' second factor (docs/sessions.md, Console sessions): a TOTP
 * code (RFC 6238: HMAC-SHA1, 6 digits, 30-second steps, what every
 * authenticator app reads from the QR code) after the password, through a
 * sign-in ticket. A warden without one enrols at the sign-in: the console
 * opens only with a second factor.
 */

/** What the authenticator app shows beside the code. */
const ISSUER = 'Warden';

/** 160 bits, the size RFC 4226 recommends for HMAC-SHA1. */
const SECRET_BYTES = 20;

/** One step either side of now: a phone's clock a little off, or a code typed as it turned. */
const STEP_WINDOW = 1;

/** Between the password and the code: time to open the app, or to scan the QR code and read the first code. */
export const SIGN_IN_TICKET_MS = 10 * 60_000;

function totp(secret: string, label = ''): TOTP {
  return new TOTP({ issuer: ISSUER, label, secret: Secret.fromBase32(secret) });
}

/**
 * The time step a code belongs to, if it is the code of a step within the
 * window around `timestamp`; null otherwise. The authenticator counts the
 * world's time, so the caller passes the real clock, not the development one.
 */
export function matchingStep(secret: string, code: string, timestamp: number): number | null {
  const generator = totp(secret);
  const delta = generator.validate({ token: code, timestamp, window: STEP_WINDOW });
  return delta === null ? null : generator.counter({ timestamp }) + delta;
}

/** What the console shows to enrol: the secret to type, its `otpauth:` address and that address as a QR code (SVG). */
async function enrolmentOf(secret: string, email: string): Promise<SecondFactorEnrolment> {
  const uri = totp(secret, email).toString();
  return { secret, uri, qrSvg: await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 }) };
}

/**
 * After the right password: a ticket for the code. A warden without a
 * second factor gets a new secret with it, which becomes theirs only with
 * its first right code.
 */
export async function beginSignIn(
  db: Database,
  warden: { id: number; email: string; secondFactorSecret: string | null },
  now: number,
): Promise<{ ticket: string; enrolment: SecondFactorEnrolment | null }> {
  const ticket = newToken();
  const enrolSecret = warden.secondFactorSecret === null ? new Secret({ size: SECRET_BYTES }).base32 : null;
  await db.insert(wardenSignIns).values({ tokenHash: hashToken(ticket), wardenId: warden.id, enrolSecret, expiresAt: now + SIGN_IN_TICKET_MS });
  return { ticket, enrolment: enrolSecret === null ? null : await enrolmentOf(enrolSecret, warden.email) };
}

/**
 * The code of a sign-in ticket: right, it opens a console session and uses
 * the ticket up. Wrong tries of a warden are limited (counted before the
 * check), and a code is good once: the step it belongs to must come after
 * the last one accepted, claimed in the same statement, so neither a replay
 * nor the same code sent twice at once opens a second session.
 */
export async function confirmSignIn(
  db: Database,
  rateLimiter: RateLimiter,
  input: { ticket: string; code: string },
  now: number,
  worldNow: number,
): Promise<WardenIdentity & { token: string }> {
  const tokenHash = hashToken(input.ticket);
  const [pending] = await db
    .select({ id: wardens.id, title: wardens.title, enrolSecret: wardenSignIns.enrolSecret, secret: wardens.secondFactorSecret })
    .from(wardenSignIns)
    .innerJoin(wardens, eq(wardens.id, wardenSignIns.wardenId))
    .where(and(eq(wardenSignIns.tokenHash, tokenHash), gt(wardenSignIns.expiresAt, now), isNull(wardens.disabledAt)));
  const secret = pending?.enrolSecret ?? pending?.secret ?? null;
  if (pending === undefined || secret === null) throw new ApiFailure('warden_sign_in_expired');
  const opened: { token?: string } = {};
  const accepted = await rateLimiter.attempt(`warden-second-factor:${pending.id}`, RATE_RULES.secondFactorFailuresPerWarden, async () => {
    const step = matchingStep(secret, input.code, worldNow);
    if (step === null) return false;
    return db.transaction(async (tx) => {
      const claimed = await tx
        .update(wardens)
        .set({ secondFactorSecret: secret, secondFactorLastStep: step })
        .where(
          and(
            eq(wardens.id, pending.id),
            // Enrolling: only while the warden has no secret; else only the secret the ticket was checked against.
            pending.enrolSecret === null ? eq(wardens.secondFactorSecret, secret) : isNull(wardens.secondFactorSecret),
            or(isNull(wardens.secondFactorLastStep), lt(wardens.secondFactorLastStep, step)),
          ),
        )
        .returning({ id: wardens.id });
      if (claimed.length === 0) return false;
      const used = await tx.delete(wardenSignIns).where(eq(wardenSignIns.tokenHash, tokenHash)).returning({ tokenHash: wardenSignIns.tokenHash });
      // Another code of the same ticket got there first: this transaction claims nothing.
      if (used.length === 0) throw new ApiFailure('warden_sign_in_expired');
      opened.token = await startWardenSession(tx, pending.id, now);
      return true;
    });
  });
  if (!accepted || opened.token === undefined) throw new ApiFailure('second_factor_code_wrong');
  return { id: pending.id, title: pending.title, token: opened.token };
}

/** A sign-in ticket past its time. */
export async function purgeWardenSignIns(db: Database, now: number): Promise<void> {
  await db.delete(wardenSignIns).where(lte(wardenSignIns.expiresAt, now));
}

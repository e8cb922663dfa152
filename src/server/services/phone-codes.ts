import { and, desc, eq, isNull, lt, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { message } from '../../shared/messages.ts';
import { phoneCodes, type GuestRow } from '../db/schema/index.ts';
import { ApiFailure, clientAddress } from '../lib/api.ts';
import { RATE_RULES } from '../lib/rate-limiter.ts';
import { hashToken, newSixDigitCode, newToken, sameHash } from '../lib/secrets.ts';

/** A code works for 10 minutes ... */
export const PHONE_CODE_LIFETIME_MS = 10 * 60 * 1000;
/** ... and for at most 5 tries. */
const PHONE_CODE_MAX_TRIES = 5;

function codeHash(requestId: string, code: string): string {
  return hashToken(`${requestId}:${code}`);
}

/**
 * Sends a 6-digit code by SMS to the number, for this guest, and returns
 * the opaque id of the request (never the code). Another code to the same
 * number waits a minute, and at most 3 codes go to one number in 10 minutes.
 */
export async function sendPhoneCode(app: FastifyInstance, request: FastifyRequest, guest: GuestRow, phone: string): Promise<string> {
  // The wait first, so that a request too soon uses up none of the other limits.
  if (!(await app.rateLimiter.hit(`phone-code:wait:${phone}`, RATE_RULES.phoneCodeResendWait))) {
    throw new ApiFailure('phone_code_wait');
  }
  await app.rateLimiter.enforce(`phone-code:address:${clientAddress(request)}`, RATE_RULES.phoneCodesPerAddress);
  await app.rateLimiter.enforce(`phone-code:guest:${guest.id}`, RATE_RULES.phoneCodesPerGuest);
  if (!(await app.rateLimiter.hit(`phone-code:number:${phone}`, RATE_RULES.phoneCodesPerNumber))) {
    throw new ApiFailure('phone_code_limit');
  }
  const id = newToken();
  const code = newSixDigitCode();
  const now = app.clock.now();
  await app.db.insert(phoneCodes).values({
    id,
    guestId: guest.id,
    phone,
    codeHash: codeHash(id, code),
    createdAt: now,
    expiresAt: now + PHONE_CODE_LIFETIME_MS,
  });
  app.outbox.send({ channel: 'sms', to: phone, subject: '', text: message(guest.language, 'phone_code_sms', { code }) });
  return id;
}

/**
 * Checks the digits typed against the newest code sent to the number for the
 * guest, counting a try; uses the code up when they match. Fails with 'Your
 * code is wrong', or 'expired' once the code is 10 minutes old or tried 5 times.
 */
export async function checkPhoneCode(app: FastifyInstance, guestId: number, phone: string, digits: string): Promise<void> {
  const now = app.clock.now();
  const [latest] = await app.db
    .select({ id: phoneCodes.id, expiresAt: phoneCodes.expiresAt })
    .from(phoneCodes)
    .where(and(eq(phoneCodes.guestId, guestId), eq(phoneCodes.phone, phone), isNull(phoneCodes.usedAt)))
    .orderBy(desc(phoneCodes.createdAt))
    .limit(1);
  if (latest === undefined) throw new ApiFailure('phone_code_wrong');
  if (latest.expiresAt <= now) throw new ApiFailure('phone_code_expired');
  const [tried] = await app.db
    .update(phoneCodes)
    .set({ tries: sql`${phoneCodes.tries} + 1` })
    .where(and(eq(phoneCodes.id, latest.id), lt(phoneCodes.tries, PHONE_CODE_MAX_TRIES), isNull(phoneCodes.usedAt)))
    .returning({ codeHash: phoneCodes.codeHash });
  if (tried === undefined) throw new ApiFailure('phone_code_expired');
  if (!sameHash(tried.codeHash, codeHash(latest.id, digits))) throw new ApiFailure('phone_code_wrong');
  await app.db.update(phoneCodes).set({ usedAt: now }).where(eq(phoneCodes.id, latest.id));
}

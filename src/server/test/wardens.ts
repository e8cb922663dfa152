import { Secret, TOTP } from 'otpauth';

/**
 * A warden's sign-in as the console makes it, for tests at every level
 * (inject, HTTP, the browser's helpers): the password, then the code of an
 * authenticator app, enrolling one at the first sign-in.
 */

const STEP_MS = 30_000;

/** The last step each secret's codes were made for here: the server takes a step's code once. */
const lastSteps = new Map<string, number>();

/** The code of the authenticator app with `secret` for the time step of `timestamp`. */
export function totpCode(secret: string, timestamp: number): string {
  return new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp });
}

/**
 * A code the server has not taken yet: the current step's, or the next
 * one's when this step's was used (the server accepts a step either side).
 */
export function freshCode(secret: string): string {
  const now = Math.floor(Date.now() / STEP_MS);
  const step = Math.max(now, (lastSteps.get(secret) ?? -1) + 1);
  if (step > now + 1) throw new Error('a third sign-in of one warden within 30 seconds: the server would take no code; use another warden');
  lastSteps.set(secret, step);
  return totpCode(secret, step * STEP_MS);
}

/** Makes one call and answers its success payload (it throws on a refusal). */
export type SucceedingCall = (path: string, body: Record<string, unknown>) => Promise<Record<string, unknown>>;

interface SignInAnswer {
  signIn: { ticket: string; enrolment: { secret: string } | null };
}

/**
 * Signs the warden in through both steps; enrols a new authenticator when
 * the server offers one. Answers the console session's token and the secret.
 */
export async function signInWarden(
  call: SucceedingCall,
  warden: { email: string; password: string; secret?: string },
): Promise<{ id: number; token: string; secret: string }> {
  const { signIn } = (await call('/warden/authenticate', { warden: { email: warden.email, password: warden.password } })) as unknown as SignInAnswer;
  const secret = signIn.enrolment?.secret ?? warden.secret;
  if (secret === undefined) throw new Error(`${warden.email} has a second factor this test does not know`);
  const confirmed = await call('/warden/confirmCode', { warden: { ticket: signIn.ticket, code: freshCode(secret) } });
  const { id, token } = confirmed.warden as { id: number; token: string };
  return { id, token, secret };
}

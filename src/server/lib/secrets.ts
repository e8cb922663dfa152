import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

/** A new random token: 256 bits, base64url (43 characters). */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What the database keeps of a token: its SHA-256, hex. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Whether two token hashes are equal, in constant time. */
export function sameHash(left: string, right: string): boolean {
  const a = Buffer.from(left);
  const b = Buffer.from(right);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Six random digits for an SMS code. */
export function newSixDigitCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

/**
 * Argon2id (the library's default algorithm) at OWASP's minimum: 19 MiB of
 * memory, 2 passes, 1 lane. A test reads the parameters back from a hash.
 */
const ARGON2_OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

/** Whether the password matches the hash; false for a malformed hash. */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/**
 * A hash of no one's password, verified when a sign-in names an unknown
 * account so that it takes as long as a wrong password.
 */
let decoyHash: Promise<string> | null = null;
export async function verifyDecoyPassword(password: string): Promise<false> {
  decoyHash ??= hashPassword(newToken());
  await verifyPassword(await decoyHash, password);
  return false;
}

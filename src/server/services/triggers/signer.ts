import { createHmac, randomBytes } from 'node:crypto';

/**
 * Standard Webhooks signing (https://www.standardwebhooks.com): the secret
 * is `whsec_` and the base64 of its key bytes; each call carries
 * `webhook-id`, `webhook-timestamp` (seconds) and `webhook-signature`
 * `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`.
 */

const SECRET_PREFIX = 'whsec_';
/** 24 random bytes: 192 bits, the range the standard asks for (24 to 64 bytes). */
const SECRET_BYTES = 24;

export function newTriggerSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(SECRET_BYTES).toString('base64')}`;
}

/** A delivery's id, kept through its retries so that the receiver can drop repeats. */
export function newDeliveryId(): string {
  return `msg_${randomBytes(16).toString('base64url')}`;
}

export interface SignatureHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

export function signatureHeaders(secret: string, id: string, timestampSeconds: number, body: string): SignatureHeaders {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  const signature = createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
  return { 'webhook-id': id, 'webhook-timestamp': String(timestampSeconds), 'webhook-signature': `v1,${signature}` };
}

import { createECDH, createPublicKey, type ECDH, randomBytes, randomUUID, verify } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import ece from 'http_ece';
import { type ReminderPayload, reminderPayloadSchema } from '../../shared/api/reminders.ts';

/** A message the push service took. */
export interface ReceivedPush {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/**
 * A local push service for the reminder tests: it records each message and
 * answers the next status of its queue (201 when empty). The server may call
 * it only because the test sets `PUSH_ALLOW_HOSTS=127.0.0.1`.
 */
export class LocalPushService {
  readonly received: ReceivedPush[] = [];
  readonly statuses: number[] = [];
  private readonly server: Server;
  url = '';

  constructor() {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        this.received.push({ path: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks) });
        response.writeHead(this.statuses.shift() ?? 201).end();
      });
    });
  }

  async listen(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    await new Promise((resolve) => this.server.close(resolve));
  }

  /** Forgets what was received and queued. */
  reset(): void {
    this.received.length = 0;
    this.statuses.length = 0;
  }

  /** A browser subscribed at this service. */
  newBrowser(): TestBrowser {
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    return new TestBrowser(ecdh, randomBytes(16), `${this.url}/push/${randomUUID()}`);
  }
}

/** A browser as the push service knows it: its subscription and the private key the payload is encrypted to. */
export class TestBrowser {
  constructor(
    private readonly ecdh: ECDH,
    private readonly auth: Buffer,
    readonly endpoint: string,
  ) {}

  /** What `PushSubscription.toJSON()` gives, as `/guest/addPushDevice` takes it. */
  subscription(label: string) {
    return { endpoint: this.endpoint, keys: { p256dh: this.ecdh.getPublicKey('base64url'), auth: this.auth.toString('base64url') }, label };
  }

  /** The messages sent to this browser. */
  messages(service: LocalPushService): ReceivedPush[] {
    return service.received.filter((push) => push.path === new URL(this.endpoint).pathname);
  }

  /** Decrypts a message as the browser would (RFC 8291, aes128gcm) with Mozilla's reference library. */
  open(push: ReceivedPush): ReminderPayload {
    const plain = ece.decrypt(push.body, { version: 'aes128gcm', privateKey: this.ecdh, authSecret: this.auth });
    return reminderPayloadSchema.parse(JSON.parse(plain.toString('utf8')));
  }
}

/** Whether the VAPID header (RFC 8292) is signed by `publicKey` for `audience`, as a push service checks it. */
export function vapidClaims(push: ReceivedPush, publicKey: string): { aud: string; sub: string; exp: number } | null {
  const match = /^vapid t=([^,]+), k=(.+)$/.exec(String(push.headers.authorization));
  if (match?.[2] !== publicKey) return null;
  const [header, claims, signature] = (match[1] ?? '').split('.');
  const point = Buffer.from(publicKey, 'base64url');
  const key = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') },
    format: 'jwk',
  });
  if (!verify('sha256', Buffer.from(`${header}.${claims}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature ?? '', 'base64url'))) return null;
  return JSON.parse(Buffer.from(claims ?? '', 'base64url').toString('utf8')) as { aud: string; sub: string; exp: number };
}

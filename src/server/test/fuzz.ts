import { seededRandom } from '../../../bench/frames.ts';

/**
 * Random and malformed request bodies for the fuzz pass: a seeded generator,
 * so that a failure can be replayed, of JSON values built from the words the
 * API uses, with real credentials planted at times so that the handlers
 * behind authentication are reached too.
 */

const WORDS = [
  'api',
  'language',
  'guest',
  'id',
  'token',
  'title',
  'email',
  'password',
  'phone',
  'phoneCode',
  'timezone',
  'facilitator',
  'errorLog',
  'text',
  'reservation',
  'work',
  'duration',
  'startTime',
  'endTime',
  'repeatType',
  'dailyRepeatSettings',
  'schedules',
  'minutes',
  'isVerified',
  'subscriptionPlan',
  'triggerUrl',
  'triggerBody',
  'triggerMethod',
  'webhookEnabled',
  'warden',
  '__proto__',
  'constructor',
  '',
];

const STRINGS = [
  '',
  ' ',
  'en',
  'ja',
  'fr',
  'null',
  '0',
  '-1',
  '1',
  '12',
  '1e3',
  '123456',
  'guest@example.com',
  'not an e-mail',
  'Robert"); DROP TABLE guests;--',
  "' OR 1=1 --",
  '<script>alert(1)</script>',
  '日本語のテキスト',
  '😀'.repeat(20),
  '\ud800',
  '\u0000',
  'a\u0000b',
  '../../etc/passwd',
  '%00',
  'POST',
  'GET',
  'https://example.com/x',
  'javascript:alert(1)',
  'x'.repeat(300),
  'y'.repeat(20_000),
  '2024-01-01',
  '+81 90-1234-5678',
  'weekly',
  'daily',
  'none',
];

const NUMBERS = [0, -0, 1, -1, 1.5, 2, 12, 255, 2_147_483_647, 2_147_483_648, -2_147_483_649, 9_007_199_254_740_993, 1e308, -1e308, 5e-324, 540, -540, 841];

export interface FuzzCredentials {
  id: number;
  token: string;
}

/**
 * A body every call accepts in its shape: the fields of all the calls at
 * once, each valid (a schema drops the fields it does not name). Mutating one
 * field of it reaches past validation into the handlers.
 */
export function supersetBody(credentials: FuzzCredentials, now: number): Record<string, unknown> {
  return {
    api: { language: 'en' },
    guest: {
      ...credentials,
      title: 'fuzzed guest',
      email: 'fuzz@example.com',
      password: 'a long enough password',
      phone: '09012345678',
      phoneCode: '123456',
      timezone: -540,
      language: 'ja',
      webhookEnabled: true,
      triggerMethod: 'GET',
      triggerUrl: 'https://example.com/hook',
      triggerBody: '{}',
    },
    facilitator: { token: 'a'.repeat(43) },
    warden: { email: 'fuzz-warden@example.com', password: 'a long enough password', token: 'b'.repeat(43) },
    errorLog: { text: 'TypeError: x is undefined' },
    reservation: {
      id: 1,
      work: 'Write the report',
      duration: 1.5,
      startTime: now + 2 * 24 * 3_600_000,
      repeatType: 'weekly',
      dailyRepeatSettings: [1, 2, 3],
      schedules: [{ minutes: 30, title: 'outline' }],
    },
  };
}

export class BodyFuzzer {
  private readonly random: () => number;

  constructor(
    seed: number,
    private readonly credentials: FuzzCredentials,
  ) {
    const next = seededRandom(seed);
    this.random = () => next() / 4_294_967_296;
  }

  private pick<Item>(items: readonly Item[]): Item {
    const item = items[Math.floor(this.random() * items.length)];
    if (item === undefined) throw new Error('pick from an empty list');
    return item;
  }

  /** A random JSON value, shallower as `depth` grows. */
  value(depth = 0): unknown {
    const roll = this.random();
    if (depth > 3 || roll < 0.3) return this.pick<unknown>([null, true, false, this.pick(NUMBERS), this.pick(STRINGS)]);
    if (roll < 0.45) return Array.from({ length: Math.floor(this.random() * 4) }, () => this.value(depth + 1));
    return this.object(depth + 1);
  }

  private object(depth: number): Record<string, unknown> {
    const object: Record<string, unknown> = {};
    const size = Math.floor(this.random() * 5);
    for (let i = 0; i < size; i += 1) object[this.pick(WORDS)] = this.value(depth);
    return object;
  }

  /** The template with one field replaced by a random value, or removed. */
  mutated(template: Record<string, unknown>): unknown {
    const body: unknown = structuredClone(template);
    let parent: unknown = body;
    let key: string | undefined;
    // Walk down a random path of objects and stop at a random depth.
    for (;;) {
      if (typeof parent !== 'object' || parent === null) break;
      const keys = Object.keys(parent);
      const next = keys[Math.floor(this.random() * keys.length)];
      if (next === undefined) break;
      const child: unknown = Reflect.get(parent, next);
      if (typeof child !== 'object' || child === null || this.random() < 0.3) {
        key = next;
        break;
      }
      parent = child;
    }
    if (key !== undefined && typeof parent === 'object' && parent !== null) {
      if (this.random() < 0.15) Reflect.deleteProperty(parent, key);
      else Reflect.set(parent, key, this.value(2));
    }
    return body;
  }

  /**
   * A body shaped like a request: usually a good `api` block, a `guest`
   * block with real credentials half the time, and random fields around.
   */
  body(): unknown {
    if (this.random() < 0.15) return this.value();
    const body = this.object(1);
    if (this.random() < 0.8) body.api = { language: this.random() < 0.8 ? this.pick(['en', 'ja']) : this.value(2) };
    if (this.random() < 0.6) {
      const guest = this.object(2);
      if (this.random() < 0.6) Object.assign(guest, this.credentials);
      body.guest = guest;
    }
    return body;
  }
}

/** Payloads that are not JSON objects at all, or not JSON. */
export const MALFORMED_PAYLOADS: readonly string[] = [
  '',
  '{',
  '{"api":',
  '{"api":{"language":"en"},}',
  'null',
  '[]',
  '"text"',
  '42',
  'true',
  '{"__proto__":{"polluted":true},"api":{"language":"en"}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '[['.repeat(50_000),
  '\u0000\u0001\u0002',
  `{"api":{"language":"en"},"guest":{"id":1,"token":"${'a'.repeat(2_000_000)}"}}`,
];

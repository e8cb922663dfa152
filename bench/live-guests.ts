/**
 * What the benches that hold live guests share (`bench:relay`, `bench:chaos`):
 * a private PostgreSQL server, guests seeded straight into the database
 * (sign-ups through the API would take minutes: argon2, SMS codes, rate
 * limits), and a 5 KB patrol image.
 */

import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT_DIR, type DatabaseConfig } from '../src/server/config.ts';
import { openDatabase } from '../src/server/db/database.ts';
import { guests, reservations, sessions } from '../src/server/db/schema/index.ts';
import { jpegDataUrlSize } from '../src/server/jail/jpeg.ts';
import { hashToken, newToken } from '../src/server/lib/secrets.ts';
import { bookingSource, occurrenceRow } from '../src/server/services/reservations.ts';
import { fixedOffsetTimeZone } from '../src/shared/time-zone.ts';

const SEED_BATCH = 500;
const PATROL_BYTES = 5 * 1024;
/** Tokyo, as the browser gives it. */
export const BROWSER_OFFSET_MINUTES = -540;

/** The databases a bench with live guests runs on. */
export type DatabaseKind = 'postgres' | 'pglite';

/** `--database WHICH`: postgres, pglite, or both (PostgreSQL first). */
export function databasesArgument(which: string | undefined): DatabaseKind[] {
  if (which === 'both') return ['postgres', 'pglite'];
  if (which === 'postgres' || which === 'pglite') return [which];
  throw new Error(`--database takes postgres, pglite or both, not "${which ?? ''}"`);
}

/** A flag's whole-number value from 1 to `max`. */
export function wholeArgument(flag: string, text: string | undefined, max: number): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1 || value > max) throw new Error(`${flag} takes a whole number from 1 to ${max}, not "${text ?? ''}"`);
  return value;
}

/** A seeded guest: its id and the session token its devices hand the relay (and the API). */
export interface SeededGuest {
  id: number;
  token: string;
}

/** One reservation of a seeded guest: from `startTime` (epoch ms) for `minutes`. */
export interface SeededSlot {
  startTime: number;
  minutes: number;
}

/** A private PostgreSQL server (scripts/postgres.mjs) held by a child process; it stops when the child's stdin closes. */
export async function startPostgres(): Promise<{ url: string; stop(): void }> {
  const script = `import { startTemporaryPostgres } from './scripts/postgres.mjs';
const postgres = startTemporaryPostgres();
console.log(postgres.url);
process.stdin.resume();
process.stdin.on('end', () => process.exit(0));`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT_DIR, stdio: ['pipe', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolveUrl, reject) => {
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = /^(postgres:\/\/\S+)$/m.exec(output);
      if (line?.[1] !== undefined) resolveUrl(line[1]);
    });
    child.once('exit', (code) => reject(new Error(`the PostgreSQL helper exited with ${code ?? 'a signal'}: ${output}`)));
  });
  return { url, stop: () => child.stdin.end() };
}

/**
 * `count` verified guests with a phone (named `{name}{index}`), a session
 * each, and the reservations `slotsOf(index)` gives each (by default one
 * that is live from now for two hours). The server's scheduler starts them.
 */
export async function seedGuests(
  database: DatabaseConfig,
  count: number,
  name = 'relay',
  slotsOf: (index: number, now: number) => SeededSlot[] = (_, now) => [{ startTime: now, minutes: 120 }],
): Promise<SeededGuest[]> {
  const { db, close } = await openDatabase(database);
  try {
    const now = Date.now();
    const timeZone = fixedOffsetTimeZone(-BROWSER_OFFSET_MINUTES);
    const seeded: SeededGuest[] = [];
    for (let first = 0; first < count; first += SEED_BATCH) {
      const batch = Array.from({ length: Math.min(SEED_BATCH, count - first) }, (_, offset) => first + offset);
      const rows = await db
        .insert(guests)
        .values(
          batch.map((index) => ({
            title: `${name}${index}`,
            email: `${name}${index}@example.com`,
            // Nobody signs in: the sessions below are the way in.
            passwordHash: 'unused',
            isVerified: true,
            language: 'en' as const,
            timezone: BROWSER_OFFSET_MINUTES,
            phone: `090${String(index).padStart(8, '0')}`,
            webhookToken: newToken(),
            createdAt: now,
            updatedAt: now,
          })),
        )
        .returning({ id: guests.id });
      const tokens = rows.map(({ id }) => ({ id, token: newToken() }));
      await db.insert(sessions).values(tokens.map(({ id, token }) => ({ tokenHash: hashToken(token), guestId: id, createdAt: now, lastSeenAt: now })));
      const booked = tokens.flatMap(({ id }, offset) =>
        slotsOf(first + offset, now).map(({ startTime, minutes }) => {
          const booking = {
            work: `${name} bench`,
            duration: minutes / 60,
            startTime,
            repeatType: 'none' as const,
            dailyRepeatSettings: [0, 1, 2, 3, 4, 5, 6],
            schedules: [],
          };
          return occurrenceRow(bookingSource(id, booking, timeZone), startTime, null, now);
        }),
      );
      if (booked.length > 0) await db.insert(reservations).values(booked);
      seeded.push(...tokens);
    }
    return seeded;
  } finally {
    await close();
  }
}

/** A 5 KB JPEG of 100x75 px: the canvas-made fixture with a comment segment (COM) after its start marker. */
export async function patrolImage(): Promise<string> {
  const jpeg = await readFile(join(ROOT_DIR, 'src/server/jail/fixtures/canvas-100x75.jpg'));
  const commentLength = PATROL_BYTES - jpeg.length - 2;
  const comment = Buffer.alloc(2 + commentLength, 0x20);
  comment[0] = 0xff;
  comment[1] = 0xfe;
  comment.writeUInt16BE(commentLength, 2);
  const data = `data:image/jpeg;base64,${Buffer.concat([jpeg.subarray(0, 2), comment, jpeg.subarray(2)]).toString('base64')}`;
  const size = jpegDataUrlSize(data);
  if (!size.ok || size.width !== 100 || size.bytes !== PATROL_BYTES) throw new Error(`the padded patrol image reads as ${JSON.stringify(size)}`);
  return data;
}

/**
 * `npm run bench:progress`: how fast `POST /api/progress/read` answers a
 * guest with 2,000 finished jails (about five and a half years of one a
 * day) among 20,000 jails of 50 other guests, one call after another over
 * real HTTP on 127.0.0.1, and the progress statement alone. Target: p99
 * under 20 ms (docs/progress.md). Prints the statement's plan, to show the
 * index it uses.
 *
 * The database is in-memory PGlite, or the PostgreSQL server of
 * DATABASE_URL (the bench's guests are deleted from it afterwards).
 *
 *   npm run bench:progress                  500 calls
 *   npm run bench:progress -- --calls 2000
 *   npm run bench:progress -- --plan       also print the statement's plan
 */

import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { benchApp, listenOnLoopback } from './server-in-process.ts';
import { guests } from '../src/server/db/schema/index.ts';
import { progressStatement, readProgress } from '../src/server/services/progress.ts';
import { insertPastJails, type PastJail } from '../src/server/test/jail-history.ts';
import { fixedOffsetTimeZone } from '../src/shared/time-zone.ts';
import type { FinishKind } from '../src/shared/jail-vocabulary.ts';

const GUEST_JAILS = 2_000;
const OTHER_GUESTS = 50;
const OTHER_JAILS_EACH = 400;
const TARGET_P99_MS = 20;
const WARMUP_CALLS = 50;
const DAY_MS = 86_400_000;
/** Tokyo, as the browser gives it. */
const BROWSER_OFFSET_MINUTES = -540;
const TIME_ZONE = fixedOffsetTimeZone(-BROWSER_OFFSET_MINUTES);
const INSERT_BATCH = 500;

function callsFromArgs(args: readonly string[]): number {
  const index = args.indexOf('--calls');
  if (index === -1) return 500;
  const calls = Number(args[index + 1]);
  if (!Number.isInteger(calls) || calls < 10 || calls > 100_000) throw new Error('--calls takes a whole number from 10 to 100000');
  return calls;
}

/** `count` jails, one a day back from yesterday at 10:00 UTC: mostly held, some early, some ignored. */
function pastJails(count: number, now: number, seed: number): PastJail[] {
  const kinds: FinishKind[] = ['ended', 'ended', 'ended', 'ended', 'early', 'ignored', 'ended', 'forced'];
  return Array.from({ length: count }, (_, index) => {
    const finish = kinds[(index + seed) % kinds.length] ?? 'ended';
    const startTime = Math.floor(now / DAY_MS) * DAY_MS - (index + 1) * DAY_MS + 10 * 3_600_000;
    return { startTime, durationMinutes: 60, finish, focusedMs: finish === 'ignored' ? 0 : (30 + (index % 30)) * 60_000, work: `Bench work ${index}` };
  });
}

async function insertInBatches(insert: (batch: PastJail[]) => Promise<unknown>, jails: PastJail[]): Promise<void> {
  for (let index = 0; index < jails.length; index += INSERT_BATCH) await insert(jails.slice(index, index + INSERT_BATCH));
}

function percentile(sorted: readonly number[], share: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)] ?? Number.NaN;
}

function summary(label: string, durations: number[]): { label: string; p50: number; p95: number; p99: number } {
  const sorted = [...durations].sort((a, b) => a - b);
  return { label, p50: percentile(sorted, 0.5), p95: percentile(sorted, 0.95), p99: percentile(sorted, 0.99) };
}

/** A new guest, from an address of its own (sign-ups are limited per address). */
async function signUp(app: FastifyInstance, name: string, address: string): Promise<{ id: number; token: string }> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/guest/create',
    remoteAddress: address,
    payload: {
      api: { language: 'en' },
      guest: { title: name, email: `${name}@example.com`, password: `bench-password-${name}`, timezone: BROWSER_OFFSET_MINUTES, language: 'en' },
    },
  });
  const answer = response.json<{ guest?: { id: number; token: string } }>();
  if (answer.guest === undefined) throw new Error(`sign-up answered ${response.body}`);
  return answer.guest;
}

async function main(): Promise<void> {
  const calls = callsFromArgs(process.argv.slice(2));
  const { app, database } = await benchApp();
  const appUrl = await listenOnLoopback(app);
  const now = app.clock.now();
  const suffix = now.toString(36);
  const made: number[] = [];
  try {
    const seedStarted = performance.now();
    const guest = await signUp(app, `progress${suffix}`, '10.200.0.1');
    made.push(guest.id);
    await insertInBatches((batch) => insertPastJails(app.db, guest.id, TIME_ZONE, batch), pastJails(GUEST_JAILS, now, 0));
    for (let other = 0; other < OTHER_GUESTS; other += 1) {
      const otherGuest = await signUp(app, `progress${suffix}o${other}`, `10.200.1.${other + 1}`);
      made.push(otherGuest.id);
      await insertInBatches((batch) => insertPastJails(app.db, otherGuest.id, TIME_ZONE, batch), pastJails(OTHER_JAILS_EACH, now, other + 1));
    }
    await app.queryNamed('progress_analyze', sql`analyze`);
    console.log(
      `progress of a guest with ${GUEST_JAILS} finished jails among ${OTHER_GUESTS * OTHER_JAILS_EACH} of ${OTHER_GUESTS} other guests` +
        ` (seeded in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s); database: ${database}; ${calls} calls one after another`,
    );

    const body = JSON.stringify({ api: { language: 'en' }, guest: { id: guest.id, token: guest.token } });
    const call = async () => {
      const response = await fetch(`${appUrl}/api/progress/read`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      return (await response.json()) as { api: { status: string }; progress?: { attendance: { counted: number } } };
    };
    const first = await call();
    if (first.api.status !== 'success' || first.progress?.attendance.counted !== 20)
      throw new Error(`progress/read answered ${JSON.stringify(first).slice(0, 300)}`);

    for (let index = 0; index < WARMUP_CALLS; index += 1) await call();
    const httpDurations: number[] = [];
    for (let index = 0; index < calls; index += 1) {
      const started = performance.now();
      await call();
      httpDurations.push(performance.now() - started);
    }
    const statementDurations: number[] = [];
    for (let index = 0; index < calls; index += 1) {
      const started = performance.now();
      await readProgress(app.queryNamed, guest.id, TIME_ZONE, app.clock.now());
      statementDurations.push(performance.now() - started);
    }

    const rows = [summary('POST /api/progress/read (HTTP)', httpDurations), summary('the progress statement alone', statementDurations)];
    console.log(`\n${'measured'.padEnd(34)}${'p50 ms'.padStart(9)}${'p95 ms'.padStart(9)}${'p99 ms'.padStart(9)}`);
    for (const row of rows) {
      console.log(`${row.label.padEnd(34)}${row.p50.toFixed(2).padStart(9)}${row.p95.toFixed(2).padStart(9)}${row.p99.toFixed(2).padStart(9)}`);
    }
    const plan = await app.queryNamed<{ 'QUERY PLAN': string }>(
      'progress_plan',
      sql`explain analyze ${progressStatement(guest.id, TIME_ZONE, app.clock.now())}`,
    );
    const planText = plan.map((row) => row['QUERY PLAN']).join('\n');
    console.log(
      `\nHow the guest's jails are found: ${planText.includes('jails_guest_start') ? 'by the index jails_guest_start' : 'NOT by the index jails_guest_start'}`,
    );
    if (process.argv.includes('--plan')) console.log(planText);
    const atTarget = rows[0]?.p99 ?? Number.POSITIVE_INFINITY;
    console.log(`\nTarget: progress/read p99 < ${TARGET_P99_MS} ms: ${atTarget < TARGET_P99_MS ? 'HOLDS' : 'DOES NOT HOLD'} (p99 ${atTarget.toFixed(2)} ms)`);
    console.log(
      `(load average now ${loadavg()
        .map((load) => load.toFixed(2))
        .join(' ')})`,
    );
  } finally {
    // On a PostgreSQL server, leave nothing behind (the guests' rows go with them).
    if (made.length > 0) await app.db.delete(guests).where(inArray(guests.id, made));
    await app.close();
  }
}

main().catch((error: unknown) => {
  console.error(`bench:progress failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});

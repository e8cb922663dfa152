/**
 * `npm run bench:api`: how fast `POST /api/reservation/read_list` answers a
 * guest with 50 reservations, beside a bare Fastify route on the same
 * machine in the same run, at 10 and 100 connections. Both servers listen on
 * 127.0.0.1 in this process; autocannon fires from a worker thread so that
 * it does not share the servers' event loop.
 *
 * The database is in-memory PGlite, or the PostgreSQL server of
 * DATABASE_URL (the bench guest is deleted from it afterwards). After the
 * first request the answers come from the read cache (docs/server.md, "The
 * read cache"); the closing lines say how many did. Logging is off.
 *
 *   npm run bench:api                  10 s a measurement
 *   npm run bench:api -- --seconds 3   shorter (1 to 60)
 */

import { loadavg } from 'node:os';
import autocannon from 'autocannon';
import { eq } from 'drizzle-orm';
import Fastify, { type FastifyInstance } from 'fastify';
import { guests, reservations } from '../src/server/db/schema/index.ts';
import { bookingSource, occurrenceRow } from '../src/server/services/reservations.ts';
import { fixedOffsetTimeZone } from '../src/shared/time-zone.ts';
import { benchApp, listenOnLoopback } from './server-in-process.ts';

const RESERVATIONS = 50;
const CONNECTION_COUNTS = [10, 100] as const;
const TARGET_P99_MS = 20;
const TARGET_CONNECTIONS = 100;
const WARMUP_SECONDS = 2;
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** Tokyo, as the browser gives it. */
const BROWSER_OFFSET_MINUTES = -540;

interface Measurement {
  target: string;
  connections: number;
  requestsPerSecond: number;
  p99Ms: number;
  failures: number;
}

function secondsFromArgs(args: readonly string[]): number {
  const index = args.indexOf('--seconds');
  if (index === -1) return 10;
  const seconds = Number(args[index + 1]);
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > 60) throw new Error('--seconds takes a whole number from 1 to 60');
  return seconds;
}

/** A guest who may book, with `RESERVATIONS` reservations to come written straight into the database. */
async function seedGuest(app: FastifyInstance): Promise<{ id: number; token: string }> {
  const suffix = Date.now().toString(36);
  const signUp = await app.inject({
    method: 'POST',
    url: '/api/guest/create',
    payload: {
      api: { language: 'en' },
      guest: {
        title: `bench${suffix}`,
        email: `bench${suffix}@example.com`,
        password: `bench-password-${suffix}`,
        timezone: BROWSER_OFFSET_MINUTES,
        language: 'en',
      },
    },
  });
  const { guest } = signUp.json<{ guest: { id: number; token: string } }>();
  await app.db.update(guests).set({ isVerified: true, phone: '09012345678' }).where(eq(guests.id, guest.id));

  const timeZone = fixedOffsetTimeZone(-BROWSER_OFFSET_MINUTES);
  const now = app.clock.now();
  const firstDay = Math.floor(now / DAY_MS) * DAY_MS + DAY_MS;
  const rows = Array.from({ length: RESERVATIONS }, (_, index) => {
    // Four a day, three hours apart, over the days to come.
    const startTime = firstDay + Math.floor(index / 4) * DAY_MS + (index % 4) * 3 * HOUR_MS;
    const source = bookingSource(
      guest.id,
      {
        work: `Bench work ${index}`,
        duration: 1.5,
        startTime,
        repeatType: 'none',
        dailyRepeatSettings: [0, 1, 2, 3, 4, 5, 6],
        schedules: [
          { minutes: 30, title: 'Outline' },
          { minutes: 60, title: 'Review' },
        ],
      },
      timeZone,
    );
    return occurrenceRow(source, startTime, null, now);
  });
  await app.db.insert(reservations).values(rows);
  return guest;
}

async function measure(target: string, url: string, body: string, connections: number, seconds: number): Promise<Measurement> {
  const result = await autocannon({
    url,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
    connections,
    duration: seconds,
    workers: 1,
  });
  return {
    target,
    connections,
    requestsPerSecond: result.requests.average,
    p99Ms: result.latency.p99,
    failures: result.errors + result.timeouts + result.non2xx,
  };
}

async function main(): Promise<void> {
  const seconds = secondsFromArgs(process.argv.slice(2));
  const { app, database } = await benchApp();
  const bare = Fastify({ logger: false });
  bare.post('/bare', async () => ({ api: { status: 'success' } }));

  const guest = await seedGuest(app);
  const appUrl = await listenOnLoopback(app);
  const bareUrl = await listenOnLoopback(bare);
  const body = JSON.stringify({ api: { language: 'en' }, guest: { id: guest.id, token: guest.token } });

  try {
    const check = await fetch(`${appUrl}/api/reservation/read_list`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const text = await check.text();
    const answer = JSON.parse(text) as { api: { status: string }; reservations?: unknown[] };
    if (answer.api.status !== 'success' || answer.reservations?.length !== RESERVATIONS) {
      throw new Error(`read_list answered ${text.slice(0, 300)}`);
    }
    console.log(`read_list answers ${RESERVATIONS} reservations in ${text.length} bytes; database: ${database}; ${seconds} s a measurement`);

    await measure('warm-up', `${appUrl}/api/reservation/read_list`, body, 10, WARMUP_SECONDS);
    await measure('warm-up', `${bareUrl}/bare`, body, 10, WARMUP_SECONDS);

    const measurements: Measurement[] = [];
    for (const connections of CONNECTION_COUNTS) {
      measurements.push(await measure('bare Fastify POST /bare', `${bareUrl}/bare`, body, connections, seconds));
      measurements.push(await measure('POST /api/reservation/read_list', `${appUrl}/api/reservation/read_list`, body, connections, seconds));
    }

    console.log(`\n${'target'.padEnd(34)}${'connections'.padStart(12)}${'requests/s'.padStart(12)}${'p99 ms'.padStart(9)}${'failed'.padStart(8)}`);
    for (const row of measurements) {
      console.log(
        `${row.target.padEnd(34)}${String(row.connections).padStart(12)}${row.requestsPerSecond.toFixed(0).padStart(12)}${row.p99Ms.toFixed(1).padStart(9)}${String(row.failures).padStart(8)}`,
      );
    }
    const atTarget = measurements.find((row) => row.target === 'POST /api/reservation/read_list' && row.connections === TARGET_CONNECTIONS);
    const holds = atTarget !== undefined && atTarget.failures === 0 && atTarget.p99Ms < TARGET_P99_MS;
    const bareAtTarget = measurements.find((row) => row.target.startsWith('bare') && row.connections === TARGET_CONNECTIONS);
    const { listHits, listMisses, sessionHits, sessionMisses } = app.readCache.stats;
    console.log(
      `\nread cache: read_list answers ${listHits} from memory, ${listMisses} from the database; sessions ${sessionHits} from memory, ${sessionMisses} from the database` +
        `\nlogging: off (logger: false) in both servers`,
    );
    console.log(
      `\nTarget: read_list p99 < ${TARGET_P99_MS} ms at ${TARGET_CONNECTIONS} connections: ${holds ? 'HOLDS' : 'DOES NOT HOLD'} (p99 ${atTarget?.p99Ms.toFixed(1) ?? '?'} ms` +
        `; the bare route's p99 on this machine in this run: ${bareAtTarget?.p99Ms.toFixed(1) ?? '?'} ms)`,
    );
    console.log(
      `(load average now ${loadavg()
        .map((load) => load.toFixed(2))
        .join(' ')})`,
    );
  } finally {
    // On a PostgreSQL server, leave nothing behind (the guest's rows go with it).
    await app.db.delete(guests).where(eq(guests.id, guest.id));
    await Promise.all([app.close(), bare.close()]);
  }
}

main().catch((error: unknown) => {
  console.error(`bench:api failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});

/**
 * `npm run bench:relay`: one server process (`node --import tsx
 * src/server/main.ts`) holding N live guests over socket.io, each sending a
 * motion event a second, an alive check every 30 s and a 5 KB patrol image
 * every 10 s (bench/relay-load.ts, in child processes). Per N it prints the
 * ack round trip (p50, p99, max), the events acked a second, and the CPU the
 * server process (and the database) spent per event, read from /proc.
 *
 * The database is a private PostgreSQL server (scripts/postgres.mjs), as
 * production runs hundreds of live guests; `--database pglite` or `both`
 * measures the embedded PGlite too. Guests, sessions and one reservation
 * each, live now, are written straight into a fresh database before the
 * server starts (sign-ups through the API would take minutes); the server's
 * scheduler starts their jails.
 *
 *   npm run bench:relay                                   N = 500, 1000, 2000 on PostgreSQL
 *   npm run bench:relay -- --guests 200 --warmup 3 --seconds 10
 *   npm run bench:relay -- --database both --json bench/results/relay.json
 *   npm run bench:relay -- --help
 */

import { spawn, fork, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { ROOT_DIR, type DatabaseConfig } from '../src/server/config.ts';
import pg from 'pg';
import { adminQuery, freePort, stopGracefully } from '../src/server/test/server-process.ts';
import { patrolImage, seedGuests, startPostgres } from './live-guests.ts';
import { EVENT_KINDS, type EventKind, type FromLoad, type ToLoad } from './relay-load.ts';

const TARGET_P99_MS = 50;
const TARGET_GUESTS = 2000;

const USAGE = `npm run bench:relay -- [options]

  --guests LIST      comma-separated guest counts (default 500,1000,2000)
  --database WHICH   postgres (default), pglite or both
  --warmup S         seconds of load before measuring (default 10)
  --seconds S        seconds measured (default 30; warm-up plus measure at most 240: 30 patrols a jail)
  --connect S        seconds the connections are spread over (default 10)
  --workers K        load processes (default 2)
  --json FILE        where to write the rows (default bench/results/relay.json)
  --unix-socket      the server reaches PostgreSQL over its Unix socket instead of TCP on 127.0.0.1
  --cpu-prof DIR     run the server with node --cpu-prof, writing its profiles to DIR
  --help             this text`;

type DatabaseKind = 'postgres' | 'pglite';

interface Options {
  guests: number[];
  databases: DatabaseKind[];
  warmupSeconds: number;
  seconds: number;
  connectSeconds: number;
  workers: number;
  json: string;
  cpuProfileDir: string | null;
  unixSocket: boolean;
}

function parseArgs(argv: readonly string[]): Options | null {
  const options: Options = {
    guests: [500, 1000, 2000],
    databases: ['postgres'],
    warmupSeconds: 10,
    seconds: 30,
    connectSeconds: 10,
    workers: 2,
    json: 'bench/results/relay.json',
    cpuProfileDir: null,
    unixSocket: false,
  };
  const whole = (flag: string, text: string | undefined, max: number) => {
    const value = Number(text);
    if (!Number.isInteger(value) || value < 1 || value > max) throw new Error(`${flag} takes a whole number from 1 to ${max}, not "${text ?? ''}"`);
    return value;
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = () => {
      i += 1;
      return argv[i];
    };
    switch (flag) {
      case '--guests':
        options.guests = (value() ?? '').split(',').map((text) => whole('--guests', text, 20_000));
        break;
      case '--database': {
        const which = value();
        if (which === 'both') options.databases = ['postgres', 'pglite'];
        else if (which === 'postgres' || which === 'pglite') options.databases = [which];
        else throw new Error(`--database takes postgres, pglite or both, not "${which ?? ''}"`);
        break;
      }
      case '--warmup':
        options.warmupSeconds = whole(flag, value(), 120);
        break;
      case '--seconds':
        options.seconds = whole(flag, value(), 240);
        break;
      case '--connect':
        options.connectSeconds = whole(flag, value(), 120);
        break;
      case '--workers':
        options.workers = whole(flag, value(), 8);
        break;
      case '--json':
        options.json = value() ?? '';
        if (options.json === '') throw new Error('--json needs a file name');
        break;
      case '--unix-socket':
        options.unixSocket = true;
        break;
      case '--cpu-prof':
        options.cpuProfileDir = resolve(value() ?? '');
        break;
      case '--help':
      case '-h':
        return null;
      default:
        throw new Error(`Unknown argument "${flag}"\n\n${USAGE}`);
    }
  }
  // A jail keeps at most 30 patrol images, one every 10 s.
  if (options.warmupSeconds + options.seconds > 240) throw new Error('--warmup plus --seconds must be at most 240 (30 patrol images a jail)');
  return options;
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// --- CPU time from /proc ---------------------------------------------------------

const CLOCK_TICKS_PER_SECOND = 100;

/** utime + stime (and, with `children`, cutime + cstime) of a process, in ms; 0 once it is gone. */
async function cpuMsOf(pid: number, children = false): Promise<number> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may hold spaces: state is field 3.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const field = (n: number) => Number(fields[n - 3]);
    const ticks = field(14) + field(15) + (children ? field(16) + field(17) : 0);
    return (ticks * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

async function parentOf(pid: number): Promise<number | null> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return null;
  }
}

/** The postmaster listening on `port` (its command line names `-p PORT`), and the directory of its Unix socket (`-k DIR`). */
async function postmasterOf(port: number): Promise<{ pid: number; socketDir: string | null } | null> {
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const commandLine = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    const args = commandLine.split('\0');
    if (args[0]?.endsWith('/postgres') && args[args.indexOf('-p') + 1] === String(port)) {
      const socketFlag = args.indexOf('-k');
      return { pid: Number(entry), socketDir: socketFlag === -1 ? null : (args[socketFlag + 1] ?? null) };
    }
  }
  return null;
}

/** The database server's CPU: the postmaster, its exited children and its live backends. */
async function postgresCpuMs(postmaster: number): Promise<number> {
  let total = await cpuMsOf(postmaster, true);
  for (const entry of await readdir('/proc')) {
    if (/^\d+$/.test(entry) && (await parentOf(Number(entry))) === postmaster) total += await cpuMsOf(Number(entry));
  }
  return total;
}

// --- The database -----------------------------------------------------------------

async function liveJailCount(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const result = await client.query<{ live: string }>("select count(*) as live from jails where state = 'live'");
    return Number(result.rows[0]?.live ?? 0);
  } finally {
    await client.end();
  }
}

// --- The server and the load --------------------------------------------------------

async function startServer(env: Record<string, string>, cpuProfileDir: string | null): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const profile = cpuProfileDir === null ? [] : ['--cpu-prof', '--cpu-prof-dir', cpuProfileDir];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', 'src/server/main.ts'], {
    cwd: ROOT_DIR,
    env: { ...process.env, NODE_ENV: 'development', PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    const up = await fetch(`${url}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (up) return { url, child };
    if (Date.now() > deadline) throw new Error('the server did not answer /api/health within 120 s');
    await delay(200);
  }
}

interface Load {
  child: ChildProcess;
  send(message: ToLoad): void;
  /** The process's next message of this type. */
  next<Type extends FromLoad['type']>(type: Type): Promise<Extract<FromLoad, { type: Type }>>;
  /** Rejects when the process reports a failure or exits: raced against every wait, so a failure stops the run at once. */
  failed: Promise<never>;
}

function startLoad(): Load {
  const child = fork(join(ROOT_DIR, 'bench', 'relay-load.ts'), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    // Structured clone keeps an infinite round trip (an ack that never came), which JSON would turn into null.
    serialization: 'advanced',
  });
  const failed = new Promise<never>((_, reject) => {
    child.on('message', (message: FromLoad) => {
      if (message.type === 'failed') reject(new Error(`a load process failed: ${message.error}`));
    });
    child.once('exit', (code) => reject(new Error(`a load process exited with ${code ?? 'a signal'}`)));
  });
  // Observed through the races below; the rejection after a normal stop is expected.
  failed.catch(() => undefined);
  const next = <Type extends FromLoad['type']>(type: Type) =>
    Promise.race([
      failed,
      new Promise<Extract<FromLoad, { type: Type }>>((resolveMessage) => {
        const onMessage = (message: FromLoad) => {
          if (message.type !== type) return;
          child.off('message', onMessage);
          resolveMessage(message as Extract<FromLoad, { type: Type }>);
        };
        child.on('message', onMessage);
      }),
    ]);
  return { child, send: (message) => child.send(message), next, failed };
}

// --- One measurement ------------------------------------------------------------------

interface Row {
  database: DatabaseKind;
  guests: number;
  /** Acked within 10 s, a second. */
  eventsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Acks that did not come within 10 s (counted as infinite in the percentiles). */
  ackTimeouts: number;
  /** p99 by event kind. */
  p99ByKindMs: Record<EventKind, number>;
  serverCpuMsPerEvent: number;
  /** Share of one core the server process used in the window. */
  serverCpuPercent: number;
  /** PostgreSQL's processes (null on PGlite, which runs inside the server). */
  databaseCpuMsPerEvent: number | null;
  loadCpuPercent: number;
}

function percentile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? Number.NaN;
}

async function measure(kind: DatabaseKind, count: number, options: Options, postgres: { url: string } | null, patrolData: string): Promise<Row> {
  const scratch = await mkdtemp(join(tmpdir(), 'warden-relay-bench-'));
  const databaseName = `warden_relay_${count}_${Date.now().toString(36)}`;
  let database: DatabaseConfig = { driver: 'pglite', dataDir: join(scratch, 'pglite') };
  const postmaster = postgres === null ? null : await postmasterOf(Number(new URL(postgres.url).port));
  if (postgres !== null) {
    await adminQuery(postgres.url, `create database ${databaseName}`);
    const url = new URL(postgres.url);
    url.pathname = `/${databaseName}`;
    if (options.unixSocket) {
      const socketDir = postmaster?.socketDir ?? null;
      if (socketDir === null) throw new Error('the PostgreSQL server has no Unix socket to connect to');
      url.searchParams.set('host', socketDir);
    }
    database = { driver: 'postgres', url: url.toString() };
  }
  const loads: Load[] = [];
  /** Waits `ms`, or fails as soon as a load process does. */
  const hold = (ms: number) => Promise.race([delay(ms), ...loads.map((load) => load.failed)]);
  let server: { url: string; child: ChildProcess } | null = null;
  try {
    const seeded = await seedGuests(database, count);
    server = await startServer({ DATA_DIR: scratch, DATABASE_URL: database.driver === 'postgres' ? database.url : '' }, options.cpuProfileDir);
    const serverPid = server.child.pid ?? 0;
    if (database.driver === 'postgres') {
      const deadline = Date.now() + 120_000;
      while ((await liveJailCount(database.url)) < count) {
        if (Date.now() > deadline) throw new Error('the scheduler did not start every jail within 120 s');
        await delay(500);
      }
    }

    const epoch = Date.now() + 500;
    const perLoad = Math.ceil(count / options.workers);
    for (let first = 0; first < count; first += perLoad) {
      const load = startLoad();
      loads.push(load);
      load.send({
        type: 'start',
        url: server.url,
        guests: seeded.slice(first, first + perLoad),
        firstIndex: first,
        total: count,
        epoch,
        connectSpreadMs: options.connectSeconds * 1000,
        patrolData,
      });
    }
    await Promise.all(loads.map((load) => load.next('ready')));
    await hold(options.warmupSeconds * 1000);

    const serverBefore = await cpuMsOf(serverPid);
    const databaseBefore = postmaster === null ? 0 : await postgresCpuMs(postmaster.pid);
    const openedAt = Date.now();
    for (const load of loads) load.send({ type: 'window', open: true });
    await hold(options.seconds * 1000);
    const samplesComing = loads.map((load) => load.next('samples'));
    for (const load of loads) load.send({ type: 'window', open: false });
    const windowMs = Date.now() - openedAt;
    const serverMs = (await cpuMsOf(serverPid)) - serverBefore;
    const databaseMs = postmaster === null ? null : (await postgresCpuMs(postmaster.pid)) - databaseBefore;
    const results = await Promise.all(samplesComing);

    const byKind = Object.fromEntries(
      EVENT_KINDS.map((eventKind) => [eventKind, results.flatMap((result) => result.samples[eventKind]).sort((a, b) => a - b)]),
    ) as Record<EventKind, number[]>;
    const all = EVENT_KINDS.flatMap((eventKind) => byKind[eventKind]).sort((a, b) => a - b);
    if (all.length === 0) throw new Error('no ack arrived in the window');
    const loadMs = results.reduce((sum, result) => sum + result.cpuMs, 0);
    const ackTimeouts = all.filter((ms) => ms === Number.POSITIVE_INFINITY).length;
    return {
      database: kind,
      guests: count,
      eventsPerSecond: (all.length - ackTimeouts) / (windowMs / 1000),
      p50Ms: percentile(all, 0.5),
      p99Ms: percentile(all, 0.99),
      maxMs: all[all.length - 1] ?? Number.NaN,
      ackTimeouts,
      p99ByKindMs: Object.fromEntries(EVENT_KINDS.map((eventKind) => [eventKind, percentile(byKind[eventKind], 0.99)])) as Record<EventKind, number>,
      serverCpuMsPerEvent: serverMs / all.length,
      serverCpuPercent: (100 * serverMs) / windowMs,
      databaseCpuMsPerEvent: databaseMs === null ? null : databaseMs / all.length,
      loadCpuPercent: (100 * loadMs) / windowMs,
    };
  } finally {
    for (const load of loads) {
      if (load.child.connected) load.send({ type: 'stop' });
    }
    await Promise.all(loads.map((load) => stopGracefully(load.child)));
    if (server !== null) await stopGracefully(server.child);
    if (postgres !== null) await adminQuery(postgres.url, `drop database if exists ${databaseName} with (force)`);
    await rm(scratch, { recursive: true, force: true });
  }
}

// --- Output ---------------------------------------------------------------------------------

const fixed = (value: number | null, digits = 1) => (value === null ? '-' : Number.isFinite(value) ? value.toFixed(digits) : '>10s');

function line(row: Row): string {
  return (
    `${row.database.padEnd(9)}${String(row.guests).padStart(7)}${fixed(row.eventsPerSecond, 0).padStart(10)}` +
    `${fixed(row.p50Ms).padStart(8)}${fixed(row.p99Ms).padStart(8)}${fixed(row.maxMs).padStart(8)}` +
    `${fixed(row.p99ByKindMs.motion).padStart(10)}${fixed(row.p99ByKindMs.patrol).padStart(10)}${fixed(row.p99ByKindMs.alive).padStart(9)}` +
    `${fixed(row.serverCpuMsPerEvent, 3).padStart(12)}${fixed(row.serverCpuPercent, 0).padStart(9)}${fixed(row.databaseCpuMsPerEvent, 3).padStart(10)}${fixed(row.loadCpuPercent, 0).padStart(8)}${String(row.ackTimeouts).padStart(9)}`
  );
}

const HEADER =
  `${'database'.padEnd(9)}${'guests'.padStart(7)}${'events/s'.padStart(10)}${'p50 ms'.padStart(8)}${'p99 ms'.padStart(8)}${'max ms'.padStart(8)}` +
  `${'p99 moti'.padStart(10)}${'p99 patr'.padStart(10)}${'p99 alv'.padStart(9)}${'srv ms/ev'.padStart(12)}${'srv cpu%'.padStart(9)}${'db ms/ev'.padStart(10)}${'load%'.padStart(8)}${'timeouts'.padStart(9)}`;

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  if (options === null) {
    console.log(USAGE);
    return;
  }
  const patrolData = await patrolImage();
  console.log(
    `relay bench: ${options.guests.join(', ')} guests on ${options.databases.join(' and ')}${options.unixSocket ? ' (PostgreSQL over its Unix socket)' : ''}; connect over ${options.connectSeconds} s, warm up ${options.warmupSeconds} s, measure ${options.seconds} s; ${options.workers} load processes; load average ${loadavg()
      .map((load) => load.toFixed(2))
      .join(' ')}`,
  );
  console.log(`\n${HEADER}`);
  const rows: Row[] = [];
  /** Counts the server could not hold at all (a load process failed), with why. */
  const failures: { database: DatabaseKind; guests: number; error: string }[] = [];
  for (const kind of options.databases) {
    const postgres = kind === 'postgres' ? await startPostgres() : null;
    try {
      for (const count of options.guests) {
        try {
          const row = await measure(kind, count, options, postgres, patrolData);
          rows.push(row);
          console.log(line(row));
        } catch (error) {
          const failure = { database: kind, guests: count, error: error instanceof Error ? error.message : String(error) };
          failures.push(failure);
          console.log(`${kind.padEnd(9)}${String(count).padStart(7)}  failed: ${failure.error}`);
        }
      }
    } finally {
      postgres?.stop();
    }
  }

  console.log(`\n${HEADER}`);
  for (const row of rows) console.log(line(row));
  for (const failure of failures) console.log(`${failure.database.padEnd(9)}${String(failure.guests).padStart(7)}  failed: ${failure.error}`);
  console.log(
    '\nsrv ms/ev: CPU of the server process per event sent in the window (motion, patrol and alive together); srv cpu%: of one core; db ms/ev: the PostgreSQL processes; load%: the load processes, which share the cores; timeouts: acks not back within 10 s.',
  );
  for (const kind of options.databases) {
    const row = rows.find((row) => row.database === kind && row.guests === TARGET_GUESTS);
    const failure = failures.find((failure) => failure.database === kind && failure.guests === TARGET_GUESTS);
    if (row === undefined && failure === undefined) continue;
    const holds = row !== undefined && row.p99Ms < TARGET_P99_MS && row.ackTimeouts === 0;
    const detail = row === undefined ? 'the run failed' : `p99 ${fixed(row.p99Ms)} ms, ${row.ackTimeouts} acks timed out`;
    console.log(`Target on ${kind}: p99 < ${TARGET_P99_MS} ms at ${TARGET_GUESTS} guests: ${holds ? 'HOLDS' : 'DOES NOT HOLD'} (${detail})`);
  }
  console.log(
    `(load average now ${loadavg()
      .map((load) => load.toFixed(2))
      .join(' ')})`,
  );
  const path = resolve(ROOT_DIR, options.json);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, `${JSON.stringify({ rows, failures }, null, 2)}\n`);
  console.log(`rows written to ${path}`);
}

main().catch((error: unknown) => {
  console.error(`bench:relay failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});

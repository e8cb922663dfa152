/**
 * `npm run bench:relay`: one server process (`node --import tsx
 * src/server/main.ts`) holding N live guests over socket.io, each sending
 * what its mix says (bench/relay-mix.ts: `real`, the live page's rates, or
 * `stress`, a motion event a second) from bench/relay-load.ts in child
 * processes. Per run it prints the ack round trip (p50, p99, max, p99 by
 * kind), the acks that timed out, the guests that dropped, the events acked
 * a second, the CPU of the server (per event and of a core), of PostgreSQL
 * and of the load processes apart, the server's resident memory, and the
 * run's target with whether it holds.
 *
 * `npm run bench:soak` (`--soak`) is the same code over ten one-minute
 * windows: 2,000 guests on the real mix, a line a minute.
 *
 * The database is a private PostgreSQL server (scripts/postgres.mjs);
 * `--database pglite` or `both` measures the embedded PGlite too. Guests,
 * sessions and one reservation each, live now, are written straight into a
 * fresh database before the server starts (bench/live-guests.ts); the
 * server's scheduler starts their jails.
 *
 *   npm run bench:relay                                   the targets: real mix at 10,000 guests, stress at 3,000
 *   npm run bench:relay -- --mix stress --guests 500,1000,2000
 *   npm run bench:soak
 *   npm run bench:relay -- --help
 */

import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import pg from 'pg';
import { ROOT_DIR, type DatabaseConfig } from '../src/server/config.ts';
import { adminQuery, freePort, stopGracefully } from '../src/server/test/server-process.ts';
import { type DatabaseKind, databasesArgument, patrolImage, type SeededGuest, seedGuests, startPostgres, wholeArgument } from './live-guests.ts';
import { EVENT_KINDS, type EventKind, type FromLoad, type ToLoad, type WindowSamples } from './relay-load.ts';
import { MIX_NAMES, MIXES, steadyForMs, type MixName } from './relay-mix.ts';

/** What each mix must hold on this machine (issue 19): the guests, with every ack's p99 under 50 ms and none timed out. */
const TARGETS: Record<MixName, { guests: number; p99Ms: number }> = {
  real: { guests: 10_000, p99Ms: 50 },
  stress: { guests: 3_000, p99Ms: 50 },
};

/** The soak: this many guests on the real mix for this many one-minute windows, each minute's p99 under the target. */
const SOAK = { guests: 2_000, windows: 10, windowSeconds: 60, p99Ms: 50, mix: 'real' as const };
/** The soak's memory counts as flat when the server's RSS at the end is within this share of the RSS at the start of measuring. */
const SOAK_RSS_GROWTH_MAX = 0.1;

/** Open files a process needs besides one a socket (its modules, the database pool, the logs). */
const FILES_BESIDES_SOCKETS = 200;

const USAGE = `npm run bench:relay -- [options]

  --mix WHICH        real (the live page's rates), stress (a motion event a second) or both (default)
  --guests LIST      comma-separated guest counts (default each mix's target: real ${TARGETS.real.guests}, stress ${TARGETS.stress.guests})
  --database WHICH   postgres (default), pglite or both
  --warmup S         seconds of load before measuring (default 10)
  --seconds S        seconds of each measuring window (default 30)
  --windows K        measuring windows one after another, a line each (default 1)
  --connect S        seconds the connections are spread over (default one per 20 ms of guests, at least 10)
  --workers K        load processes (default 2)
  --soak             the soak: ${SOAK.guests} guests, ${SOAK.mix} mix, ${SOAK.windows} windows of ${SOAK.windowSeconds} s, PostgreSQL
  --json FILE        where to write the rows (default bench/results/relay.json, soak.json for --soak)
  --unix-socket      the server reaches PostgreSQL over its Unix socket instead of TCP on 127.0.0.1
  --cpu-prof DIR     run the server with node --cpu-prof, writing its profiles to DIR
  --help             this text

A stress run must end before its guests have sent a jail's 30 patrol images (5 minutes).`;

interface Options {
  mixes: MixName[];
  guests: number[] | null;
  databases: DatabaseKind[];
  warmupSeconds: number;
  seconds: number;
  windows: number;
  connectSeconds: number | null;
  workers: number;
  soak: boolean;
  json: string;
  cpuProfileDir: string | null;
  unixSocket: boolean;
}

function parseArgs(argv: readonly string[]): Options | null {
  const options: Options = {
    mixes: [...MIX_NAMES],
    guests: null,
    databases: ['postgres'],
    warmupSeconds: 10,
    seconds: 30,
    windows: 1,
    connectSeconds: null,
    workers: 2,
    soak: false,
    json: '',
    cpuProfileDir: null,
    unixSocket: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = () => {
      i += 1;
      return argv[i];
    };
    switch (flag) {
      case '--mix': {
        const which = value();
        if (which === 'both') options.mixes = [...MIX_NAMES];
        else if (which === 'stress' || which === 'real') options.mixes = [which];
        else throw new Error(`--mix takes real, stress or both, not "${which ?? ''}"`);
        break;
      }
      case '--guests':
        options.guests = (value() ?? '').split(',').map((text) => wholeArgument('--guests', text, 20_000));
        break;
      case '--database':
        options.databases = databasesArgument(value());
        break;
      case '--warmup':
        options.warmupSeconds = wholeArgument(flag, value(), 600);
        break;
      case '--seconds':
        options.seconds = wholeArgument(flag, value(), 3600);
        break;
      case '--windows':
        options.windows = wholeArgument(flag, value(), 120);
        break;
      case '--connect':
        options.connectSeconds = wholeArgument(flag, value(), 600);
        break;
      case '--workers':
        options.workers = wholeArgument(flag, value(), 8);
        break;
      case '--soak':
        options.soak = true;
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
  if (options.soak) {
    Object.assign(options, { mixes: [SOAK.mix], guests: [SOAK.guests], databases: ['postgres'], windows: SOAK.windows, seconds: SOAK.windowSeconds });
  }
  if (options.json === '') options.json = options.soak ? 'bench/results/soak.json' : 'bench/results/relay.json';
  return options;
}

/** The runs the options ask for: each mix at its target's guests, or at each of `--guests`. */
function runsOf(options: Options): { mix: MixName; guests: number; database: DatabaseKind }[] {
  return options.databases.flatMap((database) =>
    options.mixes.flatMap((mix) => (options.guests ?? [TARGETS[mix].guests]).map((guests) => ({ mix, guests, database }))),
  );
}

/** Connections come one per 20 ms unless `--connect` says otherwise: setting one up (the session read, the initialize) costs the server about 10 ms of CPU (bench/README.md). */
function connectSecondsFor(guests: number, options: Options): number {
  return options.connectSeconds ?? Math.max(10, Math.ceil(guests / 50));
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// --- CPU time and memory from /proc ---------------------------------------------------------

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

/** A process's resident memory in MB (VmRSS). */
async function rssMbOf(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = /^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1];
  if (kb === undefined) throw new Error(`no VmRSS for process ${pid}`);
  return Number(kb) / 1024;
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

// --- Open files ---------------------------------------------------------------------------------

/** This process's limit on open files, soft and hard (children inherit it). */
async function fileLimits(): Promise<{ soft: number; hard: number }> {
  const limits = await readFile('/proc/self/limits', 'utf8');
  const match = /^Max open files\s+(\d+|unlimited)\s+(\d+|unlimited)/m.exec(limits);
  const read = (text: string | undefined) => (text === undefined || text === 'unlimited' ? Number.POSITIVE_INFINITY : Number(text));
  return { soft: read(match?.[1]), hard: read(match?.[2]) };
}

/**
 * Spawns `node ARGS` allowed `files` open files: a shell raises the soft
 * limit first when it is lower (up to the hard limit, which only an
 * administrator can raise: past it the run stops here, before a socket
 * fails with EMFILE).
 */
async function spawnNode(args: readonly string[], files: number, spawnOptions: SpawnOptions): Promise<ChildProcess> {
  const { soft, hard } = await fileLimits();
  if (files > hard) {
    throw new Error(
      `this needs ${files} open files in one process but the hard limit is ${hard}: raise it (ulimit -Hn as root, LimitNOFILE for a service) or use fewer guests`,
    );
  }
  if (files <= soft) return spawn(process.execPath, args, spawnOptions);
  return spawn('/bin/sh', ['-c', `ulimit -S -n ${files} && exec "$0" "$@"`, process.execPath, ...args], spawnOptions);
}

// --- The database -----------------------------------------------------------------

/** Live jails whose start the scheduler has finished: the Warden's greeting is logged (each start is a transaction of its own). */
async function greetedJailCount(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const result = await client.query<{ greeted: string }>(
      "select count(*) as greeted from jails where state = 'live' and exists (select 1 from activity_logs where activity_logs.reservation_id = jails.reservation_id)",
    );
    return Number(result.rows[0]?.greeted ?? 0);
  } finally {
    await client.end();
  }
}

// --- The server and the load --------------------------------------------------------

async function startServer(env: Record<string, string>, guests: number, cpuProfileDir: string | null): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const profile = cpuProfileDir === null ? [] : ['--cpu-prof', '--cpu-prof-dir', cpuProfileDir];
  const child = await spawnNode([...profile, '--import', 'tsx', 'src/server/main.ts'], guests + FILES_BESIDES_SOCKETS, {
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
  /** The process's next message of this type (and, for samples, of this window). */
  next<Type extends FromLoad['type']>(type: Type, window?: number): Promise<Extract<FromLoad, { type: Type }>>;
  /** Rejects when the process reports a failure or exits: raced against every wait, so a failure stops the run at once. */
  failed: Promise<never>;
}

async function startLoad(guests: number): Promise<Load> {
  const child = await spawnNode(['--import', 'tsx', join(ROOT_DIR, 'bench', 'relay-load.ts')], guests + FILES_BESIDES_SOCKETS, {
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
  const next = <Type extends FromLoad['type']>(type: Type, window?: number) =>
    Promise.race([
      failed,
      new Promise<Extract<FromLoad, { type: Type }>>((resolveMessage) => {
        const onMessage = (message: FromLoad) => {
          if (message.type !== type || (message.type === 'samples' && message.window !== window)) return;
          child.off('message', onMessage);
          resolveMessage(message as Extract<FromLoad, { type: Type }>);
        };
        child.on('message', onMessage);
      }),
    ]);
  return { child, send: (message) => child.send(message), next, failed };
}

// --- One run ------------------------------------------------------------------

/** The figures of one measuring window, or of all of a run's windows together. */
interface Figures {
  seconds: number;
  /** Acked within 10 s, a second. */
  eventsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  p99ByKindMs: Record<EventKind, number>;
  /** Acks that did not come within 10 s (counted as infinite in the percentiles). */
  ackTimeouts: number;
  /** Guests whose socket dropped. */
  disconnects: number;
  serverCpuMsPerEvent: number;
  /** Shares of one core in the window: the server process, PostgreSQL's processes (null on PGlite, inside the server), the load processes. */
  serverCpuPercent: number;
  databaseCpuMsPerEvent: number | null;
  databaseCpuPercent: number | null;
  loadCpuPercent: number;
  /** How late the load processes' event loops ran (the worst process's p99, and the max): acks that came meanwhile waited there. */
  loadLagP99Ms: number;
  loadLagMaxMs: number;
  /** The server's resident memory at the window's end. */
  serverRssMb: number;
}

interface Run {
  mix: MixName;
  database: DatabaseKind;
  guests: number;
  /** The server's resident memory once every guest was in its jail, and when measuring began. */
  rssConnectedMb: number;
  rssMeasureStartMb: number;
  windows: Figures[];
  total: Figures;
}

function percentile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? Number.NaN;
}

/** What the bench reads from outside the load at a window's edge. */
interface Reading {
  at: number;
  serverCpuMs: number;
  databaseCpuMs: number | null;
  rssMb: number;
}

function figuresOf(samples: readonly WindowSamples[], from: Reading, to: Reading): Figures {
  const byKind = Object.fromEntries(
    EVENT_KINDS.map((eventKind) => [eventKind, samples.flatMap((result) => result.samples[eventKind]).sort((a, b) => a - b)]),
  ) as Record<EventKind, number[]>;
  const all = EVENT_KINDS.flatMap((eventKind) => byKind[eventKind]).sort((a, b) => a - b);
  if (all.length === 0) throw new Error('no ack arrived in the window');
  const ms = to.at - from.at;
  const serverMs = to.serverCpuMs - from.serverCpuMs;
  const databaseMs = to.databaseCpuMs === null || from.databaseCpuMs === null ? null : to.databaseCpuMs - from.databaseCpuMs;
  const ackTimeouts = all.filter((roundTrip) => roundTrip === Number.POSITIVE_INFINITY).length;
  return {
    seconds: ms / 1000,
    eventsPerSecond: (all.length - ackTimeouts) / (ms / 1000),
    p50Ms: percentile(all, 0.5),
    p99Ms: percentile(all, 0.99),
    maxMs: all[all.length - 1] ?? Number.NaN,
    p99ByKindMs: Object.fromEntries(EVENT_KINDS.map((eventKind) => [eventKind, percentile(byKind[eventKind], 0.99)])) as Record<EventKind, number>,
    ackTimeouts,
    disconnects: samples.reduce((sum, result) => sum + result.disconnects, 0),
    serverCpuMsPerEvent: serverMs / all.length,
    serverCpuPercent: (100 * serverMs) / ms,
    databaseCpuMsPerEvent: databaseMs === null ? null : databaseMs / all.length,
    databaseCpuPercent: databaseMs === null ? null : (100 * databaseMs) / ms,
    loadCpuPercent: (100 * samples.reduce((sum, result) => sum + result.cpuMs, 0)) / ms,
    loadLagP99Ms: Math.max(...samples.map((result) => result.lagP99Ms)),
    loadLagMaxMs: Math.max(...samples.map((result) => result.lagMaxMs)),
    serverRssMb: to.rssMb,
  };
}

async function measure(
  run: { mix: MixName; guests: number; database: DatabaseKind },
  options: Options,
  postgres: { url: string } | null,
  patrolData: string,
  onWindow: (figures: Figures, index: number) => void,
): Promise<Run> {
  const { mix, guests: count, database: kind } = run;
  const connectSeconds = connectSecondsFor(count, options);
  const runSeconds = connectSeconds + options.warmupSeconds + options.windows * options.seconds;
  if (runSeconds * 1000 > steadyForMs(MIXES[mix])) {
    throw new Error(
      `the ${mix} mix keeps its rate for ${steadyForMs(MIXES[mix]) / 1000} s (30 patrol images a jail); this run lasts ${runSeconds} s: measure less`,
    );
  }
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
    const seeded: SeededGuest[] = await seedGuests(database, count);
    server = await startServer({ DATA_DIR: scratch, DATABASE_URL: database.driver === 'postgres' ? database.url : '' }, count, options.cpuProfileDir);
    const serverPid = server.child.pid ?? 0;
    if (database.driver === 'postgres') {
      // The scheduler starts the jails in one pass, then greets each in a transaction of its own: the guests come once it is done.
      const waitMs = 120_000 + count * 20;
      const deadline = Date.now() + waitMs;
      while ((await greetedJailCount(database.url)) < count) {
        if (Date.now() > deadline) throw new Error(`the scheduler did not start every jail within ${waitMs / 1000} s`);
        await delay(500);
      }
    }

    const epoch = Date.now() + 500;
    const perLoad = Math.ceil(count / options.workers);
    for (let first = 0; first < count; first += perLoad) {
      const guests = seeded.slice(first, first + perLoad);
      const load = await startLoad(guests.length);
      loads.push(load);
      load.send({ type: 'start', url: server.url, guests, firstIndex: first, total: count, epoch, connectSpreadMs: connectSeconds * 1000, patrolData, mix });
    }
    await Promise.race([Promise.all(loads.map((load) => load.next('ready'))), ...loads.map((load) => load.failed)]);
    const rssConnectedMb = await rssMbOf(serverPid);
    await hold(options.warmupSeconds * 1000);

    const read = async (): Promise<Reading> => ({
      at: Date.now(),
      serverCpuMs: await cpuMsOf(serverPid),
      databaseCpuMs: postmaster === null ? null : await postgresCpuMs(postmaster.pid),
      rssMb: await rssMbOf(serverPid),
    });
    const readings = [await read()];
    const windows: WindowSamples[][] = [];
    const figures: Figures[] = [];
    for (const load of loads) load.send({ type: 'window', open: 0 });
    for (let index = 0; index < options.windows; index++) {
      await hold(options.seconds * 1000);
      const samplesComing = Promise.all(loads.map((load) => load.next('samples', index)));
      // The next window opens as this one closes: no gap between them.
      const next = index + 1 < options.windows ? index + 1 : null;
      for (const load of loads) load.send({ type: 'window', open: next });
      readings.push(await read());
      const samples = await samplesComing;
      windows.push(samples);
      figures.push(figuresOf(samples, readings[index] as Reading, readings[index + 1] as Reading));
      onWindow(figures[index] as Figures, index);
    }
    const first = readings[0] as Reading;
    return {
      mix,
      database: kind,
      guests: count,
      rssConnectedMb,
      rssMeasureStartMb: first.rssMb,
      windows: figures,
      total: figuresOf(windows.flat(), first, readings[readings.length - 1] as Reading),
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

const COLUMNS: [string, number][] = [
  ['mix', 7],
  ['database', 9],
  ['guests', 7],
  ['window', 7],
  ['events/s', 9],
  ['p50 ms', 8],
  ['p99 ms', 8],
  ['max ms', 8],
  ['p99 mot', 8],
  ['p99 pat', 8],
  ['p99 alv', 8],
  ['timeouts', 9],
  ['drops', 6],
  ['srv ms/ev', 10],
  ['srv %', 6],
  ['pg ms/ev', 9],
  ['pg %', 6],
  ['load %', 7],
  ['lag p99', 8],
  ['lag max', 8],
  ['RSS MB', 7],
];

const HEADER = COLUMNS.map(([name, width], index) => (index < 2 ? name.padEnd(width) : name.padStart(width))).join('');

function line(run: Pick<Run, 'mix' | 'database' | 'guests'>, window: string, figures: Figures): string {
  const cells = [
    run.mix,
    run.database,
    String(run.guests),
    window,
    fixed(figures.eventsPerSecond, 0),
    fixed(figures.p50Ms),
    fixed(figures.p99Ms),
    fixed(figures.maxMs),
    fixed(figures.p99ByKindMs.motion),
    fixed(figures.p99ByKindMs.patrol),
    fixed(figures.p99ByKindMs.alive),
    String(figures.ackTimeouts),
    String(figures.disconnects),
    fixed(figures.serverCpuMsPerEvent, 3),
    fixed(figures.serverCpuPercent, 0),
    fixed(figures.databaseCpuMsPerEvent, 3),
    fixed(figures.databaseCpuPercent, 0),
    fixed(figures.loadCpuPercent, 0),
    fixed(figures.loadLagP99Ms),
    fixed(figures.loadLagMaxMs),
    fixed(figures.serverRssMb, 0),
  ];
  return cells.map((cell, index) => (index < 2 ? cell.padEnd(COLUMNS[index]?.[1] ?? 0) : cell.padStart(COLUMNS[index]?.[1] ?? 0))).join('');
}

const verdict = (holds: boolean) => (holds ? 'HOLDS' : 'FAILS');

/** The target lines of a run, each with whether it holds; the soak's when `soak`. */
function targetLines(run: Run, soak: boolean): { text: string; holds: boolean }[] {
  const { total } = run;
  if (soak) {
    const worstMinute = Math.max(...run.windows.map((figures) => figures.p99Ms));
    const growth = total.serverRssMb / run.rssMeasureStartMb - 1;
    return [
      { text: `every minute's p99 < ${SOAK.p99Ms} ms: worst ${fixed(worstMinute)} ms`, holds: worstMinute < SOAK.p99Ms },
      { text: `no disconnect: ${total.disconnects}`, holds: total.disconnects === 0 },
      { text: `no ack timed out: ${total.ackTimeouts}`, holds: total.ackTimeouts === 0 },
      {
        text: `server memory flat (RSS growth under ${SOAK_RSS_GROWTH_MAX * 100} %): ${fixed(run.rssMeasureStartMb, 0)} MB at the start, ${fixed(total.serverRssMb, 0)} MB at the end (${growth >= 0 ? '+' : ''}${fixed(growth * 100)} %)`,
        holds: growth < SOAK_RSS_GROWTH_MAX,
      },
    ];
  }
  const target = TARGETS[run.mix];
  if (run.guests < target.guests) return [];
  return [
    {
      text: `${run.mix} mix, ${target.guests} guests: p99 < ${target.p99Ms} ms and no ack timed out: p99 ${fixed(total.p99Ms)} ms, ${total.ackTimeouts} timed out, ${total.disconnects} disconnects`,
      holds: total.p99Ms < target.p99Ms && total.ackTimeouts === 0 && total.disconnects === 0,
    },
  ];
}

const loadAverage = () =>
  loadavg()
    .map((load) => load.toFixed(2))
    .join(' ');

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  if (options === null) {
    console.log(USAGE);
    return;
  }
  const patrolData = await patrolImage();
  const runs = runsOf(options);
  console.log(
    `relay bench${options.soak ? ' (soak)' : ''}: ${runs.map((run) => `${run.mix} mix at ${run.guests} guests on ${run.database}`).join(', ')}${options.unixSocket ? ' (PostgreSQL over its Unix socket)' : ''}; warm up ${options.warmupSeconds} s, ${options.windows} window(s) of ${options.seconds} s; ${options.workers} load processes; load average ${loadAverage()}`,
  );
  for (const mix of new Set(runs.map((run) => run.mix))) console.log(`  ${mix} mix: ${MIXES[mix].source}`);
  const done: Run[] = [];
  /** Runs the server could not hold at all (a load process failed, a guest dropped before measuring), with why. */
  const failures: { mix: MixName; database: DatabaseKind; guests: number; error: string }[] = [];
  const databases = [...new Set(runs.map((run) => run.database))];
  for (const kind of databases) {
    const postgres = kind === 'postgres' ? await startPostgres() : null;
    try {
      for (const run of runs.filter((candidate) => candidate.database === kind)) {
        console.log(`\n${run.mix} mix, ${run.guests} guests, ${kind}: connecting over ${connectSecondsFor(run.guests, options)} s\n${HEADER}`);
        try {
          const measured = await measure(run, options, postgres, patrolData, (figures, index) => console.log(line(run, String(index + 1), figures)));
          done.push(measured);
          if (options.windows > 1) console.log(line(run, 'all', measured.total));
          console.log(
            `server RSS: ${fixed(measured.rssConnectedMb, 0)} MB with every guest in, ${fixed(measured.rssMeasureStartMb, 0)} MB when measuring began, ${fixed(measured.total.serverRssMb, 0)} MB at the end`,
          );
        } catch (error) {
          const failure = { ...run, error: error instanceof Error ? error.message : String(error) };
          failures.push(failure);
          console.log(`failed: ${failure.error}`);
        }
      }
    } finally {
      postgres?.stop();
    }
  }

  console.log(`\n${HEADER}`);
  for (const run of done) console.log(line(run, options.windows > 1 ? 'all' : '1', run.total));
  for (const failure of failures)
    console.log(`${failure.mix.padEnd(7)}${failure.database.padEnd(9)}${String(failure.guests).padStart(7)}  failed: ${failure.error}`);
  console.log(
    "\nsrv ms/ev: CPU of the server process per event sent in the window (every kind together); srv %, pg %, load %: of one core, for the server, the PostgreSQL processes and the load processes (which share the 2 cores); lag p99, lag max: how late the load processes' own event loops ran (the worst process), which an ack's round trip includes when it came meanwhile; timeouts: acks not back within 10 s; drops: guests whose socket dropped; RSS: the server at the window's end.",
  );
  let allHold = true;
  for (const run of done) {
    for (const target of targetLines(run, options.soak)) {
      allHold &&= target.holds;
      console.log(`Target (${run.database}): ${target.text}: ${verdict(target.holds)}`);
    }
  }
  for (const failure of failures) {
    allHold = false;
    console.log(`Target (${failure.database}): ${failure.mix} mix, ${failure.guests} guests: FAILS (the run failed)`);
  }
  console.log(`(load average now ${loadAverage()})`);
  const path = resolve(ROOT_DIR, options.json);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, `${JSON.stringify({ runs: done, failures }, null, 2)}\n`);
  console.log(`rows written to ${path}`);
  if (!allHold) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(`bench:relay failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});

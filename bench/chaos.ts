/**
 * `npm run bench:chaos`: live guests, bookings and jails while the server is
 * killed with SIGKILL at random moments and started again on the same data
 * (PGlite's directory, or a private PostgreSQL). Afterwards, with the server
 * stopped, the database is read directly: every acknowledged log must be
 * stored exactly once, every acknowledged booking must be there, every jail
 * that should have started must have, and every jail must have finished at
 * its end time or within 60 s of the restart that followed it.
 *
 * The guests' devices are the product's own relay client
 * (`src/client/features/jail/guest-relay.ts`): each event keeps its eventId
 * until acknowledged and goes again after a reconnect, and the device
 * initialises again once those are answered, as the page does.
 *
 *   npm run bench:chaos                          200 guests, 50 kills over 10 minutes, PostgreSQL and PGlite
 *   npm run bench:chaos -- --short               20 guests, 5 kills over 40 s (npm test runs this)
 *   npm run bench:chaos -- --help
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { GuestRelay, RelayRefusedError } from '../src/client/features/jail/guest-relay.ts';
import { PATROL_MAX_LOGS_PER_SESSION } from '../src/shared/constants.ts';
import { ROOT_DIR, type DatabaseConfig } from '../src/server/config.ts';
import { openDatabase } from '../src/server/db/database.ts';
import { adminQuery, freePort, stopGracefully } from '../src/server/test/server-process.ts';
import { type ServerLife, type Slot, judgeJail, randomGenerator, scheduleJails, type JailRow } from './chaos-verdict.ts';
import { type DatabaseKind, databasesArgument, patrolImage, type SeededGuest, seedGuests, startPostgres, wholeArgument } from './live-guests.ts';

const USAGE = `npm run bench:chaos -- [options]

  --database WHICH   postgres, pglite or both (default: PostgreSQL, then PGlite)
  --guests N         live guests, each a device sending events (default 200)
  --kills N          SIGKILLs of the server (default 50)
  --minutes M        length of the run, kills included (default 10; decimals allowed)
  --short            20 guests, 5 kills, 40 s: the form npm test runs
  --postgres URL     an existing PostgreSQL server (an administrator's URL) instead of a private one; a database is made and dropped
  --seed N           the random seed of the kill moments and the jails' times (default: from the clock)
  --help             this text`;

interface Options {
  databases: DatabaseKind[];
  guests: number;
  kills: number;
  runMs: number;
  postgresUrl: string | null;
  seed: number;
}

/** A jail's lateness may reach this past its end, or past the restart after its end when no server ran then. */
const LATENESS_TARGET_MS = 60_000;
/** Events each device sends: motion every second, a patrol and a line of dialog now and then (docs/jail.md, Relay). */
const MOTION_EVERY_MS = 1_000;
const PATROL_EVERY_MS = 30_000;
const DIALOG_EVERY_MS = 45_000;
/** A booking through the API this often (a real one: the guest's session, a 1-hour jail in the future). */
const BOOKING_EVERY_MS = 400;
/** How long a started server may take to answer /api/health. */
const START_TIMEOUT_MS = 300_000;
/** After the run, how long the devices may take to have every event acknowledged. */
const DRAIN_TIMEOUT_MS = 120_000;
/** A server answers at least this long before it is killed. */
const MIN_UP_MS = 5_000;
/** Each device guest's bookings are this far apart, so that none overlaps another. */
const BOOKING_SPACING_MS = 2 * 3_600_000;
/** The device guests' jails: the longest booking (8 hours). */
const DEVICE_JAIL_MINUTES = 8 * 60;
const QUARTER_MS = 15 * 60_000;

function parseArgs(argv: readonly string[]): Options | null {
  const options: Options = {
    databases: databasesArgument('both'),
    guests: 200,
    kills: 50,
    runMs: 10 * 60_000,
    postgresUrl: null,
    seed: Date.now() % 1_000_000,
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = () => {
      i += 1;
      return argv[i];
    };
    switch (flag) {
      case '--database':
        options.databases = databasesArgument(value());
        break;
      case '--guests':
        options.guests = wholeArgument(flag, value(), 5_000);
        break;
      case '--kills':
        options.kills = wholeArgument(flag, value(), 1_000);
        break;
      case '--minutes': {
        const text = value();
        const minutes = Number(text);
        if (!Number.isFinite(minutes) || minutes < 0.25 || minutes > 120) throw new Error(`--minutes takes a number from 0.25 to 120, not "${text ?? ''}"`);
        options.runMs = Math.round(minutes * 60_000);
        break;
      }
      case '--short':
        options.guests = 20;
        options.kills = 5;
        options.runMs = 40_000;
        break;
      case '--postgres': {
        const url = value() ?? '';
        if (!/^postgres(ql)?:\/\//.test(url)) throw new Error(`--postgres takes a postgres:// URL, not "${url}"`);
        options.postgresUrl = url;
        break;
      }
      case '--seed':
        options.seed = wholeArgument(flag, value(), 2 ** 31);
        break;
      case '--help':
      case '-h':
        return null;
      default:
        throw new Error(`Unknown argument "${flag}"\n\n${USAGE}`);
    }
  }
  if (options.runMs / options.kills < 3_000) throw new Error('at most one kill every 3 s: raise --minutes or lower --kills');
  return options;
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

// --- The server, killed and started again ---------------------------------------------

/** One server process after another on the same port and data; each one's life is kept for the verdict. */
class ServerUnderChaos {
  readonly url: string;
  readonly lives: ServerLife[] = [];
  /** Exits nobody asked for (a crash), with their code. */
  readonly crashes: string[] = [];
  private child: ChildProcess | null = null;

  constructor(
    private readonly port: number,
    private readonly env: Record<string, string>,
    private readonly logFile: string,
  ) {
    this.url = `http://127.0.0.1:${port}`;
  }

  /** Starts a process and resolves once /api/health answers (or rejects if it never does). */
  async start(): Promise<void> {
    const log = openSync(this.logFile, 'a');
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
      cwd: ROOT_DIR,
      env: { ...process.env, NODE_ENV: 'development', HOST: '127.0.0.1', PORT: String(this.port), LOG_LEVEL: 'warn', ...this.env },
      stdio: ['ignore', log, log],
    });
    closeSync(log);
    const life: ServerLife = { spawnedAt: Date.now(), readyAt: null, killedAt: null };
    this.lives.push(life);
    this.child = child;
    child.once('exit', (code, signal) => {
      life.killedAt ??= Date.now();
      if (signal !== 'SIGKILL' && signal !== 'SIGTERM' && code !== 0) this.crashes.push(`exit ${code ?? signal}`);
    });
    const deadline = Date.now() + START_TIMEOUT_MS;
    while (child.exitCode === null && child.signalCode === null) {
      const up = await fetch(`${this.url}/api/health`, { signal: AbortSignal.timeout(10_000) }).then(
        (response) => response.ok,
        () => false,
      );
      if (up) {
        life.readyAt = Date.now();
        return;
      }
      if (Date.now() > deadline) throw new Error(`the server did not answer /api/health within ${seconds(START_TIMEOUT_MS)} (log: ${this.logFile})`);
      await delay(100);
    }
  }

  /** SIGKILL, as a crash or a pulled plug would end it; resolves once it is gone. */
  async kill(): Promise<void> {
    const child = this.child;
    if (child === null || child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const life = this.lives.at(-1);
    if (life !== undefined) life.killedAt = Date.now();
    child.kill('SIGKILL');
    await gone;
  }

  async stop(): Promise<void> {
    if (this.child !== null) await stopGracefully(this.child);
  }
}

// --- The guests' devices ---------------------------------------------------------------

interface SentEvent {
  kind: 'motion' | 'patrol' | 'dialog';
  eventId: string | null;
  acked: boolean;
  duplicateAck: boolean;
  refusal: string | null;
}

interface DeviceFigures {
  events: SentEvent[];
  /** `initialize_from_guest` answered, and how many of those answers had no live jail. */
  initialized: number;
  initializedWithoutJail: number;
  /** The relay gave up after its 20 reconnects (the page would reload), or the handshake was refused. */
  gaveUp: number;
  refusedHandshakes: number;
  /** The same event went out under two eventIds (it never should). */
  eventIdChanged: number;
}

/** One guest's device: the product's relay client, sending its events until the run ends. */
class Device {
  private readonly relay: GuestRelay;
  /** The object that identifies each event's payload on the way out (its motion, patrol or dialog part). */
  private readonly byPart = new WeakMap<object, SentEvent>();
  private timers: NodeJS.Timeout[] = [];
  /** The streams run from the first initialisation that found the live jail, as the page's camera does. */
  private streaming = false;
  private stopped = false;

  constructor(
    url: string,
    private readonly guest: SeededGuest,
    private readonly figures: DeviceFigures,
    private readonly patrolData: string,
    private readonly phaseMs: number,
  ) {
    this.relay = new GuestRelay({
      url,
      session: guest,
      language: () => 'en',
      extraHeaders: { origin: url },
      onConnectionLost: () => {
        figures.gaveUp += 1;
        this.relay.reconnect();
      },
      // The page reads the session again over HTTP, then tries again after 5 s.
      onRefused: () => {
        figures.refusedHandshakes += 1;
        setTimeout(() => this.relay.reconnect(), 5_000);
      },
      onConnected: () => void this.initialize(),
    });
    this.relay.socket.onAnyOutgoing((_event: string, payload: unknown) => {
      if (typeof payload !== 'object' || payload === null || !('eventId' in payload) || typeof payload.eventId !== 'string') return;
      const part = 'motion' in payload ? payload.motion : 'patrol' in payload ? payload.patrol : 'dialog' in payload ? payload.dialog : null;
      const sent = typeof part === 'object' && part !== null ? this.byPart.get(part) : undefined;
      if (sent === undefined) return;
      if (sent.eventId !== null && sent.eventId !== payload.eventId) figures.eventIdChanged += 1;
      sent.eventId = payload.eventId;
    });
  }

  private async initialize(): Promise<void> {
    let jail: Awaited<ReturnType<GuestRelay['initialize']>>;
    try {
      jail = await this.relay.initialize('bench:chaos', 1);
    } catch {
      // No answer: a server that died meanwhile (the next connection initialises again), or a slow one (ask again).
      if (this.relay.socket.connected && !this.stopped) setTimeout(() => void this.initialize(), 500);
      return;
    }
    this.figures.initialized += 1;
    if (this.streaming) {
      if (jail === null) this.figures.initializedWithoutJail += 1;
    } else if (jail !== null && !this.stopped) {
      this.streaming = true;
      this.startStreams(this.phaseMs);
    } else if (!this.stopped) {
      // Before the scheduler's first pass: ask again, as a page waiting for its jail's start would be told.
      setTimeout(() => void this.initialize(), 500);
    }
  }

  /** The device's streams, at its own phase of the second. */
  private startStreams(phaseMs: number): void {
    const every = (ms: number, offsetMs: number, send: () => void) => {
      this.timers.push(
        setTimeout(() => {
          send();
          this.timers.push(setInterval(send, ms));
        }, offsetMs),
      );
    };
    every(MOTION_EVERY_MS, phaseMs, () => this.send('motion', 'motion_event_from_guest', { motion: { type: 1, time: Date.now() } }));
    let patrols = 0;
    every(PATROL_EVERY_MS, phaseMs * 7 + 500, () => {
      // A jail keeps at most 30 patrol images (docs/jail.md, Patrols); a run that restarts slowly lasts longer.
      if (patrols >= PATROL_MAX_LOGS_PER_SESSION) return;
      patrols += 1;
      this.send('patrol', 'patrol_from_guest', { patrol: { data: this.patrolData } });
    });
    every(DIALOG_EVERY_MS, phaseMs * 11 + 700, () =>
      this.send('dialog', 'guest_dialog_event_from_guest', { dialog: { text: `Still here, guest ${this.guest.id}` } }),
    );
  }

  private send(
    kind: SentEvent['kind'],
    event: 'motion_event_from_guest' | 'patrol_from_guest' | 'guest_dialog_event_from_guest',
    fields: { motion: { type: 1; time: number } } | { patrol: { data: string } } | { dialog: { text: string } },
  ): void {
    const sent: SentEvent = { kind, eventId: null, acked: false, duplicateAck: false, refusal: null };
    this.figures.events.push(sent);
    const part = 'motion' in fields ? fields.motion : 'patrol' in fields ? fields.patrol : fields.dialog;
    this.byPart.set(part, sent);
    // The three events take their own fields; `fields` was built for `event` above.
    const sending = (this.relay.sendLogged as (event: string, fields: object) => Promise<{ ok: true; duplicate?: boolean }>)(event, fields);
    sending.then(
      (ack) => {
        sent.acked = true;
        sent.duplicateAck = ack.duplicate === true;
      },
      // A refusal is the server's answer; the other rejection is the device closing with the event still kept.
      (error: unknown) => {
        if (error instanceof RelayRefusedError) sent.refusal = error.message;
      },
    );
  }

  /** Stops making events; those kept still go until acknowledged. */
  stopSending(): void {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers = [];
  }

  get waiting(): number {
    return this.relay.waiting;
  }

  close(): void {
    this.stopSending();
    this.relay.close();
  }
}

// --- Bookings through the API ---------------------------------------------------------------

interface Booking {
  guestId: number;
  startTime: number;
  /** The reservation id the API answered with (2xx and success), or null. */
  ackedId: number | null;
  /** Why it was not acknowledged: no answer, or the answer. */
  failure: string | null;
}

async function book(url: string, guest: SeededGuest, startTime: number): Promise<Booking> {
  const booking: Booking = { guestId: guest.id, startTime, ackedId: null, failure: null };
  try {
    const response = await fetch(`${url}/api/reservation/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ api: { language: 'en' }, guest, reservation: { work: 'Chaos booking', duration: 1, startTime, repeatType: 'none' } }),
      signal: AbortSignal.timeout(15_000),
    });
    const answer = (await response.json()) as { api?: { status?: string; errorMessage?: string }; reservation?: { id?: number } };
    if (response.ok && answer.api?.status === 'success' && typeof answer.reservation?.id === 'number') booking.ackedId = answer.reservation.id;
    else booking.failure = `HTTP ${response.status} ${answer.api?.errorMessage ?? ''}`;
  } catch (error) {
    booking.failure = error instanceof Error ? error.message : String(error);
  }
  return booking;
}

// --- One run ---------------------------------------------------------------------------------

interface Verdict {
  lines: string[];
  failures: string[];
}

async function run(options: Options, postgres: { url: string } | null, patrolData: string): Promise<Verdict> {
  const scratch = await mkdtemp(join(tmpdir(), 'warden-chaos-'));
  const databaseName = `warden_chaos_${Date.now().toString(36)}`;
  let database: DatabaseConfig = { driver: 'pglite', dataDir: join(scratch, 'pglite') };
  if (postgres !== null) {
    await adminQuery(postgres.url, `create database ${databaseName}`);
    const url = new URL(postgres.url);
    url.pathname = `/${databaseName}`;
    database = { driver: 'postgres', url: url.toString() };
  }
  const random = randomGenerator(options.seed);
  const devices: Device[] = [];
  const server = new ServerUnderChaos(
    await freePort(),
    { DATA_DIR: scratch, DATABASE_URL: database.driver === 'postgres' ? database.url : '' },
    join(scratch, 'server.log'),
  );
  // Kept for a look when the run fails or breaks off.
  let keep = true;
  try {
    // The run begins once the first server has had time to start; the jails are laid out from then.
    const runStart = Date.now() + 10_000;
    const runEnd = runStart + options.runMs;
    // Each device's jail is the longest booking, live from just before the run to long after it, however slow the
    // restarts make the run; the short jails are the ones that start and end in it.
    const deviceJailStart = runStart - 60_000;
    const scheduleGuests = Math.ceil(options.guests / 2);
    const jailsPerScheduleGuest = options.runMs >= 5 * 60_000 ? 2 : 1;
    const slots: Slot[][] = scheduleJails(random, scheduleGuests, jailsPerScheduleGuest, runStart, runEnd);
    const seeded = await seedGuests(database, options.guests + scheduleGuests, 'chaos', (index) =>
      index < options.guests ? [{ startTime: deviceJailStart, minutes: DEVICE_JAIL_MINUTES }] : (slots[index - options.guests] ?? []),
    );
    const deviceGuests = seeded.slice(0, options.guests);

    await server.start();
    await delay(runStart - Date.now());
    const figures: DeviceFigures = { events: [], initialized: 0, initializedWithoutJail: 0, gaveUp: 0, refusedHandshakes: 0, eventIdChanged: 0 };
    deviceGuests.forEach((guest, index) => {
      devices.push(new Device(server.url, guest, figures, patrolData, (index / deviceGuests.length) * MOTION_EVERY_MS));
    });

    // Bookings: a 1-hour jail for a device guest, each at its own quarter hour after its jail.
    const bookings: Booking[] = [];
    const bookingsUnderWay = new Set<Promise<void>>();
    const firstBookable = Math.ceil((deviceJailStart + (DEVICE_JAIL_MINUTES + 60) * 60_000) / QUARTER_MS) * QUARTER_MS;
    let booked = 0;
    const booking = setInterval(() => {
      const guest = deviceGuests[booked % deviceGuests.length];
      const round = Math.floor(booked / deviceGuests.length);
      booked += 1;
      if (guest === undefined) return;
      const underWay = book(server.url, guest, firstBookable + round * BOOKING_SPACING_MS).then((done) => {
        bookings.push(done);
        bookingsUnderWay.delete(underWay);
      });
      bookingsUnderWay.add(underWay);
    }, BOOKING_EVERY_MS);

    // The killer: one SIGKILL at a random moment of each equal share of the run (but not before the server has
    // answered for MIN_UP_MS: on a slow machine the kills run late rather than never letting a server work), then a
    // start on the same data.
    const share = options.runMs / options.kills;
    for (let kill = 0; kill < options.kills; kill++) {
      const readyAt = server.lives.at(-1)?.readyAt ?? Date.now();
      await delay(Math.max(runStart + (kill + random()) * share, readyAt + MIN_UP_MS) - Date.now());
      await server.kill();
      await server.start();
      const life = server.lives.at(-1);
      if (life?.readyAt != null) console.log(`  kill ${kill + 1}/${options.kills}: answering again after ${seconds(life.readyAt - life.spawnedAt)}`);
    }
    await delay(runEnd - Date.now());
    const endedAt = Date.now();
    clearInterval(booking);
    for (const device of devices) device.stopSending();

    // Every kept event answered, then the devices go; the jails end and the server stops.
    const drainUntil = Date.now() + DRAIN_TIMEOUT_MS;
    while (devices.some((device) => device.waiting > 0) && Date.now() < drainUntil) await delay(250);
    const drainedInMs = Date.now() - endedAt;
    for (const device of devices) device.close();
    const lastEnd = Math.max(...slots.flat().map((slot) => slot.startTime + slot.minutes * 60_000));
    await delay(lastEnd + 3_000 - Date.now());
    await Promise.all(bookingsUnderWay);
    await server.stop();

    const verdict = await judge(database, figures, bookings, server, drainedInMs);
    verdict.lines.unshift(`run       ${seconds(endedAt - runStart)} from the first event to the last kill's restart (planned ${seconds(options.runMs)})`);
    keep = verdict.failures.length > 0;
    if (keep) verdict.lines.push(`the data and the server's log are kept in ${scratch}`);
    return verdict;
  } catch (error) {
    throw new Error(`${error instanceof Error ? error.message : String(error)} (the data and the server's log are kept in ${scratch})`);
  } finally {
    for (const device of devices) device.close();
    await server.stop();
    if (postgres !== null && !keep) await adminQuery(postgres.url, `drop database if exists ${databaseName} with (force)`);
    if (!keep) await rm(scratch, { recursive: true, force: true });
  }
}

/** Reads the database (the server stopped) and holds it against what the devices, the bookings and the scheduler were told. */
async function judge(database: DatabaseConfig, figures: DeviceFigures, bookings: Booking[], server: ServerUnderChaos, drainedInMs: number): Promise<Verdict> {
  const { queryNamed, close } = await openDatabase(database);
  try {
    const stored = await queryNamed<{ event_id: string; copies: number }>(
      'chaos_logs',
      sql`select event_id, count(*)::int as copies from activity_logs where event_id is not null group by event_id`,
    );
    const copiesOf = new Map(stored.map((row) => [row.event_id, row.copies]));
    const reservationsStored = await queryNamed<{ id: number; guest_id: number; start_time: number }>(
      'chaos_bookings',
      sql`select id, guest_id, start_time::float8 as start_time from reservations where work = 'Chaos booking'`,
    );
    const jailRows = await queryNamed<JailRow>(
      'chaos_jails',
      sql`select r.id, r.start_time::float8 as start_time, r.end_time::float8 as end_time, j.started_at::float8 as started_at,
            j.finished_at::float8 as finished_at, j.finish
          from reservations r left join jails j on j.reservation_id = r.id where r.work = 'chaos bench'`,
    );

    const failures: string[] = [];
    const lines: string[] = [];
    const check = (ok: boolean, what: string) => {
      if (!ok) failures.push(what);
      return ok ? 'ok' : 'FAILED';
    };

    // Events.
    const acked = figures.events.filter((event) => event.acked);
    const ackedIds = acked.map((event) => event.eventId);
    const withoutId = ackedIds.filter((id) => id === null).length;
    const lost = ackedIds.filter((id) => id !== null && (copiesOf.get(id) ?? 0) === 0).length;
    const storedAcked = ackedIds.filter((id) => id !== null && (copiesOf.get(id) ?? 0) > 0).length;
    const duplicates = [...copiesOf.values()].reduce((sum, copies) => sum + Math.max(0, copies - 1), 0);
    const unacknowledged = figures.events.filter((event) => !event.acked && event.refusal === null).length;
    const refused = figures.events.filter((event) => event.refusal !== null);
    const byKind = (kindName: SentEvent['kind']) => figures.events.filter((event) => event.kind === kindName).length;
    lines.push(
      `events    sent ${figures.events.length} (motion ${byKind('motion')}, patrol ${byKind('patrol')}, dialog ${byKind('dialog')}), acknowledged ${acked.length} (${acked.filter((event) => event.duplicateAck).length} as a retry already stored), stored ${storedAcked}`,
      `          lost ${lost} (target 0) ${check(lost === 0 && withoutId === 0, `${lost} acknowledged events are not stored`)}; duplicates ${duplicates} (target 0) ${check(duplicates === 0, `${duplicates} events stored twice`)}; never acknowledged ${unacknowledged} (target 0) ${check(unacknowledged === 0, `${unacknowledged} events were never acknowledged`)}; refused ${refused.length} (target 0) ${check(refused.length === 0, `${refused.length} events refused: ${[...new Set(refused.map((event) => event.refusal))].join(', ')}`)}`,
      `          every kept event acknowledged ${seconds(drainedInMs)} after the run ended`,
    );

    // Bookings.
    const storedBookings = new Set(reservationsStored.map((row) => row.id));
    const ackedBookings = bookings.filter((booking) => booking.ackedId !== null);
    const lostBookings = ackedBookings.filter((booking) => booking.ackedId !== null && !storedBookings.has(booking.ackedId)).length;
    const unanswered = bookings.length - ackedBookings.length;
    const storedUnanswered = reservationsStored.length - (ackedBookings.length - lostBookings);
    const failureKinds = [...new Set(bookings.flatMap((booking) => (booking.failure === null ? [] : [booking.failure.replace(/\d+/g, 'N')])))];
    lines.push(
      `bookings  made ${bookings.length}, acknowledged ${ackedBookings.length}, stored ${ackedBookings.length - lostBookings}; lost ${lostBookings} (target 0) ${check(lostBookings === 0, `${lostBookings} acknowledged bookings are not stored`)}`,
      `          not acknowledged ${unanswered} (stored all the same: ${storedUnanswered})${failureKinds.length > 0 ? `: ${failureKinds.slice(0, 4).join('; ')}` : ''}`,
    );

    // Jails.
    const judged = jailRows.map((row) => judgeJail(row, server.lives));
    const due = judged.filter((jail) => jail.due);
    const notStarted = due.filter((jail) => !jail.started).length;
    const ending = due.filter((jail) => jail.endedInRun);
    const unfinished = ending.filter((jail) => !jail.finished).length;
    const late = due.filter((jail) => jail.finishLatenessMs !== null && jail.finishLatenessMs > LATENESS_TARGET_MS).length;
    const worst = Math.max(0, ...due.map((jail) => jail.finishLatenessMs ?? 0));
    const worstStart = Math.max(0, ...due.map((jail) => jail.startLatenessMs ?? 0));
    const atEnd = due.filter((jail) => jail.endedWhileUp);
    const worstAtEnd = Math.max(0, ...atEnd.map((jail) => jail.finishLatenessMs ?? 0));
    const finishKinds = new Map<string, number>();
    for (const row of jailRows) finishKinds.set(row.finish ?? 'none', (finishKinds.get(row.finish ?? 'none') ?? 0) + 1);
    lines.push(
      `jails     due ${due.length} (of ${jailRows.length}), started ${due.length - notStarted} ${check(notStarted === 0, `${notStarted} jails never started`)}; ended in the run ${ending.length}, finished ${ending.length - unfinished} ${check(unfinished === 0, `${unfinished} jails never finished`)} (${[...finishKinds].map(([finish, count]) => `${finish} ${count}`).join(', ')})`,
      `          late ${late} (target 0: at most ${seconds(LATENESS_TARGET_MS)} after the end, or after the restart that followed it) ${check(late === 0, `${late} jails finished late`)}; worst ${seconds(worst)}; worst of the ${atEnd.length} that ended while a server ran ${seconds(worstAtEnd)}; worst start ${seconds(worstStart)}`,
    );

    // The server and the devices.
    const downtimes = server.lives.slice(1).map((life, index) => (life.readyAt ?? Date.now()) - (server.lives[index]?.killedAt ?? life.spawnedAt));
    downtimes.sort((a, b) => a - b);
    lines.push(
      `server    ${server.lives.length - 1} restarts, down ${seconds(downtimes[Math.floor(downtimes.length / 2)] ?? 0)} median, ${seconds(downtimes.at(-1) ?? 0)} at most; crashes ${server.crashes.length} ${check(server.crashes.length === 0, `the server exited by itself: ${server.crashes.join(', ')}`)}`,
      `devices   initialised ${figures.initialized} times, without their live jail ${figures.initializedWithoutJail} ${check(figures.initializedWithoutJail === 0, `${figures.initializedWithoutJail} initialisations found no live jail`)}; gave up reconnecting ${figures.gaveUp}; handshakes refused ${figures.refusedHandshakes}; eventId changed ${figures.eventIdChanged} ${check(figures.eventIdChanged === 0, 'an event went out under two eventIds')}`,
    );
    return { lines, failures };
  } finally {
    await close();
  }
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  if (options === null) {
    console.log(USAGE);
    return;
  }
  const patrolData = await patrolImage();
  const load = () =>
    loadavg()
      .map((value) => value.toFixed(2))
      .join(' ');
  let failed = false;
  for (const kind of options.databases) {
    console.log(
      `\nchaos on ${kind}: ${options.guests} guests, ${options.kills} kills over ${seconds(options.runMs)}, seed ${options.seed}; load average ${load()}`,
    );
    const owned = kind === 'postgres' && options.postgresUrl === null ? await startPostgres() : null;
    const postgres = kind === 'postgres' ? (owned ?? { url: options.postgresUrl ?? '' }) : null;
    try {
      const verdict = await run(options, postgres, patrolData);
      for (const line of verdict.lines) console.log(line);
      console.log(`${kind}: ${verdict.failures.length === 0 ? 'every target HOLDS' : `FAILED: ${verdict.failures.join('; ')}`} (load average now ${load()})`);
      failed ||= verdict.failures.length > 0;
    } finally {
      owned?.stop();
    }
  }
  process.exit(failed ? 1 : 0);
}

main().catch((error: unknown) => {
  console.error(`bench:chaos failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});

/**
 * `npm run bench:live-traffic`: what a live jail's page really sends and
 * receives over the relay, measured in Debian's Chromium on the production
 * build (scripts/production.ts: a throw-away database, the development
 * routes on). Two guests, each verified through the API, start a try-anyway
 * jail (`/reservation/try`: a real jail that starts now and lasts an hour, on
 * the real clocks of the server and the page) and open its live screen in a
 * browser of their own whose fake camera plays a video: a moving scene
 * (tests/y4m.ts `movingVideo`) and a still scene with sensor noise
 * (`stillVideo`, given a noise seed). The Warden's voice is recorded instead of spoken and the
 * speech recognition hears nothing (tests/speech.ts), as in the browser tests:
 * headless Chromium has neither.
 *
 * Every frame of the page's relay WebSocket is decoded (bench/traffic.ts) for
 * `--minutes` from the moment it opened. Prints per video the socket.io
 * events and acks each way (count, per minute, mean bytes), the engine.io
 * pings and pongs, the motion events by their type, the patrols beside what
 * the patrol rule expects, the page's HTTP requests, and the relay mix: what
 * one guest sends a minute. Writes it all to `--json`.
 *
 *   npm run bench:live-traffic                       10 minutes
 *   npm run bench:live-traffic -- --minutes 1        a quick run
 *   npm run bench:live-traffic -- --json FILE --dist dist-mine
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Page } from '@playwright/test';
import { ensureBuilt, startProduction } from '../scripts/production.ts';
import { postApi, readyGuestOver } from '../src/server/test/server-process.ts';
import { RELAY_PATH } from '../src/shared/relay.ts';
import { chromiumWithCamera } from '../tests/chromium.ts';
import { signInPage } from '../tests/helpers.ts';
import { fakeRecognition, recordSpeech } from '../tests/speech.ts';
import { movingVideo, stillVideo, writeFileAtomic } from '../tests/y4m.ts';
import { ConnectionTraffic, expectedPatrols, motionTypeOf, summarise, type Direction, type Figure, type TimedMessage, type TrafficSummary } from './traffic.ts';

const MINUTE_MS = 60_000;
/** The longest measurement: a try-anyway jail of an hour holds it, with time for the page to start. */
const MAX_MINUTES = 55;
/** How long the page may take to open its camera on a busy machine. */
const CAMERA_TIMEOUT_MS = 120_000;

const USAGE = `npm run bench:live-traffic -- [options]

  --minutes N    minutes measured from the relay socket's opening (default 10, at most ${MAX_MINUTES})
  --json FILE    where to write the figures (default bench/results/live-traffic.json)
  --dist DIR     the client build to serve, built when older than its sources (default dist)
  --help         this text`;

function readOptions() {
  try {
    const { values } = parseArgs({
      options: {
        minutes: { type: 'string', default: '10' },
        json: { type: 'string', default: 'bench/results/live-traffic.json' },
        dist: { type: 'string', default: 'dist' },
        help: { type: 'boolean', default: false },
      },
    });
    if (values.help) {
      console.log(USAGE);
      process.exit(0);
    }
    const minutes = Number(values.minutes);
    if (!(minutes > 0 && minutes <= MAX_MINUTES))
      throw new Error(`--minutes takes a number of minutes above 0 and at most ${MAX_MINUTES}, not "${values.minutes}"`);
    return { ...values, minutes };
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    process.exit(2);
  }
}

const options = readOptions();
const { minutes } = options;

const videoDir = join(tmpdir(), 'warden-live-traffic');
const VIDEOS = [
  { name: 'moving', description: 'a dark square crossing a textured room (tests/y4m.ts movingVideo)', file: join(videoDir, 'moving.y4m'), data: movingVideo },
  {
    name: 'still',
    description: 'the same room standing still, with sensor noise of -1..+1 luma level (tests/y4m.ts stillVideo)',
    file: join(videoDir, 'still-noisy.y4m'),
    data: () => stillVideo({ sensorNoiseSeed: 1 }),
  },
] as const;

interface HttpRequest {
  method: string;
  path: string;
  timeMs: number;
}

interface VideoResult {
  video: string;
  description: string;
  /** Frames the page analysed in the window (one a second when the device keeps up). */
  framesAnalysed: number;
  /** Seconds from the socket's opening to the camera's first analysed frame. */
  cameraOnAfterSeconds: number;
  websockets: number;
  summary: TrafficSummary;
  /** The patrols the patrol rule expects from the camera's opening to the window's end. */
  expectedPatrols: number;
  httpRequests: { method: string; path: string; count: number }[];
  /** When each socket.io event crossed (seconds into the window), pings and pongs left out. */
  timeline: { seconds: number; direction: Direction; kind: string; name: string; bytes: number; motionType?: number }[];
}

/** The camera region's analysed frames (its `data-samples`). */
async function framesAnalysed(page: Page): Promise<number> {
  return Number((await page.locator('section.camera-panel').getAttribute('data-samples')) ?? 'NaN');
}

async function measure(baseUrl: string, video: (typeof VIDEOS)[number]): Promise<VideoResult> {
  const guest = await readyGuestOver(baseUrl);
  const trial = await postApi(baseUrl, '/reservation/try', { guest, reservation: { work: 'Write the report', duration: 1 } });
  if (trial.api.status !== 'success') throw new Error(`/reservation/try failed: ${trial.api.errorMessage ?? ''}`);
  const { id } = trial.reservation as { id: number };

  const browser = await chromium.launch(chromiumWithCamera(video.file));
  try {
    const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 360, height: 640 }, locale: 'en-US', serviceWorkers: 'block' });
    const page = await context.newPage();
    await recordSpeech(page);
    await fakeRecognition(page);

    const messages: TimedMessage[] = [];
    const requests: HttpRequest[] = [];
    let openedAt: number | null = null;
    let websockets = 0;
    const sinceOpen = () => (openedAt === null ? 0 : performance.now() - openedAt);
    page.on('websocket', (socket) => {
      if (!new URL(socket.url()).pathname.startsWith(RELAY_PATH)) return;
      websockets += 1;
      openedAt ??= performance.now();
      const connection = new ConnectionTraffic();
      const record = (direction: Direction, payload: string | Buffer) => {
        const timeMs = sinceOpen();
        for (const message of connection.frame(direction, payload)) messages.push({ ...message, direction, timeMs });
      };
      socket.on('framesent', ({ payload }) => record('up', payload));
      socket.on('framereceived', ({ payload }) => record('down', payload));
    });
    page.on('request', (request) => {
      if (openedAt !== null) requests.push({ method: request.method(), path: new URL(request.url()).pathname, timeMs: sinceOpen() });
    });

    await signInPage(page, guest);
    await page.goto(`/jail/live/${id}`);
    const camera = page.locator('section.camera-panel');
    await camera.and(page.locator('[data-phase="on"]')).waitFor({ timeout: CAMERA_TIMEOUT_MS });
    await page.waitForFunction(() => Number(document.querySelector('section.camera-panel')?.getAttribute('data-samples')) > 0, undefined, {
      timeout: CAMERA_TIMEOUT_MS,
    });
    const cameraOnAfterMs = sinceOpen();
    const windowMs = minutes * MINUTE_MS;
    await page.waitForTimeout(Math.max(0, windowMs - sinceOpen()));
    const frames = await framesAnalysed(page);
    const phase = await camera.getAttribute('data-phase');
    if (phase !== 'on') throw new Error(`the ${video.name} camera ended the window ${phase ?? 'without a phase'}`);
    await context.close();

    const inWindow = messages.filter((message) => message.timeMs <= windowMs);
    const counted = new Map<string, { method: string; path: string; count: number }>();
    for (const request of requests.filter((entry) => entry.timeMs <= windowMs)) {
      const key = `${request.method} ${request.path}`;
      const entry = counted.get(key) ?? { method: request.method, path: request.path, count: 0 };
      entry.count += 1;
      counted.set(key, entry);
    }
    return {
      video: video.name,
      description: video.description,
      framesAnalysed: frames,
      cameraOnAfterSeconds: cameraOnAfterMs / 1000,
      websockets,
      summary: summarise(inWindow, minutes),
      expectedPatrols: expectedPatrols((windowMs - cameraOnAfterMs) / MINUTE_MS),
      httpRequests: [...counted.values()].sort((a, b) => b.count - a.count),
      timeline: inWindow
        .filter((message) => message.kind !== 'engine')
        .map((message) => {
          const motionType = motionTypeOf(message);
          return {
            seconds: Math.round(message.timeMs) / 1000,
            direction: message.direction,
            kind: message.kind,
            name: message.name,
            bytes: message.bytes,
            ...(motionType === null ? {} : { motionType }),
          };
        }),
    };
  } finally {
    await browser.close();
  }
}

const DIRECTION_NAMES = { up: 'page → server', down: 'server → page' } as const;
const fixed = (value: number, digits = 2) => value.toFixed(digits);
const figureText = (figure: Figure) => `${figure.count} (${fixed(figure.perMinute)}/min, mean ${Math.round(figure.meanBytes)} B)`;

function print(result: VideoResult): void {
  const { summary } = result;
  console.log(`\n${result.video} video: ${result.description}`);
  console.log(
    `  ${fixed(summary.minutes, 1)} min from the relay socket's opening; camera analysing after ${fixed(result.cameraOnAfterSeconds, 1)} s; ` +
      `${result.framesAnalysed} frames analysed; ${result.websockets} websocket(s)`,
  );
  for (const direction of ['up', 'down'] as const) {
    console.log(`  ${DIRECTION_NAMES[direction].padEnd(44)} ${'count'.padStart(6)} ${'/min'.padStart(7)} ${'mean B'.padStart(8)}`);
    for (const row of summary.rows.filter((entry) => entry.direction === direction)) {
      const label = row.kind === 'event' ? row.name : `${row.kind} ${row.name}`;
      console.log(
        `    ${label.padEnd(42)} ${String(row.count).padStart(6)} ${fixed(row.perMinute).padStart(7)} ${String(Math.round(row.meanBytes)).padStart(8)}`,
      );
    }
  }
  const motion = summary.motion.map((row) => `${row.event} type ${row.type ?? '?'}: ${figureText(row)}`);
  console.log(`  motion events by type: ${motion.length === 0 ? 'none' : motion.join('; ')}`);
  const firstMotion = result.timeline.find((entry) => entry.motionType !== undefined);
  if (firstMotion !== undefined)
    console.log(`    the first, ${firstMotion.name}, at ${fixed(firstMotion.seconds - result.cameraOnAfterSeconds, 1)} s of analysis`);
  console.log(`  patrols: ${figureText(summary.patrols)}; the patrol rule expects ${fixed(result.expectedPatrols)} in this time`);
  const http = result.httpRequests.map((entry) => `${entry.method} ${entry.path} x${entry.count}`);
  console.log(`  HTTP requests of the page in the window: ${http.length === 0 ? 'none' : http.join(', ')}`);
  console.log(`  acks refusing an event: ${summary.refusedAcks}`);
  const mix = summary.relayMix;
  console.log(
    `  relay mix (per guest per minute): motion events ${fixed(mix.motionEventsPerMinute)}, alive checks ${fixed(mix.aliveChecksPerMinute)}, ` +
      `patrols ${fixed(mix.patrolsPerMinute)} (${Math.round(mix.patrolMeanBytes)} B), other events ${fixed(mix.otherEventsPerMinute)}` +
      (mix.otherEvents.length === 0 ? '' : ` (${mix.otherEvents.join(', ')})`),
  );
}

const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(', ');
console.log(`load average before: ${load()}`);
ensureBuilt(options.dist);
mkdirSync(videoDir, { recursive: true });
for (const video of VIDEOS) writeFileAtomic(video.file, video.data());
const server = await startProduction(options.dist);
let results: VideoResult[];
try {
  console.log(`measuring ${minutes} min of a live page with each video, both at once…`);
  results = await Promise.all(VIDEOS.map((video) => measure(server.url, video)));
} finally {
  await server.stop();
}
for (const result of results) print(result);
const loadAfter = load();
console.log(`\nload average after: ${loadAfter}`);
mkdirSync(dirname(options.json), { recursive: true });
writeFileSync(
  options.json,
  `${JSON.stringify({ date: new Date().toISOString(), minutes, loadAverageAfter: loadAfter, videos: results.map(({ summary, ...rest }) => ({ ...rest, ...summary })) }, null, 2)}\n`,
);
console.log(`written to ${options.json}`);

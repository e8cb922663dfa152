/**
 * `npm run bench:browser`: what each capture method of
 * src/client/vision/capture.ts costs the main thread and the worker, and how
 * old a frame's result is when it reaches the main thread. It builds and
 * serves bench/page (the product's camera, sampler and vision worker on a bare
 * page, `?capture=METHOD`, which records its samples on `window.__wardenBench`)
 * and runs it in Chromium, with a fake camera playing a
 * generated moving scene, the page's main thread slowed by CDP
 * `Emulation.setCPUThrottlingRate`.
 *
 *   npm run bench:browser -- [--samples 30] [--rounds 3] [--throttle 4]
 *                            [--methods track-processor,video-frame,...]
 *                            [--engine auto] [--ios] [--size 160x120]
 *                            [--port 0] [--json FILE]
 *
 * Each round measures an idle page (camera preview playing, nothing sampled)
 * and then every method (in a rotated order) for samples/rounds samples after
 * 3 warm-up samples, with a Chromium trace of the window. Per method:
 *
 *  - main ms/sample (the figure to judge by): the page main thread's tasks
 *    (trace `RunTask`, wall time, so stretched by the throttle) that overlap a
 *    sample's span, from its timer firing to its result arriving (a
 *    `performance.measure` the page records), less what the idle page's main
 *    thread spends in a span as long (averaged over the idle trace). Whole
 *    tasks count, so async work that lands inside the span (the completion of
 *    `createImageBitmap`, comlink's messages, GC) is included. `main CPU ms`
 *    is the same in thread time (`tdur`). With the track processor the worker
 *    owns the clock and the frames, so the main thread's part of a sample
 *    starts when the worker posts its report: the span runs from the report
 *    leaving the worker to its result on the main thread (the message task and
 *    anything that delays it). The bench page asks the worker to report every
 *    sample, as if every sample had an event: the jail hears only of samples
 *    with events, so this is its worst case. Work the path causes per camera
 *    frame rather than per sample shows in bg ms/s.
 *  - bg ms/s, bg tasks/s: main-thread work outside the sample spans above the
 *    idle page's, which shows work per camera frame rather than per sample
 *    (tasks/s is the steadier of the two on a busy machine).
 *  - page Δ ms/sample: the whole page's main-thread busy time (CDP
 *    `Performance.getMetrics` TaskDuration) over the window less the idle
 *    page's, per sample. It catches everything but is noisy: the idle page
 *    alone spends tens of ms a second.
 *  - sync ms: the synchronous spans the sampler measures around its own
 *    capture calls and posts (a lower bound).
 *  - worker ms: measured inside the worker from the call to the reply; read ms
 *    is its frame → RGBA part, analyse ms the analysis. CDP cannot throttle a
 *    worker ("only supported for pages"), so these run at this machine's speed.
 *  - tick→result ms: from the sample's timer (in the worker for the track
 *    processor) to its result on the main thread.
 *  - latency ms: from the camera's capture of the analysed frame to the result
 *    on the main thread. Capture times come from the preview's
 *    `requestVideoFrameCallback` metadata (`captureTime`); the track
 *    processor's `VideoFrame.timestamp` runs on another clock, whose offset is
 *    found by matching a second processor's frames against the preview's
 *    frames after the window. The sampler jitters its ticks by ±100 ms in
 *    bench mode so that samples meet the 10 fps camera at every phase.
 *
 * Beside the table it prints the targets (a cheap phone is about a 4x
 * slowdown): at most 1 ms of main-thread time a sample and a camera frame's
 * result on the main thread under 50 ms after capture (p50), each held or
 * failed per method, and whether the best method measured is the one the
 * product prefers (`PREFERRED_METHODS`).
 */
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type CDPSession, type Page } from '@playwright/test';
import { build, preview, type InlineConfig, type PreviewServer } from 'vite';
import wasm from 'vite-plugin-wasm';
import type { BenchRecord, BenchState } from './page/state.ts';
import { CAPTURE_METHODS, PREFERRED_METHODS, type CaptureMethod } from '../src/client/vision/capture.ts';
import type { ReportPolicy } from '../src/client/vision/client.ts';
import { SAMPLE_INTERVAL_MS } from '../src/client/vision/sample-timer.ts';
import { chromiumWithCamera } from '../tests/chromium.ts';
import { movingVideo, writeFileAtomic } from '../tests/y4m.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PAGE_ROOT = join(ROOT, 'bench', 'page');
const PAGE_OUT = join(ROOT, 'dist-bench');
const WARM_UP_SAMPLES = 3;
/** The targets of a cheap phone: main-thread ms a sample (at a 4x slowdown) and camera-to-result ms (p50). */
const TARGET_MAIN_MS_PER_SAMPLE = 1;
const TARGET_LATENCY_MS_P50 = 50;
/** A processor's frame that seems to reach the page later than this after its capture means the clock offset found is wrong. */
const MAX_DELIVERY_MS = 50;

/**
 * A method measured, with the reports the page hears: every sample (as the
 * camera check; the methods that capture on the main thread always), or,
 * with the track processor, only the first and those with events (the jail).
 */
interface Variant {
  method: CaptureMethod;
  report: ReportPolicy;
}

function variantName(variant: Variant): string {
  return variant.report === 'events' ? `${variant.method}, jail` : variant.method;
}

/** Each method with every sample reported, and the track processor as the jail runs it as well. */
function variantsOf(methods: readonly CaptureMethod[]): Variant[] {
  const variants: Variant[] = methods.map((method) => ({ method, report: 'every' }));
  if (methods.includes('track-processor')) variants.push({ method: 'track-processor', report: 'events' });
  return variants;
}
const IPHONE_USER_AGENT =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1';

interface Options {
  samples: number;
  rounds: number;
  throttle: number;
  width: number;
  height: number;
  methods: CaptureMethod[];
  engine: string;
  /** Present the page as an iPhone: the camera may then be up to 640 wide (docs/rules.md, Client constants). */
  ios: boolean;
  port: number;
  json: string | null;
}

function parseArgs(argv: string[]): Options {
  const options: Options = {
    samples: 30,
    rounds: 3,
    throttle: 4,
    width: 160,
    height: 120,
    methods: [...CAPTURE_METHODS],
    engine: 'auto',
    ios: false,
    port: 0,
    json: null,
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = (): string => {
      const next = argv[++i];
      if (next === undefined) throw new Error(`${flag} needs a value`);
      return next;
    };
    switch (flag) {
      case '--samples':
        options.samples = Math.max(3, Number.parseInt(value(), 10));
        break;
      case '--rounds':
        options.rounds = Math.max(1, Number.parseInt(value(), 10));
        break;
      case '--throttle':
        options.throttle = Math.max(1, Number(value()));
        break;
      case '--size': {
        const match = /^(\d+)x(\d+)$/.exec(value());
        if (match === null) throw new Error('--size is WIDTHxHEIGHT, e.g. 160x120');
        options.width = Number(match[1]);
        options.height = Number(match[2]);
        break;
      }
      case '--methods':
        options.methods = value()
          .split(',')
          .map((name) => {
            if (!CAPTURE_METHODS.includes(name as CaptureMethod)) throw new Error(`Unknown capture method ${name}`);
            return name as CaptureMethod;
          });
        break;
      case '--engine':
        options.engine = value();
        break;
      case '--ios':
        options.ios = true;
        break;
      case '--port':
        options.port = Number.parseInt(value(), 10);
        break;
      case '--json':
        options.json = resolve(value());
        break;
      case '--help':
        console.log(
          'npm run bench:browser -- [--samples N] [--rounds R] [--throttle RATE] [--size WxH] [--methods a,b] [--engine E] [--ios] [--port P] [--json FILE]',
        );
        process.exit(0);
        break;
      default:
        throw new Error(`Unknown argument ${flag}`);
    }
  }
  return options;
}

// ---------------------------------------------------------------------------
// Server and browser

/** The benchmark page (bench/page), built on its own: the product has no benchmark hook. */
function pageConfig(port: number): InlineConfig {
  return {
    configFile: false,
    root: PAGE_ROOT,
    logLevel: 'warn',
    plugins: [wasm()],
    // As the product's build: an ES module worker that instantiates the wasm.
    worker: { format: 'es', plugins: () => [wasm()] },
    build: { outDir: PAGE_OUT, emptyOutDir: true, target: 'es2022' },
    preview: { host: '127.0.0.1', port, strictPort: true },
  };
}

/** Builds the page (the vision module as it is now) and serves the build. */
async function startPage(port: number): Promise<PreviewServer> {
  await build(pageConfig(port));
  return preview(pageConfig(port));
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => done(port));
    });
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((done) => setTimeout(done, ms));
}

// ---------------------------------------------------------------------------
// Measuring one page

interface Metrics {
  taskMs: number;
  scriptMs: number;
  at: number;
}

async function metrics(cdp: CDPSession): Promise<Metrics> {
  const { metrics: list } = (await cdp.send('Performance.getMetrics')) as { metrics: { name: string; value: number }[] };
  const get = (name: string) => list.find((metric) => metric.name === name)?.value ?? 0;
  return { taskMs: get('TaskDuration') * 1000, scriptMs: get('ScriptDuration') * 1000, at: get('Timestamp') * 1000 };
}

const TRACE_CATEGORIES = ['disabled-by-default-devtools.timeline', 'blink.user_timing', '__metadata'];

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  /** Thread (CPU) time of the event, µs. */
  tdur?: number;
  args?: { name?: string };
  id2?: { local?: string };
  id?: string;
}

async function startTrace(cdp: CDPSession): Promise<void> {
  await cdp.send('Tracing.start', { traceConfig: { includedCategories: TRACE_CATEGORIES }, transferMode: 'ReturnAsStream' });
}

async function endTrace(cdp: CDPSession): Promise<TraceEvent[]> {
  const complete = new Promise<{ stream?: string }>((done) => cdp.once('Tracing.tracingComplete', done));
  await cdp.send('Tracing.end');
  const { stream } = await complete;
  if (stream === undefined) throw new Error('The trace came without a stream');
  const chunks: string[] = [];
  for (;;) {
    const chunk = await cdp.send('IO.read', { handle: stream, size: 1 << 20 });
    chunks.push(chunk.base64Encoded ? Buffer.from(chunk.data, 'base64').toString('utf8') : chunk.data);
    if (chunk.eof) break;
  }
  await cdp.send('IO.close', { handle: stream });
  const parsed: unknown = JSON.parse(chunks.join(''));
  return (Array.isArray(parsed) ? parsed : (parsed as { traceEvents: TraceEvent[] }).traceEvents) as TraceEvent[];
}

interface Span {
  start: number;
  end: number;
  /** CPU ms the thread spent in it (tasks only). */
  cpu: number;
}

interface TraceSummary {
  /** The page's main-thread tasks, sorted, in ms on the trace clock. */
  mainTasks: Span[];
  /** The page's `warden-sample` user-timing spans (tick → result), same clock. */
  samples: Span[];
  start: number;
  end: number;
}

function summariseTrace(events: TraceEvent[]): TraceSummary {
  const mainThreads = new Set(
    events
      .filter((event) => event.ph === 'M' && event.name === 'thread_name' && event.args?.name === 'CrRendererMain')
      .map((event) => `${event.pid}/${event.tid}`),
  );
  // The page's renderer: the one with the most tasks (the only page open).
  const tasksByThread = new Map<string, Span[]>();
  let start = Number.POSITIVE_INFINITY;
  let end = Number.NEGATIVE_INFINITY;
  for (const event of events) {
    if (event.ph === 'M') continue;
    start = Math.min(start, event.ts / 1000);
    end = Math.max(end, (event.ts + (event.dur ?? 0)) / 1000);
    const thread = `${event.pid}/${event.tid}`;
    if (event.name === 'RunTask' && event.ph === 'X' && mainThreads.has(thread)) {
      const list = tasksByThread.get(thread) ?? [];
      list.push({ start: event.ts / 1000, end: (event.ts + (event.dur ?? 0)) / 1000, cpu: (event.tdur ?? event.dur ?? 0) / 1000 });
      tasksByThread.set(thread, list);
    }
  }
  const mainTasks = [...tasksByThread.values()].sort((a, b) => b.length - a.length)[0] ?? [];
  mainTasks.sort((a, b) => a.start - b.start);
  const open = new Map<string, number>();
  const samples: Span[] = [];
  for (const event of events) {
    if (event.name !== 'warden-sample') continue;
    const id = event.id2?.local ?? event.id ?? '';
    if (event.ph === 'b') open.set(id, event.ts / 1000);
    else if (event.ph === 'e' && open.has(id)) {
      samples.push({ start: open.get(id) as number, end: event.ts / 1000, cpu: 0 });
      open.delete(id);
    }
  }
  samples.sort((a, b) => a.start - b.start);
  return { mainTasks, samples, start, end };
}

interface Busy {
  /** Wall ms of the tasks (stretched by the CPU throttle and by other processes). */
  wall: number;
  /** CPU ms of the tasks (neither throttled nor preempted). */
  cpu: number;
}

/** Busy time of the tasks that overlap [start, end] (whole tasks: a task cannot be split). */
function busyOverlapping(tasks: Span[], start: number, end: number): Busy {
  const busy = { wall: 0, cpu: 0 };
  for (const task of tasks) {
    if (task.start >= end) break;
    if (task.end > start) {
      busy.wall += task.end - task.start;
      busy.cpu += task.cpu;
    }
  }
  return busy;
}

/** The task during which `at` fell (a sample's result arriving): the message task that delivered it. */
function taskAt(tasks: Span[], at: number): Busy | null {
  const task = tasks.find((candidate) => candidate.start <= at && candidate.end >= at);
  return task === undefined ? null : { wall: task.end - task.start, cpu: task.cpu };
}

/** What the idle page's main thread spends in a window of `length` ms anywhere in the baseline trace. */
function expectedIdleBusy(baseline: TraceSummary, length: number, placements = 400): Busy {
  const span = baseline.end - baseline.start - length;
  const total = { wall: 0, cpu: 0 };
  if (span <= 0) return total;
  for (let i = 0; i < placements; i++) {
    const start = baseline.start + ((i + 0.5) / placements) * span;
    const busy = busyOverlapping(baseline.mainTasks, start, start + length);
    total.wall += busy.wall / placements;
    total.cpu += busy.cpu / placements;
  }
  return total;
}

function benchState(page: Page): Promise<Pick<BenchState, 'ready' | 'method' | 'errors'> & { count: number; engine: string | null }> {
  return page.evaluate(() => {
    const bench = window.__wardenBench;
    return {
      ready: bench?.ready ?? false,
      method: bench?.method ?? null,
      errors: bench?.errors ?? [],
      count: bench?.samples.length ?? 0,
      engine: bench?.engine?.engine ?? null,
    };
  });
}

async function waitFor(page: Page, test: (state: Awaited<ReturnType<typeof benchState>>) => boolean, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const state = await benchState(page);
    if (state.errors.length > 0) throw new Error(`The page reported: ${state.errors.join('; ')}`);
    if (test(state)) return state;
    if (Date.now() > deadline) throw new Error(`Timed out; the page is at ${JSON.stringify(state)}`);
    await sleep(250);
  }
}

interface PageRun {
  method: CaptureMethod | 'none';
  engine: string | null;
  windowMs: number;
  taskMs: number;
  scriptMs: number;
  samples: BenchRecord[];
  frames: BenchState['frames'];
  trace: TraceSummary;
  /** Track processor only: VideoFrame.timestamp/1000 − captureTime, and how many frames agreed. */
  clockOffset: ClockOffset | null;
}

interface ClockOffset {
  ms: number;
  matches: number;
  of: number;
  /** How long after its capture time a processor's frame reached the page (checks the offset). */
  deliveryMsP50: number;
  deliveryMsMin: number;
}

async function measure(browser: Browser, base: string, variant: Variant | 'none', options: Options, windowMs: number): Promise<PageRun> {
  const method = variant === 'none' ? 'none' : variant.method;
  const context = await browser.newContext(options.ios ? { userAgent: IPHONE_USER_AGENT } : {});
  const page = await context.newPage();
  try {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable', { timeDomain: 'timeTicks' });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: options.throttle });
    const query = new URLSearchParams({ capture: method, engine: options.engine, report: variant === 'none' ? 'every' : variant.report });
    await page.goto(`${base}/index.html?${query}`);
    const ready = await waitFor(page, (state) => state.ready, 30_000);
    let first = 0;
    if (method === 'none') {
      await sleep(WARM_UP_SAMPLES * 1000);
    } else if (variant !== 'none' && variant.report === 'events') {
      // Only the first sample is heard of (the scene makes no events): then the warm-up's length.
      const warm = await waitFor(page, (state) => state.count >= 1, 30_000);
      first = warm.count;
      await sleep((WARM_UP_SAMPLES - 1) * 1000);
    } else {
      const warm = await waitFor(page, (state) => state.count >= WARM_UP_SAMPLES, 30_000);
      first = warm.count;
    }
    await startTrace(cdp);
    const start = await metrics(cdp);
    // No polling inside the window: it would add main-thread work.
    await sleep(windowMs + (method === 'none' ? 0 : 500));
    const end = await metrics(cdp);
    const trace = summariseTrace(await endTrace(cdp));
    const data = await page.evaluate(() => {
      const bench = window.__wardenBench;
      if (bench === undefined) throw new Error('No bench state');
      return { samples: bench.samples.slice(), frames: bench.frames.slice(), errors: bench.errors.slice() };
    });
    if (data.errors.length > 0) throw new Error(`The page reported: ${data.errors.join('; ')}`);
    // Samples whose result arrived inside the window.
    const samples = data.samples.slice(first);
    const clockOffset = method === 'track-processor' ? await calibrateTrackClock(page) : null;
    return {
      method,
      engine: ready.engine,
      windowMs: end.at - start.at,
      taskMs: end.taskMs - start.taskMs,
      scriptMs: end.scriptMs - start.scriptMs,
      samples,
      frames: data.frames,
      trace,
      clockOffset,
    };
  } finally {
    await context.close();
  }
}

/**
 * The track processor's `VideoFrame.timestamp` counts on the capture clock,
 * not the page's `performance.now()`. Reads 3 s of frames from a second
 * processor while the preview logs its frames' `captureTime`, and takes the
 * offset most frame pairs agree on (the same frame seen both ways).
 */
async function calibrateTrackClock(page: Page): Promise<ClockOffset | null> {
  const { stamps, arrivals, captures } = await page.evaluate(async () => {
    const video = document.querySelector('video');
    const stream = video?.srcObject;
    if (!(stream instanceof MediaStream)) throw new Error('No preview stream');
    const bench = window.__wardenBench;
    if (bench === undefined) throw new Error('No bench state');
    const since = bench.frames.length;
    const track = stream.getVideoTracks()[0].clone();
    const reader = new MediaStreamTrackProcessor({ track }).readable.getReader();
    const stamps: number[] = [];
    const arrivals: number[] = [];
    const until = performance.now() + 3000;
    while (performance.now() < until) {
      const { value } = await reader.read();
      if (value === undefined) break;
      arrivals.push(performance.now());
      stamps.push(value.timestamp / 1000);
      value.close();
    }
    await reader.cancel();
    track.stop();
    const captures = bench.frames.slice(Math.max(0, since - 5)).flatMap((frame) => (frame.captureTime === null ? [] : [frame.captureTime]));
    return { stamps, arrivals, captures };
  });
  if (stamps.length === 0 || captures.length === 0) return null;
  // Every pair's difference; the true offset is shared by every frame seen both ways.
  const bins = new Map<number, number[]>();
  for (const stamp of stamps) {
    for (const capture of captures) {
      const difference = stamp - capture;
      const bin = Math.round(difference / 0.5);
      const list = bins.get(bin) ?? [];
      list.push(difference);
      bins.set(bin, list);
    }
  }
  let best: number[] = [];
  for (const [bin, list] of bins) {
    const merged = [...list, ...(bins.get(bin + 1) ?? [])];
    if (merged.length > best.length) best = merged;
  }
  const offset = median(best);
  // Sanity check: a processor's frame reaches the page soon after its capture time.
  const delivery = stamps.map((stamp, index) => arrivals[index] - (stamp - offset));
  if (Math.min(...delivery) > MAX_DELIVERY_MS) {
    // The pairs matched a frame against another (the camera is periodic): no latency from this run.
    console.log(
      `    (processor clock not found: its frames would reach the page ${fixed(Math.min(...delivery), 1)} ms after capture at best; no latency from this run)`,
    );
    return null;
  }
  return {
    ms: offset,
    matches: best.length,
    of: Math.min(stamps.length, captures.length),
    deliveryMsP50: median(delivery),
    deliveryMsMin: Math.min(...delivery),
  };
}

// ---------------------------------------------------------------------------
// Latency

/** The capture time (page clock) of each sample's frame, or null when it cannot be known. */
function captureTimes(run: PageRun): (number | null)[] {
  const frames = run.frames.filter((frame) => frame.captureTime !== null);
  const byMediaTime = new Map(frames.map((frame) => [Math.round(frame.mediaTime * 1e6), frame.captureTime as number]));
  return run.samples.map((sample) => {
    switch (run.method) {
      case 'track-processor':
        return sample.frameTimestampUs === null || run.clockOffset === null ? null : sample.frameTimestampUs / 1000 - run.clockOffset.ms;
      case 'video-frame':
        // VideoFrame(video).timestamp is the presented frame's media time in µs.
        return sample.frameTimestampUs === null ? null : (byMediaTime.get(sample.frameTimestampUs) ?? null);
      case 'image-bitmap': {
        // The frame on screen when createImageBitmap was called.
        let shown: number | null = null;
        for (const frame of frames) if (frame.presentationTime <= sample.requestedAt) shown = frame.captureTime;
        return shown;
      }
      case 'image-capture':
        // grabFrame takes the next frame the camera delivers.
        return frames.find((frame) => (frame.captureTime as number) >= sample.requestedAt)?.captureTime ?? null;
      default:
        return null;
    }
  });
}

// ---------------------------------------------------------------------------
// Statistics and output

function quantile(values: number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const position = (sorted.length - 1) * q;
  const low = Math.floor(position);
  const high = Math.ceil(position);
  return sorted[low] + (sorted[high] - sorted[low]) * (position - low);
}

function median(values: number[]): number {
  return quantile(values, 0.5);
}

export interface Row {
  method: CaptureMethod;
  report: ReportPolicy;
  /** Samples the worker analysed in the windows: the reported ones, or with 'events' one a second of the windows. */
  analysed: number;
  engine: string | null;
  throttle: number;
  size: string;
  rounds: number;
  samples: number;
  /**
   * Main-thread ms per sample: the page main thread's tasks (trace RunTask)
   * that overlap the sample's span from its timer to its result, less what the
   * idle page's main thread spends in a span as long (that round's baseline).
   */
  mainMsPerSample: number;
  mainMsPerSampleP95: number;
  /**
   * The main-thread task in which the result arrived (the message that
   * delivered it), wall ms p50 and p95, and CPU ms p50. With the track
   * processor that task is all the main thread does for a sample.
   */
  resultTaskMsP50: number;
  resultTaskMsP95: number;
  resultTaskCpuMsP50: number;
  /** The same in CPU time (trace tdur): what the main thread computed, unthrottled. */
  mainCpuMsPerSample: number;
  /** Main-thread busy ms per second outside the sample spans, above the idle page's (per-frame work). */
  backgroundMsPerSecond: number;
  /** The same in CPU time. */
  backgroundCpuMsPerSecond: number;
  /** Main-thread tasks per second outside the sample spans, above the idle page's. */
  backgroundTasksPerSecond: number;
  /** Whole-page main-thread busy time (CDP TaskDuration) per sample, less the idle page's: noisy. */
  pageMsPerSample: number;
  /** The sampler's own synchronous spans around its capture calls and posts. */
  mainSyncMsP50: number;
  workerMsP50: number;
  workerMsP95: number;
  readMsP50: number;
  analyseMsP50: number;
  /** From the sample's timer to its result on the main thread. */
  pipelineMsP50: number;
  /** From the camera's capture of the analysed frame to the result on the main thread. */
  latencyMsP50: number | null;
  latencyMsP95: number | null;
  latencySamples: number;
  pixelPath: string;
}

interface Measured {
  run: PageRun;
  baseline: PageRun;
}

function sum(values: number[]): number {
  return values.reduce((total, value) => total + value, 0);
}

/** Busy ms and task count of the main thread outside the sample spans, and the time outside them. */
function background(trace: TraceSummary): { busyMs: number; cpuMs: number; tasks: number; ms: number } {
  const inside = (task: Span) => trace.samples.some((span) => task.start < span.end && task.end > span.start);
  const outside = trace.mainTasks.filter((task) => !inside(task));
  const covered = sum(trace.samples.map((span) => span.end - span.start));
  return {
    busyMs: sum(outside.map((task) => task.end - task.start)),
    cpuMs: sum(outside.map((task) => task.cpu)),
    tasks: outside.length,
    ms: trace.end - trace.start - covered,
  };
}

function row(variant: Variant, measured: Measured[], options: Options): Row {
  const { method, report } = variant;
  const attributed: number[] = [];
  const attributedCpu: number[] = [];
  const resultTasks: Busy[] = [];
  const latencies: number[] = [];
  let pageExcess = 0;
  let backgroundMs = 0;
  let backgroundCpu = 0;
  let backgroundTasks = 0;
  let backgroundTime = 0;
  for (const { run, baseline } of measured) {
    for (const span of run.trace.samples) {
      const busy = busyOverlapping(run.trace.mainTasks, span.start, span.end);
      const idle = expectedIdleBusy(baseline.trace, span.end - span.start);
      attributed.push(busy.wall - idle.wall);
      attributedCpu.push(busy.cpu - idle.cpu);
      const delivered = taskAt(run.trace.mainTasks, span.end);
      if (delivered !== null) resultTasks.push(delivered);
    }
    captureTimes(run).forEach((capture, index) => {
      if (capture !== null) latencies.push(run.samples[index].resultAt - capture);
    });
    pageExcess += run.taskMs - (baseline.taskMs * run.windowMs) / baseline.windowMs;
    const idle = background(baseline.trace);
    const busy = background(run.trace);
    backgroundMs += busy.busyMs - (idle.busyMs / idle.ms) * busy.ms;
    backgroundCpu += busy.cpuMs - (idle.cpuMs / idle.ms) * busy.ms;
    backgroundTasks += busy.tasks - (idle.tasks / idle.ms) * busy.ms;
    backgroundTime += busy.ms;
  }
  const samples = measured.flatMap(({ run }) => run.samples);
  // With 'events' the main thread's work is spread over every sample analysed, heard of or not.
  const analysed = report === 'events' ? sum(measured.map(({ run }) => Math.floor(run.windowMs / SAMPLE_INTERVAL_MS))) : samples.length;
  return {
    method,
    report,
    analysed,
    engine: measured[0]?.run.engine ?? null,
    throttle: options.throttle,
    size: `${options.width}x${options.height}`,
    rounds: measured.length,
    samples: samples.length,
    mainMsPerSample: analysed === 0 ? Number.NaN : sum(attributed) / analysed,
    mainMsPerSampleP95: quantile(attributed, 0.95),
    resultTaskMsP50: median(resultTasks.map((task) => task.wall)),
    resultTaskMsP95: quantile(
      resultTasks.map((task) => task.wall),
      0.95,
    ),
    resultTaskCpuMsP50: median(resultTasks.map((task) => task.cpu)),
    mainCpuMsPerSample: analysed === 0 ? Number.NaN : sum(attributedCpu) / analysed,
    backgroundCpuMsPerSecond: (backgroundCpu * 1000) / backgroundTime,
    backgroundMsPerSecond: (backgroundMs * 1000) / backgroundTime,
    backgroundTasksPerSecond: (backgroundTasks * 1000) / backgroundTime,
    pageMsPerSample: analysed === 0 ? Number.NaN : pageExcess / analysed,
    mainSyncMsP50: median(samples.map((sample) => sample.mainMs)),
    workerMsP50: median(samples.map((sample) => sample.workerMs)),
    workerMsP95: quantile(
      samples.map((sample) => sample.workerMs),
      0.95,
    ),
    readMsP50: median(samples.map((sample) => sample.readMs)),
    analyseMsP50: median(samples.map((sample) => sample.analyseMs)),
    pipelineMsP50: median(samples.map((sample) => sample.resultAt - sample.requestedAt)),
    latencyMsP50: latencies.length > 0 ? median(latencies) : null,
    latencyMsP95: latencies.length > 0 ? quantile(latencies, 0.95) : null,
    latencySamples: latencies.length,
    pixelPath: [...new Set(samples.map((sample) => sample.pixelPath))].join('+'),
  };
}

function fixed(value: number | null, digits = 2): string {
  return value === null || Number.isNaN(value) ? '–' : value.toFixed(digits);
}

function printTable(rows: Row[]): void {
  const columns: [string, (entry: Row) => string][] = [
    ['capture method', (entry) => variantName(entry)],
    ['main ms/sample', (entry) => fixed(entry.mainMsPerSample)],
    ['p95', (entry) => fixed(entry.mainMsPerSampleP95)],
    ['main CPU ms', (entry) => fixed(entry.mainCpuMsPerSample)],
    ['result task ms', (entry) => fixed(entry.resultTaskMsP50)],
    ['p95', (entry) => fixed(entry.resultTaskMsP95)],
    ['CPU', (entry) => fixed(entry.resultTaskCpuMsP50)],
    ['bg ms/s', (entry) => fixed(entry.backgroundMsPerSecond)],
    ['bg CPU ms/s', (entry) => fixed(entry.backgroundCpuMsPerSecond)],
    ['bg tasks/s', (entry) => fixed(entry.backgroundTasksPerSecond, 1)],
    ['page Δ ms/sample', (entry) => fixed(entry.pageMsPerSample)],
    ['sync ms', (entry) => fixed(entry.mainSyncMsP50)],
    ['worker ms p50', (entry) => fixed(entry.workerMsP50)],
    ['p95', (entry) => fixed(entry.workerMsP95)],
    ['read ms', (entry) => fixed(entry.readMsP50)],
    ['analyse ms', (entry) => fixed(entry.analyseMsP50)],
    ['tick→result ms', (entry) => fixed(entry.pipelineMsP50, 1)],
    ['latency ms p50', (entry) => fixed(entry.latencyMsP50, 1)],
    ['p95', (entry) => fixed(entry.latencyMsP95, 1)],
    [
      'n',
      (entry) =>
        `${entry.analysed}${entry.samples < entry.analysed ? ` (${entry.samples} heard)` : ''}${entry.latencySamples < entry.samples ? ` (${entry.latencySamples})` : ''}`,
    ],
    ['pixels', (entry) => entry.pixelPath],
  ];
  const lines = rows.map((entry) => columns.map(([, cell]) => cell(entry)));
  const widths = columns.map(([title], column) => Math.max(title.length, ...lines.map((line) => line[column].length)));
  const format = (cells: string[]) =>
    `| ${cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join(' | ')} |`;
  console.log(format(columns.map(([title]) => title)));
  console.log(`|${widths.map((width, column) => (column === 0 ? `:${'-'.repeat(width + 1)}` : `${'-'.repeat(width + 1)}:`)).join('|')}|`);
  for (const line of lines) console.log(format(line));
}

function verdict(holds: boolean | null): string {
  return holds === null ? 'not measured' : holds ? 'holds' : 'fails';
}

/** The targets beside each method's figures, and whether the product's preference is the best measured. */
/**
 * The targets beside each row's figures, and whether the product's
 * preference is the best method measured (rows with every sample heard, like
 * for like). The jail's row takes its latency from the same method's row with
 * every sample heard: the path is the same up to the report, and the jail
 * hears of too few samples to measure it.
 */
function printTargets(rows: Row[], throttle: number): void {
  console.log('');
  console.log(
    `Targets (at a 4x slowdown; this run ${throttle}x): main ms/sample <= ${TARGET_MAIN_MS_PER_SAMPLE}, camera-to-result latency p50 < ${TARGET_LATENCY_MS_P50} ms`,
  );
  const every = rows.filter((entry) => entry.report === 'every');
  const preferred = PREFERRED_METHODS.find((method) => every.some((entry) => entry.method === method));
  for (const entry of rows) {
    const latencyRow = entry.report === 'events' ? every.find((other) => other.method === entry.method) : entry;
    const latencyMs = latencyRow?.latencyMsP50 ?? null;
    const main = Number.isNaN(entry.mainMsPerSample) ? null : entry.mainMsPerSample <= TARGET_MAIN_MS_PER_SAMPLE;
    const latency = latencyMs === null ? null : latencyMs < TARGET_LATENCY_MS_P50;
    const product = entry.method === preferred && (entry.report === 'events' || !rows.some((other) => other.report === 'events'));
    console.log(
      `  ${variantName(entry).padEnd(22)} main ${fixed(entry.mainMsPerSample)} ms/sample: ${verdict(main)}; ` +
        `latency p50 ${fixed(latencyMs, 1)} ms: ${verdict(latency)}${product ? '   <- what the jail runs' : ''}`,
    );
  }
  const best = every.filter((entry) => !Number.isNaN(entry.mainMsPerSample)).sort((a, b) => a.mainMsPerSample - b.mainMsPerSample)[0]?.method;
  if (best !== undefined && preferred !== undefined) {
    console.log(
      `  lowest main ms/sample, every sample heard: ${best}; the product prefers ${preferred}: ${best === preferred ? 'agrees' : 'DISAGREES (see PREFERRED_METHODS)'}`,
    );
  }
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  const video = writeFileAtomic(
    join(tmpdir(), 'warden-bench-camera', `moving-${options.width}x${options.height}.y4m`),
    movingVideo(options.width, options.height),
  );
  const port = options.port || (await freePort());
  const server = await startPage(port);
  const base = `http://127.0.0.1:${port}`;
  let browser: Browser | null = null;
  try {
    browser = await chromium.launch(chromiumWithCamera(video));
    const perRound = Math.max(3, Math.round(options.samples / options.rounds));
    console.log(
      `Chromium ${browser.version()}, fake camera ${options.width}x${options.height} at 10 fps, CPU throttle ${options.throttle}x, ` +
        `${options.rounds} rounds of ${perRound} samples per method (after ${WARM_UP_SAMPLES} warm-up samples each)`,
    );
    const variants = variantsOf(options.methods);
    const measured = new Map<Variant, Measured[]>(variants.map((variant) => [variant, []]));
    const baselines: PageRun[] = [];
    for (let round = 0; round < options.rounds; round++) {
      const baseline = await measure(browser, base, 'none', options, perRound * 1000);
      baselines.push(baseline);
      const idle = background(baseline.trace);
      console.log(
        `round ${round + 1}: idle page (preview playing, nothing sampled) busy ${fixed((idle.busyMs * 1000) / idle.ms)} ms/s ` +
          `(CPU ${fixed((idle.cpuMs * 1000) / idle.ms)} ms/s), ` +
          `${fixed((idle.tasks * 1000) / idle.ms, 1)} tasks/s`,
      );
      // A different order each round, so no method always runs first or last.
      const order = variants.map((_, index) => variants[(index + round) % variants.length]);
      for (const variant of order) {
        const run = await measure(browser, base, variant, { ...options, samples: perRound }, perRound * 1000);
        measured.get(variant)?.push({ run, baseline });
        const clock =
          run.clockOffset === null
            ? ''
            : `; processor clock offset agreed by ${run.clockOffset.matches}/${run.clockOffset.of} frames, ` +
              `its frames reach the page ${fixed(run.clockOffset.deliveryMsMin, 1)} ms (min) / ${fixed(run.clockOffset.deliveryMsP50, 1)} ms (p50) after capture`;
        console.log(`  ${variantName(variant)}: ${run.samples.length} samples heard (${run.trace.samples.length} traced), engine ${run.engine}${clock}`);
      }
    }
    const rows = variants.map((variant) => row(variant, measured.get(variant) ?? [], options));
    console.log('');
    printTable(rows);
    printTargets(rows, options.throttle);
    if (options.json !== null) {
      const idle = baselines.map((baseline) => {
        const summary = background(baseline.trace);
        return {
          busyMsPerSecond: (summary.busyMs * 1000) / summary.ms,
          cpuMsPerSecond: (summary.cpuMs * 1000) / summary.ms,
          tasksPerSecond: (summary.tasks * 1000) / summary.ms,
        };
      });
      writeFileSync(options.json, `${JSON.stringify({ chromium: browser.version(), options, idle, rows }, null, 2)}\n`);
      console.log(`\nwrote ${options.json}`);
    }
  } finally {
    await browser?.close();
    await server.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});

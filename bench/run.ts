/**
 * `npm run bench`: the whole per-frame pipeline of docs/vision.md (every step
 * plus the patrol thumbnail, every frame) at 160x120 and 640x480, on the same
 * frames for wasm-simd, wasm-scalar, the plain JavaScript pipeline and an
 * OpenCV.js peer. See bench/README.md.
 */

import { cpus, loadavg } from 'node:os';
import { Analyser, THUMBNAIL_BYTES, type AnalyserOptions, type FrameAnalyser, type VisionExports } from '../src/client/vision/analyser';
import { JsAnalyser } from '../src/client/vision/js-analyser';
import { loadVisionWasm } from '../src/client/vision/load-node';
import {
  USAGE,
  checkTarget,
  parseArgs,
  resolutionName,
  speedup,
  writeJson,
  type BenchOptions,
  type Implementation,
  type Resolution,
  type ResultRow,
} from './args';
import { fakeCameraFrames } from './camera';
import { syntheticFrames, type FrameSequence } from './frames';
import { TimedJsAnalyser } from './pipelines/js';
import { OpenCvAnalyser, loadOpenCv, type OpenCv } from './pipelines/opencv';
import { StepClock, median } from './steps';

const SYNTHETIC_FRAMES = 60;
const CAMERA_FRAMES = 30;
const WHITELIST_IMAGES = 4;

/** Table rows, in order; an implementation shows the steps it can honestly split. */
const STEP_ORDER = ['copy', 'process (fused)', 'pixel pass', 'face', 'grid', 'luma', 'motion', 'darkness', 'whitelist', 'areas', 'events', 'patrol', 'total'];

const STEP_NOTES = [
  "copy             the RGBA frame into the implementation's buffer (wasm memory, JS buffer, Mat data)",
  'process (fused)  wasm: one vision_process call (luma, motion, centroid, darkness, 100x100 luma',
  '                 thumbnail, 3x3 areas, whitelist, events) and reading the result record;',
  '                 the crate fuses these into one pass over the pixels, so they cannot be timed apart',
  'pixel pass       js: the single pass over the pixels (luma, motion, centroid and darkness sums,',
  '                 thumbnail and area box sums); fused, not splittable either',
  'face             js: the face search (nothing without a face model, as here)',
  'grid             js: thumbnail and area means, changed areas',
  'luma...areas     opencv: cvtColor; absdiff+mean+threshold+countNonZero+moments; mean+minMaxLoc;',
  '                 resize INTER_AREA to 100x100 + norm L1 per image; mean over 9 ROIs',
  'events           runs, episodes and nodding in JS, and building the FrameResult',
  'patrol           the patrol thumbnail (long side 100) and its all-black check, copied out',
  'total            copy + process + patrol, timed as one span (no per-step timers)',
];

interface Contender {
  name: Implementation;
  analyser: FrameAnalyser;
  /** Attaches or detaches the step clock; implementations without inner steps time `process` whole. */
  setClock(clock: StepClock | null): void;
  innerSteps: boolean;
  timeMs: number;
}

interface Runtimes {
  wasm: Partial<Record<'simd' | 'scalar', VisionExports>>;
  cv: OpenCv | null;
}

function contender(name: Implementation, options: AnalyserOptions, runtimes: Runtimes): Contender {
  switch (name) {
    case 'wasm-simd':
    case 'wasm-scalar': {
      const exports = runtimes.wasm[name === 'wasm-simd' ? 'simd' : 'scalar'];
      if (!exports) throw new Error(`${name} is not loaded`);
      return { name, analyser: new Analyser(exports, options), setClock: () => {}, innerSteps: false, timeMs: 0 };
    }
    case 'js': {
      const analyser = new TimedJsAnalyser(options);
      return { name, analyser, setClock: (clock) => (analyser.clock = clock), innerSteps: true, timeMs: 0 };
    }
    case 'opencv': {
      if (!runtimes.cv) throw new Error('OpenCV.js is not loaded');
      const analyser = new OpenCvAnalyser(runtimes.cv, options);
      return { name, analyser, setClock: (clock) => (analyser.clock = clock), innerSteps: true, timeMs: 0 };
    }
  }
}

/** One frame, the whole pipeline: copy in, analyse, patrol thumbnail. */
function runFrame(entry: Contender, frame: Uint8ClampedArray): void {
  entry.analyser.frameBuffer().set(frame);
  entry.analyser.process(entry.timeMs);
  entry.analyser.patrol();
  entry.timeMs += 1000;
}

function runFrameSteps(entry: Contender, frame: Uint8ClampedArray, clock: StepClock): void {
  clock.start();
  entry.analyser.frameBuffer().set(frame);
  clock.lap('copy');
  entry.analyser.process(entry.timeMs);
  if (!entry.innerSteps) clock.lap('process (fused)');
  entry.analyser.patrol();
  clock.lap('patrol');
  entry.timeMs += 1000;
}

/** Whitelist images: the thumbnails of a few frames of the sequence (so some frames match). */
function whitelistFor(sequence: readonly Uint8ClampedArray[], resolution: Resolution): Uint8Array[] {
  const analyser = new JsAnalyser({ ...resolution, ios: false, sleeper: false });
  const images: Uint8Array[] = [];
  for (let i = 0; i < WHITELIST_IMAGES; i++) {
    analyser.frameBuffer().set(sequence[Math.floor(((i + 0.5) * sequence.length) / WHITELIST_IMAGES)]);
    analyser.process(i * 1000);
    images.push(analyser.thumbnail());
  }
  return images;
}

function measureResolution(resolution: Resolution, frames: readonly Uint8ClampedArray[], options: BenchOptions, runtimes: Runtimes): ResultRow[] {
  const analyserOptions: AnalyserOptions = { ...resolution, ios: false, sleeper: false };
  const whitelist = whitelistFor(frames, resolution);
  const entries = options.implementations.map((name) => contender(name, analyserOptions, runtimes));
  for (const entry of entries) entry.analyser.setWhitelist(whitelist);
  const totals = new Map<Implementation, number[]>(entries.map((entry) => [entry.name, []]));
  const clocks = new Map<Implementation, StepClock>(entries.map((entry) => [entry.name, new StepClock()]));
  try {
    // Rounds are interleaved across implementations so that drift in the
    // machine's load spreads over all of them.
    for (let round = 0; round < options.warmup; round++) {
      for (const entry of entries) for (const frame of frames) runFrame(entry, frame);
    }
    for (let round = 0; round < options.rounds; round++) {
      for (const entry of entries) {
        const samples = totals.get(entry.name) ?? [];
        for (const frame of frames) {
          const start = performance.now();
          runFrame(entry, frame);
          samples.push((performance.now() - start) * 1000);
        }
      }
    }
    const stepRounds = Math.max(1, Math.ceil(options.rounds / 2));
    for (let round = 0; round < stepRounds; round++) {
      for (const entry of entries) {
        const clock = clocks.get(entry.name) ?? new StepClock();
        entry.setClock(clock);
        for (const frame of frames) runFrameSteps(entry, frame, clock);
        entry.setClock(null);
      }
    }
  } finally {
    for (const entry of entries) entry.analyser.dispose();
  }
  const rows: ResultRow[] = [];
  const name = resolutionName(resolution);
  for (const entry of entries) {
    for (const [step, samples] of clocks.get(entry.name)?.samples ?? []) {
      rows.push({ implementation: entry.name, resolution: name, step, medianMicros: median(samples) });
    }
    rows.push({ implementation: entry.name, resolution: name, step: 'total', medianMicros: median(totals.get(entry.name) ?? []) });
  }
  return rows;
}

function formatTable(rows: readonly ResultRow[], resolution: string, implementations: readonly Implementation[]): string {
  const here = rows.filter((row) => row.resolution === resolution);
  const steps = STEP_ORDER.filter((step) => here.some((row) => row.step === step));
  const width = 13;
  const lines = [['µs per frame'.padEnd(17), ...implementations.map((name) => name.padStart(width))].join('')];
  for (const step of steps) {
    const cells = implementations.map((name) => {
      const row = here.find((candidate) => candidate.implementation === name && candidate.step === step);
      return (row ? row.medianMicros.toFixed(1) : '—').padStart(width);
    });
    lines.push([step.padEnd(17), ...cells].join(''));
  }
  return lines.join('\n');
}

/** Median time to copy two 640x480 RGBA frames with TypedArray.set: the floor of reading them. */
function copyReference(): number {
  const size = 640 * 480 * 4;
  const sources = [new Uint8ClampedArray(size).fill(7), new Uint8ClampedArray(size).fill(9)];
  const targets = [new Uint8ClampedArray(size), new Uint8ClampedArray(size)];
  const samples: number[] = [];
  for (let i = 0; i < 400; i++) {
    const start = performance.now();
    targets[0].set(sources[0]);
    targets[1].set(sources[1]);
    if (i >= 100) samples.push((performance.now() - start) * 1000);
  }
  return median(samples);
}

async function framesFor(resolutions: readonly Resolution[], camera: boolean): Promise<FrameSequence[][]> {
  const recorded = camera ? await fakeCameraFrames(resolutions, CAMERA_FRAMES) : [];
  return resolutions.map((resolution, index) => {
    const sequences = [syntheticFrames(resolution.width, resolution.height, SYNTHETIC_FRAMES, 2024)];
    if (camera) sequences.push(recorded[index]);
    return sequences;
  });
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  if (options.help) {
    console.log(USAGE);
    return;
  }
  const cpu = cpus();
  console.log(
    `Warden vision benchmark — Node ${process.version}, ${cpu[0]?.model ?? 'unknown CPU'} x${cpu.length}, load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );

  const runtimes: Runtimes = { wasm: {}, cv: null };
  for (const flavour of ['simd', 'scalar'] as const) {
    if (options.implementations.includes(`wasm-${flavour}`)) runtimes.wasm[flavour] = await loadVisionWasm(flavour);
  }
  if (options.implementations.includes('opencv')) runtimes.cv = (await loadOpenCv()).cv;

  const sequences = await framesFor(options.resolutions, options.camera);
  const rows: ResultRow[] = [];
  options.resolutions.forEach((resolution, index) => {
    const frames = sequences[index].flatMap((sequence) => sequence.frames);
    const sources = sequences[index].map((sequence) => `${sequence.frames.length} ${sequence.name}`).join(' + ');
    const stepRounds = Math.max(1, Math.ceil(options.rounds / 2));
    console.log(
      `\n${resolutionName(resolution)}: ${sources} frames, ${WHITELIST_IMAGES} whitelist images; ` +
        `medians of ${options.rounds * frames.length} frames (total), ${stepRounds * frames.length} (steps), after ${options.warmup * frames.length} warm-up`,
    );
    const measured = measureResolution(resolution, frames, options, runtimes);
    rows.push(...measured);
    console.log(formatTable(measured, resolutionName(resolution), options.implementations));
    if (options.implementations.includes('wasm-simd')) {
      const ratios = options.implementations
        .filter((name) => name !== 'wasm-simd')
        .map((name) => {
          const ratio = speedup(measured, name, resolutionName(resolution));
          return ratio === undefined ? null : `${name}/wasm-simd ${ratio.toFixed(1)}x`;
        })
        .filter((text) => text !== null);
      if (ratios.length > 0) console.log(`total ratios: ${ratios.join(', ')}`);
    }
  });

  console.log('\nSteps:');
  for (const line of STEP_NOTES) console.log(`  ${line}`);
  console.log(`\nReference: copying two 640x480 RGBA frames (2 x ${(640 * 480 * 4) / 1e6} MB, TypedArray.set): ${copyReference().toFixed(1)} µs`);
  console.log(
    `(whitelist images are ${THUMBNAIL_BYTES} bytes; load now ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')})`,
  );

  const verdict = checkTarget(rows, options.resolutions.map(resolutionName));
  console.log(`\nTarget: wasm-simd at least 10x faster than OpenCV.js on the total at every resolution: ${verdict.holds ? 'HOLDS' : 'DOES NOT HOLD'}`);
  for (const line of verdict.lines) console.log(`  ${line}`);

  if (options.json) console.log(`\nWrote ${await writeJson(options.json, rows)}`);
}

main().then(
  // OpenCV.js keeps the process alive with its handlers; leave explicitly.
  () => process.exit(0),
  (error: unknown) => {
    // Keep errors short: a stack through opencv.js prints its whole one-line source.
    const message = error instanceof Error ? `${error.message}\n${(error.stack ?? '').split('\n').slice(1, 6).join('\n')}` : String(error);
    console.error(`bench failed: ${message.slice(0, 2000)}`);
    process.exit(1);
  },
);

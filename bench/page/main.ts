/**
 * The page bench/browser.ts measures: the product's camera pipeline (the
 * camera of src/client/vision/capture.ts, its Sampler and the vision worker)
 * on a bare page, recording each sample on `window.__wardenBench` instead of
 * rendering it. Query: `capture=METHOD|none`, `engine=auto|wasm-simd|wasm-scalar|js`,
 * `report=every|events` (which samples the worker tells of with the track processor).
 */
import { CAPTURE_METHODS, Sampler, isIosDevice, openCamera, type CaptureMethod, type SampleRecord } from '../../src/client/vision/capture.ts';
import { VisionClient, type EnginePreference, type ReportPolicy } from '../../src/client/vision/client.ts';
import { FrameLog } from './frame-log.ts';
import type { BenchRecord, BenchState } from './state.ts';

/** The sampler's ticks jitter by this much, so that samples meet the camera's frames at every phase. */
const JITTER_MS = 100;

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function benchRecord(record: SampleRecord): BenchRecord {
  const { sample } = record;
  return {
    spanStart: record.method === 'track-processor' ? sample.timing.repliedAt - performance.timeOrigin : record.requestedAt,
    method: record.method,
    timeMs: record.timeMs,
    requestedAt: record.requestedAt,
    mainMs: record.mainMs,
    resultAt: record.resultAt,
    readMs: sample.timing.readMs,
    analyseMs: sample.timing.analyseMs,
    workerMs: sample.timing.workerMs,
    pixelPath: sample.timing.pixelPath,
    frameTimestampUs: sample.timing.frameTimestampUs,
    motionScore: sample.result.motionScore,
  };
}

function captureOf(query: URLSearchParams): CaptureMethod | 'auto' | 'none' {
  const capture = query.get('capture') ?? 'none';
  if (capture === 'none' || capture === 'auto') return capture;
  const method = CAPTURE_METHODS.find((known) => known === capture);
  if (method === undefined) throw new Error(`Unknown capture method ${capture}`);
  return method;
}

function reportOf(query: URLSearchParams): ReportPolicy {
  const report = query.get('report') ?? 'every';
  if (report === 'every' || report === 'events') return report;
  throw new Error(`Unknown report policy ${report}`);
}

function engineOf(query: URLSearchParams): EnginePreference {
  const engine = query.get('engine') ?? 'auto';
  if (engine === 'auto' || engine === 'wasm-simd' || engine === 'wasm-scalar' || engine === 'js') return engine;
  throw new Error(`Unknown engine ${engine}`);
}

async function run(bench: BenchState): Promise<void> {
  const query = new URLSearchParams(window.location.search);
  const method = captureOf(query);
  const video = document.querySelector('video');
  if (video === null) throw new Error('No video element');
  const client = new VisionClient();
  const ios = isIosDevice();
  const enginePromise = client.init(engineOf(query));
  enginePromise.catch(() => undefined);
  const stream = await openCamera(ios);
  const track = stream.getVideoTracks()[0];
  video.srcObject = stream;
  await video.play().catch(() => undefined);
  if (video.videoWidth === 0) await new Promise((resolve) => video.addEventListener('loadedmetadata', resolve, { once: true }));
  const settings = track.getSettings();
  const camera = { width: video.videoWidth, height: video.videoHeight, frameRate: settings.frameRate ?? null };
  bench.engine = await enginePromise;
  bench.camera = camera;
  await client.start({ width: camera.width, height: camera.height, ios, sleeper: false });
  const frameLog = new FrameLog(video);
  frameLog.start();
  bench.frames = frameLog.frames;
  if (method !== 'none') {
    const sampler = new Sampler({
      client,
      video,
      track,
      method,
      jitterMs: JITTER_MS,
      report: reportOf(query),
      onSample: (record) => {
        // A user-timing span per sample, for the benchmark's trace: from the
        // timer here, or from the worker's report leaving when the worker
        // samples on its own (the main thread has no part before that).
        const measured = benchRecord(record);
        bench.samples.push(measured);
        performance.measure('warden-sample', { start: measured.spanStart, end: record.resultAt });
      },
      onMethod: (chosen) => {
        bench.method = chosen;
      },
      onError: (error) => bench.errors.push(describeError(error)),
    });
    sampler.start();
  }
  bench.ready = true;
}

const bench: BenchState = { ready: false, engine: null, method: null, camera: null, samples: [], frames: [], errors: [] };
window.__wardenBench = bench;
run(bench).catch((error: unknown) => bench.errors.push(describeError(error)));

/**
 * The vision worker: runs the per-frame analysis of docs/vision.md off the
 * main thread and talks to it through comlink (see `client.ts`).
 *
 * `Comlink.expose` runs first and synchronously; the engine (the simd128 wasm
 * build, else the scalar one, else the JavaScript pipeline) is loaded lazily
 * by the first call that needs it. A top-level await before `expose` would
 * leave calls that arrive while it is pending unanswered.
 *
 * Frames reach the worker in one of two ways:
 *  - pushed: the main thread transfers an `ImageBitmap` or a `VideoFrame`
 *    with `analyse()`;
 *  - owned: the main thread hands over a camera stream once (a
 *    `MediaStreamTrackProcessor`'s readable, or the track itself where the
 *    worker can make the processor) and calls `startSampling()`: the sample
 *    clock then runs here (worker-sampling.ts), each sample takes the first
 *    frame the camera delivers after it is due, and the main thread hears only
 *    the reports it asked for. The processor keeps only the newest frame, so
 *    the worker does nothing at all between samples.
 * Either way the pixels are written once, as RGBA, straight into the
 * analyser's frame buffer (wasm memory for the wasm builds).
 */
import * as Comlink from 'comlink';
import faceModelUrl from '../../../crates/vision/pkg/face-model.bin?url';
import { Analyser, toVisionExports, type AnalyserOptions, type FrameAnalyser } from './analyser';
import { VisionSession, type Engine, type EngineInfo, type LoadedEngine, type PixelPath } from './session';
import { WorkerSampling, type SamplingOptions } from './worker-sampling';
import type { Sample } from './sample';

export type { Engine, EngineInfo, PixelPath } from './session';
/** `auto` picks the best engine the browser runs; the others force one (tests, benchmarks). */
export type EnginePreference = 'auto' | Engine;

export type SessionOptions = AnalyserOptions;

export interface PatrolImage {
  /** The JPEG, or null when the thumbnail is all black (an all-black patrol is not sent). */
  jpeg: Blob | null;
  width: number;
  height: number;
  allBlack: boolean;
}

export interface StreamSupport {
  /** The worker can make a `MediaStreamTrackProcessor` from a transferred track (Safari). */
  trackProcessor: boolean;
  /** `VideoFrame.copyTo(…, { format: 'RGBA' })` works here (known after the first frame). */
  copyToRgba: boolean | null;
}

export interface VisionWorkerApi {
  /** Loads the engine (once per preference) and says which one runs. */
  init(preference?: EnginePreference): Promise<EngineInfo>;
  /** Starts a session: a fresh analyser for frames of this size. */
  start(options: SessionOptions): Promise<EngineInfo>;
  /** Replaces the whitelist with these 100x100 grey images. */
  setWhitelist(images: Uint8Array[]): Promise<void>;
  /**
   * Replaces the whitelist with the thumbnails of these pictures (approved
   * scenes, JPEG patrol images): each is decoded here and reduced exactly as a
   * frame is. Pictures that cannot be decoded are left out; says how many were used.
   */
  setWhitelistPictures(pictures: Blob[]): Promise<number>;
  /** The 100x100 luma thumbnail of the last analysed frame (a whitelist image). */
  thumbnail(): Promise<Uint8Array>;
  /** Analyses a transferred frame taken at `timeMs`; the frame is closed. */
  analyse(frame: ImageBitmap | VideoFrame, timeMs: number): Promise<Sample>;
  /** Takes a camera stream of `VideoFrame`s to pull from (from the main thread's processor). */
  attachReadable(readable: ReadableStream<VideoFrame>): Promise<void>;
  /** Takes a transferred track and makes the processor here; false when this worker cannot. */
  attachTrack(track: MediaStreamTrack): Promise<boolean>;
  /**
   * Samples the attached stream once an interval, with the clock here, and
   * posts the reports `options.report` asks for on `port` until
   * `stopSampling()`, `stop()` or another stream.
   */
  startSampling(options: SamplingOptions, port: MessagePort): Promise<void>;
  stopSampling(): Promise<void>;
  /** The patrol thumbnail of the last analysed frame as a JPEG. */
  patrol(): Promise<PatrolImage>;
  support(): StreamSupport;
  /** Ends the session: frees the analyser and lets go of the stream. */
  stop(): Promise<void>;
}

// ---------------------------------------------------------------------------
// Engines

/**
 * `(func (result v128) i32.const 0 i8x16.splat i8x16.popcnt)`: validates only
 * where the final 128-bit SIMD opcodes are implemented.
 */
const SIMD_PROBE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, 0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7b, 0x03, 0x02, 0x01, 0x00, 0x0a, 0x0a, 0x01, 0x08, 0x00, 0x41, 0x00,
  0xfd, 0x0f, 0xfd, 0x62, 0x0b,
]);

/**
 * The face model's bytes (docs/vision.md, "Face"), fetched by the worker
 * with the engine, so that only the jail and its preparation download it;
 * null when it cannot be fetched (the analysis then looks for no face).
 */
async function fetchFaceModel(): Promise<Uint8Array | null> {
  try {
    const response = await fetch(faceModelUrl);
    return response.ok ? new Uint8Array(await response.arrayBuffer()) : null;
  } catch {
    return null;
  }
}

async function loadWasm(engine: 'wasm-simd' | 'wasm-scalar'): Promise<(options: SessionOptions) => FrameAnalyser> {
  // vite-plugin-wasm instantiates a module when it is imported, so each is
  // imported only here, after Comlink.expose, and only the one chosen.
  const [namespace, faceModel] = await Promise.all([
    engine === 'wasm-simd' ? import('../../../crates/vision/pkg/vision-simd.wasm') : import('../../../crates/vision/pkg/vision-scalar.wasm'),
    fetchFaceModel(),
  ]);
  const exports = toVisionExports({ ...namespace }, `the ${engine} module`);
  return (options) => withFaceModel(new Analyser(exports, options), faceModel);
}

async function loadJs(): Promise<(options: SessionOptions) => FrameAnalyser> {
  // Its own chunk: only browsers without WebAssembly download it.
  const [{ JsAnalyser }, faceModel] = await Promise.all([import('./js-analyser'), fetchFaceModel()]);
  return (options) => withFaceModel(new JsAnalyser(options), faceModel);
}

/** Hands the face model, when it was fetched, to a new analyser: every engine looks for the face. */
function withFaceModel(analyser: FrameAnalyser & { loadFaceModel(bytes: Uint8Array): boolean }, faceModel: Uint8Array | null): FrameAnalyser {
  if (faceModel !== null) analyser.loadFaceModel(faceModel);
  return analyser;
}

function simdSupported(): boolean {
  try {
    return WebAssembly.validate(SIMD_PROBE);
  } catch {
    return false;
  }
}

async function loadEngine(preference: EnginePreference): Promise<LoadedEngine> {
  const started = performance.now();
  const fallbacks: string[] = [];
  const hasWasm = typeof WebAssembly === 'object' && typeof WebAssembly.instantiate === 'function';
  const candidates: Engine[] = preference === 'auto' ? ['wasm-simd', 'wasm-scalar', 'js'] : preference === 'js' ? ['js'] : [preference, 'js'];
  for (const engine of candidates) {
    try {
      let create: (options: SessionOptions) => FrameAnalyser;
      if (engine === 'js') {
        create = await loadJs();
      } else if (!hasWasm) {
        fallbacks.push(`${engine}: WebAssembly is not available`);
        continue;
      } else if (engine === 'wasm-simd' && !simdSupported()) {
        fallbacks.push('wasm-simd: this browser does not validate 128-bit SIMD');
        continue;
      } else {
        create = await loadWasm(engine);
      }
      return { info: { engine, fallbacks, loadMs: performance.now() - started }, create };
    } catch (error) {
      fallbacks.push(`${engine}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  throw new Error(`No vision engine could be loaded (${fallbacks.join('; ')})`);
}

// ---------------------------------------------------------------------------
// Pixels

function frameSize(frame: ImageBitmap | VideoFrame): { width: number; height: number } {
  return isVideoFrame(frame) ? { width: frame.displayWidth, height: frame.displayHeight } : { width: frame.width, height: frame.height };
}

function isVideoFrame(frame: ImageBitmap | VideoFrame): frame is VideoFrame {
  return typeof VideoFrame !== 'undefined' && frame instanceof VideoFrame;
}

/** Turns frames into RGBA; learns once whether this browser's `copyTo` converts to RGBA. */
class PixelWriter {
  /** `VideoFrame.copyTo(…, { format: 'RGBA' })` works here; null until a frame has told. */
  copyToRgba: boolean | null = null;
  private canvas: OffscreenCanvas | null = null;
  private context: OffscreenCanvasRenderingContext2D | null = null;

  private canvas2d(width: number, height: number): OffscreenCanvasRenderingContext2D {
    if (this.canvas === null || this.context === null) {
      this.canvas = new OffscreenCanvas(width, height);
      const made = this.canvas.getContext('2d', { willReadFrequently: true, alpha: false });
      if (made === null) throw new Error('No 2d context on OffscreenCanvas');
      this.context = made;
    } else if (this.canvas.width !== width || this.canvas.height !== height) {
      this.canvas.width = width;
      this.canvas.height = height;
    }
    return this.context;
  }

  draw(frame: CanvasImageSource, target: Uint8ClampedArray, width: number, height: number): void {
    const ctx = this.canvas2d(width, height);
    ctx.drawImage(frame, 0, 0, width, height);
    target.set(ctx.getImageData(0, 0, width, height).data);
  }

  /**
   * Writes the frame as RGBA into the analyser's frame buffer. `VideoFrame`s
   * are converted by `copyTo` where the browser converts to RGBA (one copy, no
   * canvas), else drawn like an `ImageBitmap`.
   */
  async write(frame: ImageBitmap | VideoFrame, analyser: FrameAnalyser): Promise<PixelPath> {
    const { width, height } = analyser;
    if (isVideoFrame(frame)) {
      const rect = frame.visibleRect;
      const unscaled = rect !== null && rect.width === width && rect.height === height;
      if (unscaled && this.copyToRgba !== false) {
        try {
          const target = analyser.frameBuffer();
          await frame.copyTo(target, { format: 'RGBA', colorSpace: 'srgb', layout: [{ offset: 0, stride: width * 4 }] });
          this.copyToRgba = true;
          return 'copyTo';
        } catch {
          // Older engines: no `format` option (TypeError) or no such conversion
          // (NotSupportedError). Never worked here: stop trying; else draw this one.
          if (this.copyToRgba !== true) this.copyToRgba = false;
        }
      }
    }
    this.draw(frame, analyser.frameBuffer(), width, height);
    return 'canvas';
  }
}

// ---------------------------------------------------------------------------
// The camera stream pulled from

/** How long a sample waits for a frame from a stalled camera before giving up. */
const READ_TIMEOUT_MS = 3000;
/** A read that resolves within this took a frame the processor had buffered, not one delivered after the call. */
const BUFFERED_READ_MS = 2;

/** An attached stream of camera frames; it outlives sessions (a new session keeps the camera). */
class FrameStream {
  private readonly reader: ReadableStreamDefaultReader<VideoFrame>;
  /** A read that outlived its sample (the camera stalled); the next sample takes it over. */
  private pendingRead: Promise<ReadableStreamReadResult<VideoFrame>> | null = null;

  /** `ownTrack`: a track transferred to this worker, stopped with the stream. */
  constructor(
    readable: ReadableStream<VideoFrame>,
    private readonly ownTrack: MediaStreamTrack | null = null,
  ) {
    this.reader = readable.getReader();
  }

  /** The newest frame; null when none came within READ_TIMEOUT_MS or the stream ended. */
  async next(): Promise<VideoFrame | null> {
    // The processor holds only the newest frame (maxBufferSize 1), so this is
    // either that frame or, right after a sample, the next one to arrive.
    const read = this.pendingRead ?? this.reader.read();
    this.pendingRead = read;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), READ_TIMEOUT_MS);
    });
    const result = await Promise.race([read, timeout]);
    clearTimeout(timer);
    // A stalled camera: no sample this time; the read stays pending for the next one.
    if (result === null) return null;
    this.pendingRead = null;
    return result.done ? null : (result.value ?? null);
  }

  /**
   * The first frame the camera delivers from now on: a frame the processor
   * had already buffered (up to a frame interval old) comes back at once, so
   * it is closed and the next one awaited. A camera frame reaches the main
   * thread's result sooner this way than by taking the buffered one.
   */
  async fresh(): Promise<VideoFrame | null> {
    const asked = performance.now();
    const first = await this.next();
    if (first === null || performance.now() - asked > BUFFERED_READ_MS) return first;
    first.close();
    return this.next();
  }

  release(): void {
    const read = this.pendingRead;
    this.pendingRead = null;
    void read?.then(
      (result) => result.value?.close(),
      () => undefined,
    );
    this.reader.cancel().catch(() => undefined);
    this.ownTrack?.stop();
  }
}

// ---------------------------------------------------------------------------
// The worker

async function jpeg(rgba: Uint8ClampedArray<ArrayBuffer>, width: number, height: number): Promise<Blob> {
  const image = new OffscreenCanvas(width, height);
  const ctx = image.getContext('2d');
  if (ctx === null) throw new Error('No 2d context on OffscreenCanvas');
  ctx.putImageData(new ImageData(rgba, width, height), 0, 0);
  return image.convertToBlob({ type: 'image/jpeg', quality: 0.8 });
}

/** What lives as long as the worker: the engines, the whitelist, the stream, and the session of the moment. */
class VisionWorker implements VisionWorkerApi {
  private readonly engines = new Map<EnginePreference, Promise<LoadedEngine>>();
  private preferred: EnginePreference = 'auto';
  private whitelist: Uint8Array[] = [];
  private session: VisionSession | null = null;
  private stream: FrameStream | null = null;
  private sampling: { sampler: WorkerSampling; port: MessagePort } | null = null;
  private readonly pixels = new PixelWriter();
  /** One operation at a time: an analysis awaiting `copyTo` must not meet another one in the frame buffer. */
  private queue: Promise<unknown> = Promise.resolve();

  private serial<T>(operation: () => Promise<T>): Promise<T> {
    const next = this.queue.then(operation, operation);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private engine(preference: EnginePreference = this.preferred): Promise<LoadedEngine> {
    let loading = this.engines.get(preference);
    if (loading === undefined) {
      loading = loadEngine(preference);
      this.engines.set(preference, loading);
      loading.catch(() => this.engines.delete(preference));
    }
    return loading;
  }

  private requireSession(): VisionSession {
    if (this.session === null) throw new Error('No session: call start() first');
    return this.session;
  }

  private async analyseFrame(frame: ImageBitmap | VideoFrame, timeMs: number, called: number, waitedMs: number): Promise<Sample> {
    try {
      const session = this.requireSession();
      const frameTimestampUs = isVideoFrame(frame) ? frame.timestamp : null;
      const analysis = await session.analyse(frameSize(frame), timeMs, (analyser) => this.pixels.write(frame, analyser));
      const done = performance.now();
      return {
        result: analysis.result,
        width: analysis.width,
        height: analysis.height,
        restarted: analysis.restarted,
        timing: {
          readMs: waitedMs + analysis.writeMs,
          analyseMs: analysis.analyseMs,
          workerMs: done - called,
          pixelPath: analysis.pixelPath,
          frameTimestampUs,
          repliedAt: performance.timeOrigin + done,
        },
      };
    } finally {
      frame.close();
    }
  }

  /** A picture's 100x100 luma thumbnail, made by an analyser of the picture's size as for a frame. */
  private async pictureThumbnail(loaded: LoadedEngine, picture: Blob): Promise<Uint8Array> {
    const bitmap = await createImageBitmap(picture);
    const reducer = loaded.create({ width: bitmap.width, height: bitmap.height, ios: false, sleeper: false });
    try {
      this.pixels.draw(bitmap, reducer.frameBuffer(), bitmap.width, bitmap.height);
      reducer.process(0);
      return reducer.thumbnail();
    } finally {
      bitmap.close();
      reducer.dispose();
    }
  }

  private endSampling(): void {
    this.sampling?.sampler.stop();
    this.sampling?.port.close();
    this.sampling = null;
  }

  private attach(stream: FrameStream): void {
    this.endSampling();
    this.stream?.release();
    this.stream = stream;
  }

  async init(preference: EnginePreference = 'auto'): Promise<EngineInfo> {
    this.preferred = preference;
    return (await this.engine(preference)).info;
  }

  start(options: SessionOptions): Promise<EngineInfo> {
    return this.serial(async () => {
      const loaded = await this.engine();
      this.session?.dispose();
      this.session = new VisionSession(loaded, options, this.whitelist);
      return loaded.info;
    });
  }

  setWhitelist(images: Uint8Array[]): Promise<void> {
    return this.serial(async () => {
      this.whitelist = images.map((image) => new Uint8Array(image));
      this.session?.setWhitelist(this.whitelist);
    });
  }

  setWhitelistPictures(pictures: Blob[]): Promise<number> {
    return this.serial(async () => {
      const loaded = await this.engine();
      const thumbnails: Uint8Array[] = [];
      for (const picture of pictures) {
        const thumbnail = await this.pictureThumbnail(loaded, picture).catch(() => null);
        if (thumbnail !== null) thumbnails.push(thumbnail);
      }
      this.whitelist = thumbnails;
      this.session?.setWhitelist(this.whitelist);
      return thumbnails.length;
    });
  }

  thumbnail(): Promise<Uint8Array> {
    return this.serial(async () => {
      const thumbnail = this.requireSession().thumbnail();
      return Comlink.transfer(thumbnail, [thumbnail.buffer]);
    });
  }

  analyse(frame: ImageBitmap | VideoFrame, timeMs: number): Promise<Sample> {
    const called = performance.now();
    return this.serial(() => this.analyseFrame(frame, timeMs, called, 0));
  }

  async attachReadable(readable: ReadableStream<VideoFrame>): Promise<void> {
    await this.serial(async () => this.attach(new FrameStream(readable)));
  }

  async attachTrack(track: MediaStreamTrack): Promise<boolean> {
    if (typeof MediaStreamTrackProcessor === 'undefined') {
      track.stop();
      return false;
    }
    await this.serial(async () => {
      this.attach(new FrameStream(new MediaStreamTrackProcessor({ track, maxBufferSize: 1 }).readable, track));
    });
    return true;
  }

  startSampling(options: SamplingOptions, port: MessagePort): Promise<void> {
    return this.serial(async () => {
      const stream = this.stream;
      if (stream === null) {
        port.close();
        throw new Error('No stream attached');
      }
      this.endSampling();
      const sampler = new WorkerSampling({
        ...options,
        frame: () => stream.fresh(),
        analyse: (frame, timeMs, started) => {
          const waitedMs = performance.now() - started;
          return this.serial(() => this.analyseFrame(frame, timeMs, started, waitedMs));
        },
        post: (report) => port.postMessage(report),
      });
      this.sampling = { sampler, port };
      sampler.start();
    });
  }

  stopSampling(): Promise<void> {
    return this.serial(async () => this.endSampling());
  }

  patrol(): Promise<PatrolImage> {
    return this.serial(async () => {
      const thumbnail = this.requireSession().patrol();
      return {
        width: thumbnail.width,
        height: thumbnail.height,
        allBlack: thumbnail.allBlack,
        jpeg: thumbnail.allBlack ? null : await jpeg(thumbnail.rgba, thumbnail.width, thumbnail.height),
      };
    });
  }

  support(): StreamSupport {
    return { trackProcessor: typeof MediaStreamTrackProcessor !== 'undefined', copyToRgba: this.pixels.copyToRgba };
  }

  stop(): Promise<void> {
    return this.serial(async () => {
      this.endSampling();
      this.stream?.release();
      this.stream = null;
      this.session?.dispose();
      this.session = null;
    });
  }
}

Comlink.expose(new VisionWorker());

/**
 * The camera and the once-a-second sampler that feeds the vision worker.
 *
 * The camera is opened with the constraints of docs/rules.md (Client constants) (iPhone/iPad: width up to
 * 640; other devices: width up to 160 and up to 10 fps). A sample is taken
 * once a second by the `SampleTimer` of sample-timer.ts (so a test's fake
 * clock drives it) — in the worker for the track processor, here for the
 * others; its time, passed to the analyser, is `Date.now()`.
 *
 * How a frame gets from the camera into the worker is the capture method. The
 * order in `PREFERRED_METHODS` was chosen by `npm run bench:browser` (see
 * docs/vision.md, "Capture"): the first one this browser supports is used, and
 * a method that fails at run time gives way to the next.
 */
import type { ReportPolicy, Sample, SamplingReport, VisionClient } from './client';
import { SampleTimer } from './sample-timer';

export type CaptureMethod =
  /** A `MediaStreamTrackProcessor` whose frames the worker takes on its own clock; the main thread only hears its reports. */
  | 'track-processor'
  /** `new VideoFrame(video)` on the main thread (wraps the decoded frame, no copy), transferred. */
  | 'video-frame'
  /** `createImageBitmap(video)` on the main thread, transferred. */
  | 'image-bitmap'
  /** `ImageCapture.grabFrame()` on the main thread, transferred. */
  | 'image-capture';

export const CAPTURE_METHODS: readonly CaptureMethod[] = ['track-processor', 'video-frame', 'image-bitmap', 'image-capture'];

/** Best first, as measured by bench/browser.ts (docs/vision.md, "Capture"). */
export const PREFERRED_METHODS: readonly CaptureMethod[] = ['track-processor', 'video-frame', 'image-bitmap', 'image-capture'];

/** The camera failure (docs/client.md, Failures the guest sees): shown as it is. */
export const CAMERA_FAILURE_MESSAGE = 'Failed to load camera. Please check updates for your OS and browser, and confirm that camera permission is given.';

/** iPhone and iPad, including iPadOS that presents itself as a Mac. */
export function isIosDevice(nav: Pick<Navigator, 'userAgent' | 'maxTouchPoints'> = navigator): boolean {
  if (/iPhone|iPad|iPod/.test(nav.userAgent)) return true;
  return /Macintosh/.test(nav.userAgent) && nav.maxTouchPoints > 1;
}

/** Which camera: the one facing the guest, or the one on the back (a phone propped to see the desk). */
export type Facing = 'user' | 'environment';

/** docs/rules.md, Client constants: iPhone/iPad width up to 640; other devices width up to 160 and frame rate up to 10. */
export function cameraConstraints(ios: boolean, facingMode: Facing = 'user'): MediaStreamConstraints {
  // `ideal` as well as `max`: with a maximum alone Chromium may pick any
  // smaller native mode (its fake camera picks 96x96), which sees less.
  const video: MediaTrackConstraints = ios
    ? { facingMode, width: { ideal: 640, max: 640 } }
    : { facingMode, width: { ideal: 160, max: 160 }, frameRate: { ideal: 10, max: 10 } };
  return { audio: false, video };
}

export class CameraError extends Error {
  /** The DOMException name (NotAllowedError, NotFoundError, …), or 'Unsupported'. */
  readonly reason: string;
  constructor(reason: string, cause?: unknown) {
    super(CAMERA_FAILURE_MESSAGE, { cause });
    this.name = 'CameraError';
    this.reason = reason;
  }
}

/** Opens the camera; any failure becomes a `CameraError` carrying the product's message. */
export async function openCamera(ios: boolean, facingMode: Facing = 'user'): Promise<MediaStream> {
  if (typeof navigator === 'undefined' || navigator.mediaDevices?.getUserMedia === undefined) {
    throw new CameraError('Unsupported');
  }
  try {
    return await navigator.mediaDevices.getUserMedia(cameraConstraints(ios, facingMode));
  } catch (error) {
    throw new CameraError(error instanceof DOMException ? error.name : 'Error', error);
  }
}

/** The capture methods this browser has the API for (a method may still fail when tried). */
export function availableMethods(): CaptureMethod[] {
  return CAPTURE_METHODS.filter((method) => {
    switch (method) {
      case 'track-processor':
        // Chromium has it on the main thread; Safari only in workers, which the worker checks.
        return typeof Worker !== 'undefined';
      case 'video-frame':
        return typeof VideoFrame !== 'undefined';
      case 'image-bitmap':
        return typeof createImageBitmap === 'function';
      case 'image-capture':
        return typeof ImageCapture !== 'undefined';
      default:
        return false;
    }
  });
}

export interface SampleRecord {
  sample: Sample;
  method: CaptureMethod;
  /** The sample's time as given to the analyser (`Date.now()`). */
  timeMs: number;
  /** `performance.now()` when the sample was due (by the worker's clock for the track processor). */
  requestedAt: number;
  /** Synchronous main-thread time the sampler spent on this sample: capturing and posting, or taking in the worker's report. */
  mainMs: number;
  /** `performance.now()` when the result reached the main thread. */
  resultAt: number;
}

export interface SamplerOptions {
  client: VisionClient;
  /** The playing preview: the source of the methods that read the video element. */
  video: HTMLVideoElement;
  track: MediaStreamTrack;
  /** A method to use (and fall back from), or the preferred order. */
  method?: CaptureMethod | 'auto';
  intervalMs?: number;
  /** See `SampleTimerOptions.jitterMs`. */
  jitterMs?: number;
  /**
   * When the worker samples on its own ('track-processor'): hear of every
   * sample (a screen that shows each), or only of those with events and the
   * first (default 'every'). The other methods capture on the main thread, so
   * every sample is heard of anyway.
   */
  report?: ReportPolicy;
  onSample(record: SampleRecord): void;
  /** The method in use, whenever it is chosen or changes. */
  onMethod?(method: CaptureMethod): void;
  onError?(error: unknown): void;
}

/**
 * Takes a sample every `intervalMs`. With the track processor the worker owns
 * the frames and the clock (worker-sampling.ts) and the main thread only hears
 * its reports; with the other methods a timer here captures each frame and
 * hands it to the worker, one at a time.
 */
export class Sampler {
  private readonly options: SamplerOptions;
  private readonly timer: SampleTimer;
  private methods: CaptureMethod[];
  private running = false;
  /** The worker samples on its own clock. */
  private inWorker = false;
  private imageCapture: ImageCapture | null = null;
  private prepared: CaptureMethod | null = null;

  constructor(options: SamplerOptions) {
    this.options = options;
    this.timer = new SampleTimer({ intervalMs: options.intervalMs, jitterMs: options.jitterMs, sample: (timeMs) => this.sampleHere(timeMs) });
    const available = availableMethods();
    const wanted = options.method === undefined || options.method === 'auto' ? PREFERRED_METHODS : [options.method, ...PREFERRED_METHODS];
    this.methods = [...new Set(wanted)].filter((method) => available.includes(method));
  }

  get method(): CaptureMethod | null {
    return this.methods[0] ?? null;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.begin();
  }

  stop(): void {
    this.running = false;
    this.timer.stop();
    if (this.inWorker) {
      this.inWorker = false;
      this.options.client.stopSampling().catch(() => undefined);
    }
  }

  /** Samples with the first method left: in the worker for the track processor, else here. */
  private begin(): void {
    if (!this.running) return;
    if (this.methods[0] === 'track-processor') void this.startInWorker();
    else this.timer.start();
  }

  /** Drops the method in use (it does not work here) and goes on with the next. */
  private fallBack(): void {
    this.methods.shift();
    this.prepared = null;
    this.begin();
  }

  private async startInWorker(): Promise<void> {
    const { client, track, intervalMs, jitterMs } = this.options;
    const attached = await client.attachTrack(track).catch(() => false);
    if (!this.running) return;
    if (!attached) {
      this.fallBack();
      return;
    }
    this.inWorker = true;
    this.options.onMethod?.('track-processor');
    try {
      await client.startSampling({ report: this.options.report ?? 'every', intervalMs, jitterMs }, (report) => this.heard(report));
    } catch {
      if (!this.inWorker) return;
      this.inWorker = false;
      this.fallBack();
    }
  }

  /** A report of the worker's sampling. */
  private heard(report: SamplingReport): void {
    const arrived = performance.now();
    if (!this.running || !this.inWorker) return;
    if (report.kind === 'error') {
      if (report.analysed > 0) {
        this.options.onError?.(new Error(report.message));
        return;
      }
      // It never worked here: the next method.
      this.inWorker = false;
      this.options.client.stopSampling().catch(() => undefined);
      this.fallBack();
      return;
    }
    const requestedAt = report.dueAt - performance.timeOrigin;
    this.options.onSample({
      sample: report.sample,
      method: 'track-processor',
      timeMs: report.timeMs,
      requestedAt,
      mainMs: performance.now() - arrived,
      resultAt: arrived,
    });
  }

  /** One sample taken on the main thread; failures go to `onError`. */
  private async sampleHere(timeMs: number): Promise<void> {
    try {
      const record = await this.sample(timeMs);
      if (record !== null && this.running) this.options.onSample(record);
    } catch (error) {
      if (this.running) this.options.onError?.(error);
    }
  }

  /** Takes one sample with the first method that works, dropping the ones that do not. */
  private async sample(timeMs: number): Promise<SampleRecord | null> {
    for (;;) {
      const method = this.methods[0];
      if (method === undefined) throw new Error('No capture method works in this browser');
      if (method === 'track-processor') {
        // A forced method gave way to it: the worker takes over.
        this.timer.stop();
        this.begin();
        return null;
      }
      try {
        if (this.prepared !== method) {
          if (method === 'image-capture') this.imageCapture = new ImageCapture(this.options.track);
          this.prepared = method;
          this.options.onMethod?.(method);
        }
        return await this.capture(method, timeMs);
      } catch (error) {
        if (!(error instanceof CaptureUnavailable)) throw error;
        this.methods.shift();
        this.prepared = null;
      }
    }
  }

  private async capture(method: Exclude<CaptureMethod, 'track-processor'>, timeMs: number): Promise<SampleRecord | null> {
    const { client, video } = this.options;
    const requestedAt = performance.now();
    let mainMs = 0;
    let pending: Promise<Sample>;
    switch (method) {
      case 'video-frame': {
        if (video.readyState < HTMLMediaElement.HAVE_CURRENT_DATA) return null;
        let frame: VideoFrame;
        try {
          frame = new VideoFrame(video);
        } catch (error) {
          throw new CaptureUnavailable(method, error);
        }
        pending = client.analyse(frame, timeMs);
        mainMs = performance.now() - requestedAt;
        break;
      }
      case 'image-bitmap': {
        if (video.readyState < HTMLMediaElement.HAVE_CURRENT_DATA) return null;
        ({ pending, mainMs } = await postBitmap(client, method, () => createImageBitmap(video), timeMs));
        break;
      }
      case 'image-capture': {
        const grabber = this.imageCapture;
        if (grabber === null) throw new CaptureUnavailable(method);
        ({ pending, mainMs } = await postBitmap(client, method, () => grabber.grabFrame(), timeMs));
        break;
      }
    }
    const sample = await pending;
    return { sample, method, timeMs, requestedAt, mainMs, resultAt: performance.now() };
  }
}

/**
 * Grabs a bitmap and posts it to the worker: the grab and the post are the
 * main thread's time (`mainMs`); the analysis itself is left pending.
 */
async function postBitmap(
  client: VisionClient,
  method: CaptureMethod,
  grab: () => Promise<ImageBitmap>,
  timeMs: number,
): Promise<{ pending: Promise<Sample>; mainMs: number }> {
  let mainMs = 0;
  const bitmap = await withTimeout(
    timed(grab, (ms) => (mainMs += ms)),
    method,
  );
  const posted = performance.now();
  const pending = client.analyse(bitmap, timeMs);
  mainMs += performance.now() - posted;
  return { pending, mainMs };
}

/** A capture method this browser turns out not to support. */
class CaptureUnavailable extends Error {
  constructor(method: CaptureMethod, cause?: unknown) {
    super(`Capture method ${method} is not available`, { cause });
  }
}

/** How long a capture call may take before the sample is given up (a stalled camera). */
const CAPTURE_TIMEOUT_MS = 5000;

function withTimeout<T extends ImageBitmap>(promise: Promise<T>, method: CaptureMethod): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`${method}: no frame within ${CAPTURE_TIMEOUT_MS} ms`));
      // Should it come after all, let it go.
      promise.then(
        (late) => late.close(),
        () => undefined,
      );
    }, CAPTURE_TIMEOUT_MS);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** Runs `start` (which returns a promise) and reports the synchronous time of the call. */
function timed<T>(start: () => Promise<T>, report: (ms: number) => void): Promise<T> {
  const before = performance.now();
  let promise: Promise<T>;
  try {
    promise = start();
  } finally {
    report(performance.now() - before);
  }
  return promise;
}

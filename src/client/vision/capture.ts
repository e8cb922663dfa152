/**
 * The camera and the once-a-second sampler that feeds the vision worker.
 *
 * The camera is opened with the constraints of docs/rules.md (Client constants) (iPhone/iPad: width up to
 * 640; other devices: width up to 160 and up to 10 fps). A sample is taken
 * once a second by a `setTimeout` chain (so a test's fake clock drives it);
 * its time, passed to the analyser, is `Date.now()`.
 *
 * How a frame gets from the camera into the worker is the capture method. The
 * order in `PREFERRED_METHODS` was chosen by `npm run bench:browser` (see
 * docs/vision.md, "Capture"): the first one this browser supports is used, and
 * a method that fails at run time gives way to the next.
 */
import type { Sample, VisionClient } from './client';

export type CaptureMethod =
  /** A `MediaStreamTrackProcessor` whose frames the worker pulls itself; the main thread only asks. */
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

export const SAMPLE_INTERVAL_MS = 1000;

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
  /** `performance.now()` when the sample was due. */
  requestedAt: number;
  /** Synchronous main-thread time spent on this sample: capturing and posting. */
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
  /**
   * Moves each sample by up to this many ms either way (the mean interval
   * stays). The benchmark uses it so that samples meet the camera's frames at
   * every phase, not at one fixed offset from them.
   */
  jitterMs?: number;
  onSample(record: SampleRecord): void;
  /** The method in use, whenever it is chosen or changes. */
  onMethod?(method: CaptureMethod): void;
  onError?(error: unknown): void;
}

/** Takes a sample every `intervalMs` and feeds it to the worker, one at a time. */
export class Sampler {
  private readonly options: SamplerOptions;
  private readonly interval: number;
  private readonly jitter: number;
  private methods: CaptureMethod[];
  private timer: ReturnType<typeof setTimeout> | null = null;
  private due = 0;
  private running = false;
  private imageCapture: ImageCapture | null = null;
  private prepared: CaptureMethod | null = null;

  constructor(options: SamplerOptions) {
    this.options = options;
    this.interval = options.intervalMs ?? SAMPLE_INTERVAL_MS;
    this.jitter = Math.min(options.jitterMs ?? 0, this.interval / 2);
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
    this.due = Date.now();
    this.timer = setTimeout(() => void this.tick(), 0);
  }

  stop(): void {
    this.running = false;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  private schedule(): void {
    if (!this.running) return;
    const now = Date.now();
    this.due += this.interval;
    if (this.due <= now) {
      // Fell behind (a slow device, a sleeping tab): skip the missed samples.
      this.due += Math.ceil((now - this.due + 1) / this.interval) * this.interval;
    }
    const jitter = this.jitter > 0 ? (Math.random() * 2 - 1) * this.jitter : 0;
    this.timer = setTimeout(() => void this.tick(), Math.max(0, this.due - now + jitter));
  }

  private async tick(): Promise<void> {
    this.timer = null;
    try {
      const record = await this.sample();
      if (record !== null && this.running) this.options.onSample(record);
    } catch (error) {
      if (this.running) this.options.onError?.(error);
    } finally {
      this.schedule();
    }
  }

  /** Takes one sample with the first method that works, dropping the ones that do not. */
  private async sample(): Promise<SampleRecord | null> {
    for (;;) {
      const method = this.methods[0];
      if (method === undefined) throw new Error('No capture method works in this browser');
      try {
        if (this.prepared !== method) {
          await this.prepare(method);
          this.prepared = method;
          this.options.onMethod?.(method);
        }
        return await this.capture(method);
      } catch (error) {
        if (!(error instanceof CaptureUnavailable)) throw error;
        this.methods.shift();
        this.prepared = null;
      }
    }
  }

  private async prepare(method: CaptureMethod): Promise<void> {
    const { client, track } = this.options;
    if (method === 'track-processor') {
      if (!(await client.attachTrack(track))) throw new CaptureUnavailable(method);
    } else if (method === 'image-capture') {
      this.imageCapture = new ImageCapture(track);
    }
  }

  private async capture(method: CaptureMethod): Promise<SampleRecord | null> {
    const { client, video } = this.options;
    const timeMs = Date.now();
    const requestedAt = performance.now();
    let mainMs = 0;
    let pending: Promise<Sample | null>;
    switch (method) {
      case 'track-processor':
        pending = client.analyseLatest(timeMs);
        mainMs = performance.now() - requestedAt;
        break;
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
        const bitmap = await withTimeout(
          timed(
            () => createImageBitmap(video),
            (ms) => (mainMs += ms),
          ),
          method,
        );
        const posted = performance.now();
        pending = client.analyse(bitmap, timeMs);
        mainMs += performance.now() - posted;
        break;
      }
      case 'image-capture': {
        const grabber = this.imageCapture;
        if (grabber === null) throw new CaptureUnavailable(method);
        const bitmap = await withTimeout(
          timed(
            () => grabber.grabFrame(),
            (ms) => (mainMs += ms),
          ),
          method,
        );
        const posted = performance.now();
        pending = client.analyse(bitmap, timeMs);
        mainMs += performance.now() - posted;
        break;
      }
    }
    const sample = await pending;
    if (sample === null) return null;
    return { sample, method, timeMs, requestedAt, mainMs, resultAt: performance.now() };
  }
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

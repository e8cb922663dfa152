/**
 * The camera of a live jail (docs/client.md, The live screen; docs/vision.md):
 * opens the camera (or the screen, falling back to the camera), analyses a
 * frame a second in the vision worker, and turns what the worker sees into
 * the relay's motion events (`check-in.ts` decides which go at once and which
 * the Warden asks about first). Where the worker owns the frames (the track
 * processor) the main thread hears only of the samples with events and of the
 * first one. Patrol images come from the same worker.
 * Nothing here is React: the page's hook (`useJailCamera`) drives it.
 */
import { VisionClient } from '../../vision/client.ts';
import { CameraError, openCamera, Sampler } from '../../vision/capture.ts';
import type { FrameResult } from '../../vision/analyser.ts';
import type { MotionEventName } from '../../../shared/jail-vocabulary.ts';

/** Where the picture comes from: the front or back camera, or the screen (a PC guest working on it). */
export type CameraSource = 'front' | 'back' | 'screen';

const FACING = { front: 'user', back: 'environment' } as const;

/** What the jail reads of an analysed frame: its events and what it saw of the face. */
export type AnalysedFrame = Pick<FrameResult, 'events' | 'faceDetector' | 'face'>;

/** A motion event of the relay, with the motion `type` it carries (1 motion or the guest seen, 0 none). */
export interface MotionReport {
  event: MotionEventName;
  type: 0 | 1;
}

/** The relay events of one analysed frame: motion resumed, none for the count, nodding, darkness, away and back. */
export function motionReports(frame: AnalysedFrame): MotionReport[] {
  const { events } = frame;
  const reports: MotionReport[] = [];
  if (events.motion) reports.push({ event: 'motion_event_from_guest', type: 1 });
  if (events.noMotion) reports.push({ event: 'no_motion_event_from_guest', type: 0 });
  if (events.nodding) reports.push({ event: 'nodding_motion_event_from_guest', type: 1 });
  if (events.darkness) reports.push({ event: 'darkness_event_from_guest', type: 0 });
  if (events.away) reports.push({ event: 'away_event_from_guest', type: 0 });
  if (events.back) reports.push({ event: 'back_event_from_guest', type: 1 });
  return reports;
}

export interface JailCameraOptions {
  ios: boolean;
  /** Sleepers get the 90 s no-motion count. */
  sleeper: boolean;
  /** Each analysed frame the worker tells of (every one with events), with its time. */
  onFrame(frame: AnalysedFrame, timeMs: number): void;
  /** The first frame since the camera opened has been analysed (the screen says so). */
  onAnalysed?(): void;
  /** The guest's face (centre as fractions of the frame, side as a fraction of its width) when it appears, leaves (null) or moves notably. */
  onFace?(face: { x: number; y: number; size: number } | null, timeMs: number): void;
  /** Sampling failed for good (no capture method works here). */
  onError(error: unknown): void;
}

/** The screen, where the browser can share it. */
async function openScreen(): Promise<MediaStream> {
  if (navigator.mediaDevices?.getDisplayMedia === undefined) throw new Error('Screen sharing is not available');
  return navigator.mediaDevices.getDisplayMedia({ video: { frameRate: { ideal: 10, max: 10 } }, audio: false });
}

/** Whether this browser can share its screen (the source switch offers it only then). */
export function canShareScreen(): boolean {
  return typeof navigator !== 'undefined' && typeof navigator.mediaDevices?.getDisplayMedia === 'function';
}

/** Reads a Blob as a data URL (a patrol image goes to the relay as one). */
export function dataUrlOf(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('The image could not be read'));
    reader.readAsDataURL(blob);
  });
}

/** A data URL's bytes as a Blob (approved scenes arrive as JPEG data URLs). */
export async function blobOf(dataUrl: string): Promise<Blob> {
  return (await fetch(dataUrl)).blob();
}

export class JailCamera {
  private readonly client = new VisionClient();
  private stream: MediaStream | null = null;
  private sampler: Sampler | null = null;
  private analysed = false;
  private whitelist: string[] = [];
  private disposed = false;

  constructor(private readonly options: JailCameraOptions) {
    // The engine loads while the camera opens.
    this.client.init().catch(() => undefined);
  }

  /** The stream being analysed (the preview and a warden's live video show it); null while closed. */
  get current(): MediaStream | null {
    return this.stream;
  }

  /**
   * Opens `source` into `video` and starts the analysis. A screen that
   * cannot be shared falls back to the camera (docs/client.md, Failures the guest sees); says which one
   * opened. A camera failure throws a `CameraError` with the product's message.
   */
  async open(source: CameraSource, video: HTMLVideoElement): Promise<CameraSource> {
    this.close();
    let opened: CameraSource = source;
    let stream: MediaStream;
    if (source === 'screen') {
      try {
        stream = await openScreen();
      } catch {
        opened = 'front';
        stream = await openCamera(this.options.ios);
      }
    } else {
      stream = await openCamera(this.options.ios, FACING[source]);
    }
    if (this.disposed) {
      for (const track of stream.getTracks()) track.stop();
      throw new CameraError('Closed');
    }
    this.stream = stream;
    const track = stream.getVideoTracks()[0];
    if (track === undefined) throw new CameraError('NotFoundError');
    video.srcObject = stream;
    await video.play().catch(() => undefined);
    if (video.videoWidth === 0) await new Promise((resolve) => video.addEventListener('loadedmetadata', resolve, { once: true }));
    const settings = track.getSettings();
    await this.client.start({
      width: video.videoWidth || settings.width || 0,
      height: video.videoHeight || settings.height || 0,
      ios: this.options.ios,
      sleeper: this.options.sleeper,
    });
    if (this.whitelist.length > 0) await this.applyWhitelist();
    this.analysed = false;
    this.sampler = new Sampler({
      client: this.client,
      video,
      track,
      report: 'events',
      onSample: (record) => {
        if (!this.analysed) this.options.onAnalysed?.();
        this.analysed = true;
        this.options.onFrame(record.sample.result, record.timeMs);
        // Where faces are looked for, the eye hears of the face (the worker tells when it appears, leaves or moves).
        if (record.sample.result.faceDetector) this.options.onFace?.(record.sample.result.face, record.timeMs);
      },
      onError: (error) => this.options.onError(error),
    });
    this.sampler.start();
    return opened;
  }

  /** Stops the analysis and the stream (a break, leaving the page); `open` starts them again. */
  close(): void {
    this.sampler?.stop();
    this.sampler = null;
    for (const track of this.stream?.getTracks() ?? []) track.stop();
    this.stream = null;
    this.analysed = false;
    void this.client.stop().catch(() => undefined);
  }

  /** The approved scenes (JPEG data URLs): frames like them count as neither no motion nor darkness. */
  async setWhitelist(dataUrls: readonly string[]): Promise<void> {
    this.whitelist = [...dataUrls];
    await this.applyWhitelist();
  }

  private async applyWhitelist(): Promise<void> {
    const pictures = await Promise.all(this.whitelist.map(blobOf));
    await this.client.setWhitelistPictures(pictures);
  }

  /** A patrol image of the latest analysed frame as a JPEG data URL; null before the first frame and when all black. */
  async patrol(): Promise<string | null> {
    if (!this.analysed) return null;
    const shot = await this.client.patrol();
    return shot.jpeg === null ? null : dataUrlOf(shot.jpeg);
  }

  dispose(): void {
    this.disposed = true;
    this.close();
    this.client.terminate();
  }
}

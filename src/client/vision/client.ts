/**
 * The main thread's handle on the vision worker (`worker.ts`): starts it,
 * and moves frames and streams into it without copying (transfers).
 */
import * as Comlink from 'comlink';
import type { Sample } from './sample';
import type { EngineInfo, EnginePreference, PatrolImage, SessionOptions, StreamSupport, VisionWorkerApi } from './worker';
import type { SamplingOptions, SamplingReport } from './worker-sampling';

export type { Sample } from './sample';
export type { EngineInfo, EnginePreference, PatrolImage, SessionOptions } from './worker';
export type { ReportPolicy, SamplingOptions, SamplingReport } from './worker-sampling';

export class VisionClient {
  private readonly worker: Worker;
  private readonly remote: Comlink.Remote<VisionWorkerApi>;
  private closed = false;
  /** Clones of the camera track feeding a processor made here; stopped with the session. */
  private feeds: MediaStreamTrack[] = [];
  /** Where the worker's sampling reports arrive while it samples. */
  private reports: MessagePort | null = null;

  constructor() {
    this.worker = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module', name: 'warden-vision' });
    this.remote = Comlink.wrap<VisionWorkerApi>(this.worker);
  }

  /** Loads the engine and says which one runs (`wasm-simd`, `wasm-scalar` or `js`). */
  init(preference: EnginePreference = 'auto'): Promise<EngineInfo> {
    return this.remote.init(preference);
  }

  start(options: SessionOptions): Promise<EngineInfo> {
    return this.remote.start(options);
  }

  setWhitelist(images: Uint8Array[]): Promise<void> {
    return this.remote.setWhitelist(images);
  }

  /** Replaces the whitelist with the thumbnails of these pictures (approved scenes); says how many could be used. */
  setWhitelistPictures(pictures: Blob[]): Promise<number> {
    return this.remote.setWhitelistPictures(pictures);
  }

  /** The last analysed frame's 100x100 luma thumbnail: what a whitelist image is made from. */
  thumbnail(): Promise<Uint8Array> {
    return this.remote.thumbnail();
  }

  /** Hands the frame to the worker (transferred: it is unusable here afterwards) and analyses it. */
  analyse(frame: ImageBitmap | VideoFrame, timeMs: number): Promise<Sample> {
    return this.remote.analyse(Comlink.transfer(frame, [frame]), timeMs);
  }

  /**
   * Moves the track's frames into the worker: the worker makes the
   * `MediaStreamTrackProcessor` itself where it can (a transferred track), else
   * the processor is made here and its readable transferred. The track given
   * is cloned, so the caller's track (the preview) is untouched. Returns false
   * when neither works in this browser.
   */
  async attachTrack(track: MediaStreamTrack): Promise<boolean> {
    const support = await this.remote.support();
    if (support.trackProcessor) {
      const clone = track.clone();
      try {
        if (await this.remote.attachTrack(Comlink.transfer(clone, [clone as unknown as Transferable]))) return true;
      } catch {
        // MediaStreamTrack is not transferable in this browser.
        clone.stop();
      }
    }
    if (typeof MediaStreamTrackProcessor === 'undefined') return false;
    const feed = track.clone();
    const processor = new MediaStreamTrackProcessor({ track: feed, maxBufferSize: 1 });
    try {
      await this.remote.attachReadable(Comlink.transfer(processor.readable, [processor.readable]));
    } catch {
      // ReadableStream is not transferable in this browser.
      feed.stop();
      return false;
    }
    this.stopFeeds();
    this.feeds.push(feed);
    return true;
  }

  /**
   * Lets the worker sample the attached track on its own clock. Its reports
   * come on a port of their own, one message each and no reply, so a sample
   * the main thread is not told of costs it nothing.
   */
  async startSampling(options: SamplingOptions, onReport: (report: SamplingReport) => void): Promise<void> {
    this.closeReports();
    const channel = new MessageChannel();
    channel.port1.onmessage = (event: MessageEvent<SamplingReport>) => onReport(event.data);
    this.reports = channel.port1;
    await this.remote.startSampling(options, Comlink.transfer(channel.port2, [channel.port2]));
  }

  async stopSampling(): Promise<void> {
    this.closeReports();
    await this.remote.stopSampling();
  }

  patrol(): Promise<PatrolImage> {
    return this.remote.patrol();
  }

  support(): Promise<StreamSupport> {
    return this.remote.support();
  }

  async stop(): Promise<void> {
    this.closeReports();
    this.stopFeeds();
    await this.remote.stop();
  }

  /** Stops the worker for good. */
  terminate(): void {
    if (this.closed) return;
    this.closed = true;
    this.closeReports();
    this.stopFeeds();
    this.remote[Comlink.releaseProxy]();
    this.worker.terminate();
  }

  private closeReports(): void {
    this.reports?.close();
    this.reports = null;
  }

  private stopFeeds(): void {
    for (const feed of this.feeds) feed.stop();
    this.feeds = [];
  }
}

/** When the camera captured each frame the preview presented, for the benchmark's latencies. */

export interface PresentedFrame {
  /** When the camera captured the frame (`performance.now()` time), if the browser says. */
  captureTime: number | null;
  /** The frame's media time in seconds: `VideoFrame(video).timestamp` is this in µs. */
  mediaTime: number;
  /** When the frame was presented. */
  presentationTime: number;
}

/** Records the preview's presented frames through `requestVideoFrameCallback`. */
export class FrameLog {
  readonly frames: PresentedFrame[] = [];
  private handle: number | null = null;

  constructor(
    private readonly video: HTMLVideoElement,
    private readonly limit = 2000,
  ) {}

  start(): boolean {
    if (typeof this.video.requestVideoFrameCallback !== 'function') return false;
    const onFrame: VideoFrameRequestCallback = (_now, metadata) => {
      this.frames.push({
        captureTime: metadata.captureTime ?? null,
        mediaTime: metadata.mediaTime,
        presentationTime: metadata.presentationTime,
      });
      if (this.frames.length > this.limit) this.frames.splice(0, this.frames.length - this.limit);
      this.handle = this.video.requestVideoFrameCallback(onFrame);
    };
    this.handle = this.video.requestVideoFrameCallback(onFrame);
    return true;
  }

  stop(): void {
    if (this.handle !== null) this.video.cancelVideoFrameCallback(this.handle);
    this.handle = null;
  }
}

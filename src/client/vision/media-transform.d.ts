/**
 * Media Capture Transform (https://w3c.github.io/mediacapture-transform/),
 * which TypeScript's DOM library does not describe yet. Chromium offers
 * `MediaStreamTrackProcessor` on the main thread and in workers; Safari only
 * in a dedicated worker, from a transferred track.
 */

interface MediaStreamTrackProcessorInit {
  track: MediaStreamTrack;
  /** How many frames it queues before dropping the oldest. */
  maxBufferSize?: number;
}

interface MediaStreamTrackProcessor {
  readonly readable: ReadableStream<VideoFrame>;
}

declare var MediaStreamTrackProcessor: {
  prototype: MediaStreamTrackProcessor;
  new (init: MediaStreamTrackProcessorInit): MediaStreamTrackProcessor;
};

/**
 * A track transferred to the worker (Safari's only way to read one); the
 * WebWorker library does not describe it. In a page it merges with the
 * DOM's MediaStreamTrack.
 */
interface MediaStreamTrack {
  stop(): void;
}

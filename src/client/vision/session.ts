/**
 * One analysis session of the vision worker: the engine it runs on, its
 * options, and the analyser with what it has seen. `start()` makes one,
 * `stop()` (or the next `start()`) disposes of it; nothing of a session
 * outlives it. What outlives sessions (the engines loaded, the whitelist, the
 * attached camera stream) belongs to the worker (worker.ts).
 */
import type { AnalyserOptions, FrameAnalyser, FrameResult, PatrolThumbnail } from './analyser';

export type Engine = 'wasm-simd' | 'wasm-scalar' | 'js';

export interface EngineInfo {
  engine: Engine;
  /** Why a better engine was not used, when one was skipped (for diagnostics). */
  fallbacks: string[];
  /** Milliseconds spent fetching and compiling the engine. */
  loadMs: number;
}

/** An engine ready to make analysers. */
export interface LoadedEngine {
  info: EngineInfo;
  create(options: AnalyserOptions): FrameAnalyser;
}

/** How a frame's pixels were turned into RGBA. */
export type PixelPath = 'copyTo' | 'canvas';

interface SessionAnalysis {
  result: FrameResult;
  /** The size the frame was analysed at. */
  width: number;
  height: number;
  /** True when the frame size differed from the session's and the analyser was made anew. */
  restarted: boolean;
  pixelPath: PixelPath;
  /** Writing the pixels, and the analysis itself. */
  writeMs: number;
  analyseMs: number;
}

export class VisionSession {
  private options: AnalyserOptions;
  private analyser: FrameAnalyser | null;
  private analysed = false;

  constructor(
    readonly engine: LoadedEngine,
    options: AnalyserOptions,
    private whitelist: readonly Uint8Array[],
  ) {
    this.options = { ...options };
    this.analyser = this.makeAnalyser();
  }

  private makeAnalyser(): FrameAnalyser {
    const made = this.engine.create(this.options);
    if (this.whitelist.length > 0) made.setWhitelist(this.whitelist);
    this.analysed = false;
    return made;
  }

  private current(): FrameAnalyser {
    if (this.analyser === null) throw new Error('The session has ended');
    return this.analyser;
  }

  private analysedOne(): FrameAnalyser {
    const analyser = this.current();
    if (!this.analysed) throw new Error('No frame has been analysed yet');
    return analyser;
  }

  /**
   * Analyses a frame of `size` taken at `timeMs`, whose pixels `write` puts
   * into the analyser's frame buffer.
   */
  async analyse(size: { width: number; height: number }, timeMs: number, write: (analyser: FrameAnalyser) => Promise<PixelPath>): Promise<SessionAnalysis> {
    let analyser = this.current();
    let restarted = false;
    const started = performance.now();
    if (size.width !== analyser.width || size.height !== analyser.height) {
      // The camera turned or changed its mind about the size: a new analyser,
      // since the previous frame cannot be compared with this one anyway.
      analyser.dispose();
      this.analyser = null;
      this.options = { ...this.options, width: size.width, height: size.height };
      analyser = this.makeAnalyser();
      this.analyser = analyser;
      restarted = true;
    }
    const pixelPath = await write(analyser);
    // The session may have ended while the pixels were written.
    if (this.analyser !== analyser) throw new Error('The session has ended');
    const analyseStart = performance.now();
    const result = analyser.process(timeMs);
    this.analysed = true;
    return {
      result,
      width: analyser.width,
      height: analyser.height,
      restarted,
      pixelPath,
      writeMs: analyseStart - started,
      analyseMs: performance.now() - analyseStart,
    };
  }

  /** Replaces the whitelist (100x100 grey images). */
  setWhitelist(images: readonly Uint8Array[]): void {
    this.whitelist = images;
    this.current().setWhitelist(images);
  }

  /** The 100x100 luma thumbnail of the last analysed frame (a whitelist image). */
  thumbnail(): Uint8Array {
    return this.analysedOne().thumbnail();
  }

  /** The patrol thumbnail of the last analysed frame. */
  patrol(): PatrolThumbnail {
    return this.analysedOne().patrol();
  }

  /** Frees the analyser; the session answers nothing after. */
  dispose(): void {
    this.analyser?.dispose();
    this.analyser = null;
    this.analysed = false;
  }
}

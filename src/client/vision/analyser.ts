/**
 * A typed view of the vision crate's C-ABI exports (docs/vision.md, "The wasm
 * boundary"). The worker, the tests and the benchmarks all go through this
 * class, whichever way they instantiated the module.
 */
import * as layout from './layout.generated';
import { AREA_GRID, THUMBNAIL_SIZE } from './params.generated';

export interface VisionExports {
  memory: WebAssembly.Memory;
  vision_analyser_new(width: number, height: number, isIos: number, isSleeper: number): number;
  vision_analyser_free(analyser: number): void;
  vision_frame_buffer(analyser: number): number;
  vision_process(analyser: number, timeMs: number): number;
  vision_whitelist_buffer(analyser: number, count: number): number;
  vision_patrol(analyser: number): number;
  vision_thumbnail(analyser: number): number;
  vision_face_model_buffer(analyser: number, length: number): number;
  vision_face_model_load(analyser: number): number;
}

const REQUIRED_EXPORTS = [
  'vision_analyser_new',
  'vision_analyser_free',
  'vision_frame_buffer',
  'vision_process',
  'vision_whitelist_buffer',
  'vision_patrol',
  'vision_thumbnail',
  'vision_face_model_buffer',
  'vision_face_model_load',
] as const;

/**
 * The exports of an instantiated vision module, checked to be the ones this
 * wrapper calls; `source` names the module in the error otherwise.
 */
export function toVisionExports(exports: Record<string, unknown>, source: string): VisionExports {
  if (!(exports.memory instanceof WebAssembly.Memory)) throw new Error(`${source} does not export its memory`);
  for (const name of REQUIRED_EXPORTS) {
    if (typeof exports[name] !== 'function') throw new Error(`${source} does not export ${name}`);
  }
  return exports as unknown as VisionExports;
}

export interface AnalyserOptions {
  width: number;
  height: number;
  /** iOS cameras are noisier: they get NO_MOTION_THRESHOLD_IOS instead of NO_MOTION_THRESHOLD (params.rs). */
  ios: boolean;
  /** Sleepers get the stricter NO_MOTION_COUNT_SLEEPER_S instead of NO_MOTION_COUNT_S (params.rs). */
  sleeper: boolean;
}

export interface VisionEvents {
  noMotion: boolean;
  motion: boolean;
  darkness: boolean;
  nodding: boolean;
  /** No face found for the away count: the seat looks empty. */
  away: boolean;
  /** A face found again after an away event. */
  back: boolean;
}

/** A face found in a frame. */
export interface FrameFace {
  /** The centre, as fractions of the frame's width and height. */
  x: number;
  y: number;
  /** The side, as a fraction of the frame's width. */
  size: number;
}

export interface FrameResult {
  hasPrevious: boolean;
  motionScore: number;
  changedRatio: number;
  meanLuma: number;
  dark: boolean;
  allBlack: boolean;
  /** Mean position of the changed pixels as fractions of width and height. */
  centroid: { x: number; y: number } | null;
  noddingCount: number;
  whitelistIndex: number;
  whitelistScore: number;
  whitelisted: boolean;
  /** Mean colour of each of the 3x3 areas, row by row, as [r, g, b]. */
  areaMeans: [number, number, number][];
  /** Which areas changed colour by more than the area colour threshold. */
  areasChanged: boolean[];
  lowMotionMs: number;
  darkMs: number;
  /** Whether faces are looked for (a face model is loaded); without it `face` is always null and says nothing. */
  faceDetector: boolean;
  face: FrameFace | null;
  /** How long no face has been found where one could be seen, ms. */
  noFaceMs: number;
  events: VisionEvents;
}

export interface PatrolThumbnail {
  width: number;
  height: number;
  allBlack: boolean;
  /** RGBA pixels, a copy owned by the caller. */
  rgba: Uint8ClampedArray<ArrayBuffer>;
}

/**
 * What every implementation of the pipeline offers: the wasm builds through
 * `Analyser`, and the plain JavaScript pipeline for devices without
 * WebAssembly (iOS Lockdown Mode turns it off).
 */
export interface FrameAnalyser {
  readonly width: number;
  readonly height: number;
  /** Where the next RGBA frame is written; take it afresh before every frame. */
  frameBuffer(): Uint8ClampedArray<ArrayBuffer>;
  process(timeMs: number): FrameResult;
  setWhitelist(images: readonly Uint8Array[]): void;
  patrol(): PatrolThumbnail;
  thumbnail(): Uint8Array;
  dispose(): void;
}

export { THUMBNAIL_SIZE };
export const THUMBNAIL_BYTES = THUMBNAIL_SIZE * THUMBNAIL_SIZE;

interface ResultViews {
  buffer: ArrayBuffer;
  pointer: number;
  words: Uint32Array<ArrayBuffer>;
  floats: Float32Array<ArrayBuffer>;
  areaBytes: Uint8Array<ArrayBuffer>;
}
const AREA_COUNT = AREA_GRID * AREA_GRID;

/** The event bits of a result record (layout.rs) as named events. */
export function eventsFromBits(bits: number): VisionEvents {
  return {
    noMotion: (bits & layout.EVENT_NO_MOTION) !== 0,
    motion: (bits & layout.EVENT_MOTION) !== 0,
    darkness: (bits & layout.EVENT_DARKNESS) !== 0,
    nodding: (bits & layout.EVENT_NODDING) !== 0,
    away: (bits & layout.EVENT_AWAY) !== 0,
    back: (bits & layout.EVENT_BACK) !== 0,
  };
}

export class Analyser implements FrameAnalyser {
  readonly width: number;
  readonly height: number;
  private handle: number;
  private views: ResultViews | null = null;

  constructor(
    private readonly exports: VisionExports,
    options: AnalyserOptions,
  ) {
    this.width = options.width;
    this.height = options.height;
    this.handle = exports.vision_analyser_new(options.width, options.height, options.ios ? 1 : 0, options.sleeper ? 1 : 0);
    if (this.handle === 0) {
      throw new RangeError(`Unsupported frame size ${options.width}x${options.height}`);
    }
  }

  /**
   * The RGBA buffer inside wasm memory that the next frame is written to.
   * Take a fresh view before every frame: memory growth detaches old views.
   */
  frameBuffer(): Uint8ClampedArray<ArrayBuffer> {
    const pointer = this.exports.vision_frame_buffer(this.live());
    return new Uint8ClampedArray(this.buffer(), pointer, this.width * this.height * 4);
  }

  /** Analyses the frame in `frameBuffer()`, taken at `timeMs`. */
  process(timeMs: number): FrameResult {
    const { words, floats, areaBytes } = this.resultViews(this.exports.vision_process(this.live(), timeMs));
    const flags = words[layout.WORD_FLAGS];
    const has = (flag: number) => (flags & flag) !== 0;
    const areaMeans: [number, number, number][] = [];
    const areasChanged: boolean[] = [];
    for (let area = 0; area < AREA_COUNT; area++) {
      areaMeans.push([areaBytes[area * 3], areaBytes[area * 3 + 1], areaBytes[area * 3 + 2]]);
      areasChanged.push((words[layout.WORD_AREAS_CHANGED] & (1 << area)) !== 0);
    }
    return {
      hasPrevious: has(layout.FLAG_HAS_PREVIOUS),
      motionScore: floats[layout.WORD_MOTION_SCORE],
      changedRatio: floats[layout.WORD_CHANGED_RATIO],
      meanLuma: floats[layout.WORD_MEAN_LUMA],
      dark: has(layout.FLAG_DARK),
      allBlack: has(layout.FLAG_ALL_BLACK),
      centroid: has(layout.FLAG_HAS_CENTROID) ? { x: floats[layout.WORD_CENTROID_X], y: floats[layout.WORD_CENTROID_Y] } : null,
      noddingCount: words[layout.WORD_NODDING_COUNT],
      whitelistIndex: words[layout.WORD_WHITELIST_INDEX] | 0,
      whitelistScore: floats[layout.WORD_WHITELIST_SCORE],
      whitelisted: has(layout.FLAG_WHITELISTED),
      areaMeans,
      areasChanged,
      lowMotionMs: words[layout.WORD_LOW_MOTION_MS],
      darkMs: words[layout.WORD_DARK_MS],
      faceDetector: has(layout.FLAG_FACE_DETECTOR),
      face: has(layout.FLAG_FACE) ? { x: floats[layout.WORD_FACE_X], y: floats[layout.WORD_FACE_Y], size: floats[layout.WORD_FACE_SIZE] } : null,
      noFaceMs: words[layout.WORD_NO_FACE_MS],
      events: eventsFromBits(words[layout.WORD_EVENTS]),
    };
  }

  /** Replaces the whitelist with these 100x100 grey images. */
  setWhitelist(images: readonly Uint8Array[]): void {
    for (const image of images) {
      if (image.length !== THUMBNAIL_BYTES) {
        throw new RangeError(`A whitelist image must be ${THUMBNAIL_BYTES} bytes, not ${image.length}`);
      }
    }
    const pointer = this.exports.vision_whitelist_buffer(this.live(), images.length);
    if (pointer === 0 && images.length > 0) {
      throw new RangeError(`Too many whitelist images: ${images.length}`);
    }
    const target = new Uint8Array(this.buffer(), pointer, images.length * THUMBNAIL_BYTES);
    for (const [index, image] of images.entries()) target.set(image, index * THUMBNAIL_BYTES);
  }

  /** The patrol thumbnail of the frame in `frameBuffer()`. */
  patrol(): PatrolThumbnail {
    const record = new Uint32Array(this.buffer(), this.exports.vision_patrol(this.live()), 4);
    const width = record[0];
    const height = record[1];
    return {
      width,
      height,
      allBlack: record[2] === 1,
      rgba: new Uint8ClampedArray(this.buffer(), record[3], width * height * 4).slice(),
    };
  }

  /** A copy of the last processed frame's 100x100 luma thumbnail. */
  thumbnail(): Uint8Array {
    const pointer = this.exports.vision_thumbnail(this.live());
    return new Uint8Array(this.buffer().slice(pointer, pointer + THUMBNAIL_BYTES));
  }

  /**
   * Hands the face model (crates/vision/pkg/face-model.bin) to the analyser;
   * true when it parsed and is in use.
   */
  loadFaceModel(bytes: Uint8Array): boolean {
    const pointer = this.exports.vision_face_model_buffer(this.live(), bytes.length);
    if (pointer === 0) return false;
    new Uint8Array(this.buffer(), pointer, bytes.length).set(bytes);
    return this.exports.vision_face_model_load(this.live()) === 1;
  }

  dispose(): void {
    if (this.handle !== 0) {
      this.exports.vision_analyser_free(this.handle);
      this.handle = 0;
    }
  }

  private live(): number {
    if (this.handle === 0) throw new Error('The analyser has been disposed');
    return this.handle;
  }

  /**
   * Views of the result record. The record stays at one address for the
   * analyser's life, so the views are made once, and again only when memory
   * growth has replaced the buffer under them.
   */
  private resultViews(pointer: number): ResultViews {
    const buffer = this.buffer();
    if (this.views === null || this.views.buffer !== buffer || this.views.pointer !== pointer) {
      this.views = {
        buffer,
        pointer,
        words: new Uint32Array(buffer, pointer, layout.RESULT_WORDS),
        floats: new Float32Array(buffer, pointer, layout.RESULT_WORDS),
        areaBytes: new Uint8Array(buffer, pointer + layout.WORD_AREA_MEANS * 4, AREA_COUNT * 3),
      };
    }
    return this.views;
  }

  private buffer(): ArrayBuffer {
    return this.exports.memory.buffer as ArrayBuffer;
  }
}

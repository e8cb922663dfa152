/**
 * The face detector of docs/vision.md ("Face") in plain JavaScript, for the
 * fallback without WebAssembly: the same model bytes (`face-model.bin`,
 * format in `crates/vision/src/face/model.rs`), the same search as
 * `crates/vision/src/face.rs` (box filter to the search width, pyramid,
 * integral images, LBP stumps, stages, `groupRectangles`), with the crate's
 * `f32` arithmetic rounded by `Math.fround` where it decides a place or a
 * pass, so that it finds the faces the wasm builds find.
 */

import type { FrameFace } from './analyser';
import { FACE_DENSE_SCALE, FACE_GROUP_EPS, FACE_MIN_NEIGHBOURS, FACE_MIN_SIZE, FACE_SCALE_FACTOR, FACE_SEARCH_WIDTH } from './params.generated';

const f32 = Math.fround;

// model.rs's format and limits.
const MAGIC = 'WFCM';
const VERSION = 1;
const MAX_WINDOW = 64;
const MAX_MODEL_BYTES = 1 << 20;
const WEAK_BYTES = 42;
const SUBSET_BYTES = 32;
/** OpenCV lowers each stage threshold by this, so that a sum equal to it after rounding still passes. */
const THRESHOLD_EPS = f32(1e-5);

/** A boosted cascade of LBP stumps, flattened into typed arrays. */
interface FaceModel {
  windowWidth: number;
  windowHeight: number;
  /** Per feature `x, y, w, h`: a 3x3 grid of `w x h` blocks from `(x, y)` in the window. */
  features: Uint8Array;
  /** Per stage, its weak classifiers' count and its threshold (lowered by `THRESHOLD_EPS`). */
  stageCounts: Uint16Array;
  stageThresholds: Float32Array;
  /** Per weak classifier: its feature, its 256-bit set of codes that take the first leaf, its two leaves. */
  weakFeatures: Uint16Array;
  subsets: Uint8Array;
  leaves: Float32Array;
}

/** The model in `bytes`, or null unless they are exactly one well-formed model (the bytes come from outside). */
export function parseFaceModel(bytes: Uint8Array): FaceModel | null {
  if (bytes.length > MAX_MODEL_BYTES || bytes.length < 12) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  if (String.fromCharCode(...bytes.subarray(0, 4)) !== MAGIC || bytes[4] !== VERSION || bytes[7] !== 0) return null;
  const windowWidth = bytes[5];
  const windowHeight = bytes[6];
  if (windowWidth === 0 || windowHeight === 0 || windowWidth > MAX_WINDOW || windowHeight > MAX_WINDOW) return null;
  const stageCount = view.getUint16(8, true);
  const featureCount = view.getUint16(10, true);
  if (stageCount === 0 || featureCount === 0) return null;
  let at = 12;
  const stagesAt = at + featureCount * 4;
  const weakAt = stagesAt + stageCount * 6;
  if (bytes.length < weakAt) return null;
  const features = bytes.slice(at, stagesAt);
  for (let feature = 0; feature < featureCount; feature++) {
    const [x, y, w, h] = features.subarray(feature * 4, feature * 4 + 4);
    if (w === 0 || h === 0 || x + 3 * w > windowWidth || y + 3 * h > windowHeight) return null;
  }
  const stageCounts = new Uint16Array(stageCount);
  const stageThresholds = new Float32Array(stageCount);
  at = stagesAt;
  for (let stage = 0; stage < stageCount; stage++, at += 6) {
    stageCounts[stage] = view.getUint16(at, true);
    const threshold = view.getFloat32(at + 2, true);
    if (stageCounts[stage] === 0 || !Number.isFinite(threshold)) return null;
    stageThresholds[stage] = f32(threshold - THRESHOLD_EPS);
  }
  const weakCount = stageCounts.reduce((sum, count) => sum + count, 0);
  if (bytes.length - weakAt !== weakCount * WEAK_BYTES) return null;
  const weakFeatures = new Uint16Array(weakCount);
  const subsets = new Uint8Array(weakCount * SUBSET_BYTES);
  const leaves = new Float32Array(weakCount * 2);
  for (let weak = 0; weak < weakCount; weak++, at += WEAK_BYTES) {
    weakFeatures[weak] = view.getUint16(at, true);
    subsets.set(bytes.subarray(at + 2, at + 2 + SUBSET_BYTES), weak * SUBSET_BYTES);
    leaves[weak * 2] = view.getFloat32(at + 34, true);
    leaves[weak * 2 + 1] = view.getFloat32(at + 38, true);
    if (weakFeatures[weak] >= featureCount || !Number.isFinite(leaves[weak * 2]) || !Number.isFinite(leaves[weak * 2 + 1])) return null;
  }
  return { windowWidth, windowHeight, features, stageCounts, stageThresholds, weakFeatures, subsets, leaves };
}

/** The source ranges of a box filter from `source` pixels to `target` cells (docs/vision.md, "Box filter"). */
interface Spans {
  starts: Int32Array;
  ends: Int32Array;
}

function spans(source: number, target: number): Spans {
  const starts = new Int32Array(target);
  const ends = new Int32Array(target);
  for (let j = 0; j < target; j++) {
    starts[j] = Math.floor((j * source) / target);
    ends[j] = Math.max(Math.floor(((j + 1) * source) / target), starts[j] + 1);
  }
  return { starts, ends };
}

/** The box filter of a `width`-wide image to `columns x rows` rounded means, `columnSums` as scratch. */
function boxFilter(image: Uint8Array, width: number, columns: Spans, rows: Spans, out: Uint8Array, columnSums: Uint32Array): void {
  const cells = columns.starts.length;
  for (let row = 0; row < rows.starts.length; row++) {
    const top = rows.starts[row];
    const bottom = rows.ends[row];
    columnSums.fill(0, 0, width);
    for (let y = top; y < bottom; y++) {
      for (let x = 0, i = y * width; x < width; x++, i++) columnSums[x] += image[i];
    }
    for (let cell = 0; cell < cells; cell++) {
      const start = columns.starts[cell];
      const end = columns.ends[cell];
      let sum = 0;
      for (let x = start; x < end; x++) sum += columnSums[x];
      const count = (end - start) * (bottom - top);
      out[row * cells + cell] = Math.floor((sum + (count >>> 1)) / count);
    }
  }
}

/** One scale of the pyramid, set up once per search size. */
interface Level {
  scale: number;
  width: number;
  height: number;
  /** The box filter from the searched image; null at scale 1. */
  columns: Spans | null;
  rows: Spans | null;
  /** 1, or 2 below `FACE_DENSE_SCALE`. */
  step: number;
  /** A hit's side in pixels of the searched image. */
  size: number;
  /** How many windows it has. */
  windows: number;
  /** Per weak classifier, where its feature's four corner rows then its four corner columns lie from a window's place in the integral image. */
  corners: Int32Array;
}

function levelsFor(model: FaceModel, width: number, height: number): Level[] {
  const { windowWidth, windowHeight } = model;
  const levels: Level[] = [];
  const scaleFactor = f32(FACE_SCALE_FACTOR);
  for (let scale = 1; ; scale = f32(scale * scaleFactor)) {
    const levelWidth = Math.round(f32(width / scale));
    const levelHeight = Math.round(f32(height / scale));
    if (levelWidth < windowWidth || levelHeight < windowHeight) return levels;
    // Levels of faces too small to matter are not scanned.
    if (f32(Math.min(windowWidth, windowHeight) * scale) < FACE_MIN_SIZE) continue;
    const stride = levelWidth + 1;
    const corners = new Int32Array(model.weakFeatures.length * 8);
    model.weakFeatures.forEach((feature, weak) => {
      const [x, y, w, h] = model.features.subarray(feature * 4, feature * 4 + 4);
      for (let at = 0; at < 4; at++) {
        corners[weak * 8 + at] = (y + at * h) * stride;
        corners[weak * 8 + 4 + at] = x + at * w;
      }
    });
    const resized = scale > 1;
    const step = scale < FACE_DENSE_SCALE ? 2 : 1;
    levels.push({
      scale,
      width: levelWidth,
      height: levelHeight,
      columns: resized ? spans(width, levelWidth) : null,
      rows: resized ? spans(height, levelHeight) : null,
      step,
      size: Math.round(f32(windowWidth * scale)),
      windows: (Math.floor((levelWidth - windowWidth) / step) + 1) * (Math.floor((levelHeight - windowHeight) / step) + 1),
      corners,
    });
  }
}

/**
 * Per corner row of a feature, its three differences along the row (left
 * minus right): a block is the difference of two rows' (21 subtractions,
 * not 27), as the crate's kernels do.
 */
const across = new Int32Array(12);

/** Whether the window at `base` of the integral image passes every stage. */
function passes(model: FaceModel, corners: Int32Array, integral: Int32Array, base: number): boolean {
  const { stageCounts, stageThresholds, subsets, leaves } = model;
  let weak = 0;
  for (let stage = 0; stage < stageCounts.length; stage++) {
    let sum = 0;
    for (const end = weak + stageCounts[stage]; weak < end; weak++) {
      const c = weak * 8;
      for (let row = 0; row < 4; row++) {
        const at = base + corners[c + row];
        const b = integral[at + corners[c + 5]];
        const d = integral[at + corners[c + 6]];
        across[row * 3] = integral[at + corners[c + 4]] - b;
        across[row * 3 + 1] = b - d;
        across[row * 3 + 2] = d - integral[at + corners[c + 7]];
      }
      const centre = across[4] - across[7];
      // A bit per outer block at least as bright as the centre, clockwise from the top left (OpenCV's order).
      const code =
        (across[0] - across[3] >= centre ? 128 : 0) |
        (across[1] - across[4] >= centre ? 64 : 0) |
        (across[2] - across[5] >= centre ? 32 : 0) |
        (across[5] - across[8] >= centre ? 16 : 0) |
        (across[8] - across[11] >= centre ? 8 : 0) |
        (across[7] - across[10] >= centre ? 4 : 0) |
        (across[6] - across[9] >= centre ? 2 : 0) |
        (across[3] - across[6] >= centre ? 1 : 0);
      const first = (subsets[weak * SUBSET_BYTES + (code >> 3)] >> (code & 7)) & 1;
      sum = f32(sum + leaves[weak * 2 + 1 - first]);
    }
    if (sum < stageThresholds[stage]) return false;
  }
  return true;
}

/** OpenCV's `SimilarRects`: every side within `eps` of the smaller size. */
function similar(hits: Int32Array, a: number, b: number, eps: number): boolean {
  const dx = hits[a * 3] - hits[b * 3];
  const dy = hits[a * 3 + 1] - hits[b * 3 + 1];
  const dSize = hits[a * 3 + 2] - hits[b * 3 + 2];
  const delta = f32(eps * Math.min(hits[a * 3 + 2], hits[b * 3 + 2]));
  return Math.abs(dx) <= delta && Math.abs(dy) <= delta && Math.abs(dx + dSize) <= delta && Math.abs(dy + dSize) <= delta;
}

/** A square in pixels of the searched image, with its group's count. */
interface Group {
  x: number;
  y: number;
  size: number;
  count: number;
}

/**
 * Groups the hits as OpenCV's `groupRectangles` does (union of similar
 * squares, the mean of each group; groups of at most `FACE_MIN_NEIGHBOURS`
 * hits and groups inside a stronger one dropped) and returns the best: the
 * most hits, then the largest.
 */
function bestGroup(hits: Int32Array, count: number): Group | null {
  const eps = f32(FACE_GROUP_EPS);
  const parents = new Int32Array(count);
  const root = (start: number): number => {
    let at = start;
    while (parents[at] !== at) {
      parents[at] = parents[parents[at]];
      at = parents[at];
    }
    return at;
  };
  for (let i = 0; i < count; i++) {
    parents[i] = i;
    for (let j = 0; j < i; j++) {
      if (similar(hits, i, j, eps)) {
        const a = root(i);
        const b = root(j);
        parents[Math.max(a, b)] = Math.min(a, b);
      }
    }
  }
  // Sums of x, y and size and the count per root, in the order of the roots (the lowest hit of each group).
  const sums = new Float64Array(count * 4);
  for (let hit = 0; hit < count; hit++) {
    const at = root(hit) * 4;
    for (let k = 0; k < 3; k++) sums[at + k] += hits[hit * 3 + k];
    sums[at + 3]++;
  }
  const strong: Group[] = [];
  for (let at = 0; at < count; at++) {
    const hitsInGroup = sums[at * 4 + 3];
    if (hitsInGroup <= FACE_MIN_NEIGHBOURS) continue;
    const mean = (k: number) => Math.round(f32(sums[at * 4 + k] / hitsInGroup));
    strong.push({ x: mean(0), y: mean(1), size: mean(2), count: hitsInGroup });
  }
  let best: Group | null = null;
  for (const group of strong) {
    const insideStronger = strong.some((outer) => {
      const margin = Math.round(f32(outer.size * eps));
      return (
        outer !== group &&
        group.x >= outer.x - margin &&
        group.y >= outer.y - margin &&
        group.x + group.size <= outer.x + outer.size + margin &&
        group.y + group.size <= outer.y + outer.size + margin &&
        (outer.count > Math.max(group.count, 3) || group.count < 3)
      );
    });
    const better = best === null || group.count > best.count || (group.count === best.count && group.size > best.size);
    if (!insideStronger && better) best = group;
  }
  return best;
}

/**
 * What the JavaScript analyser keeps for faces: the model once loaded, the
 * pyramid for its frame size, and the buffers, made once.
 */
export class JsFaceSearch {
  private model: FaceModel | null = null;
  private levels: Level[] = [];
  /** The searched size: the frame box-filtered to at most `FACE_SEARCH_WIDTH` wide. */
  private readonly width: number;
  private readonly height: number;
  private readonly frameColumns: Spans | null;
  private readonly frameRows: Spans | null;
  /** Frame pixels per searched pixel, across and down. */
  private readonly across: number;
  private readonly down: number;
  private readonly searched: Uint8Array;
  private readonly columnSums: Uint32Array;
  private pixels = new Uint8Array(0);
  private integral = new Int32Array(0);
  /** `x, y, size` per hit: room for every window of the pyramid. */
  private hits = new Int32Array(0);

  constructor(
    private readonly frameWidth: number,
    frameHeight: number,
  ) {
    const narrow = frameWidth <= FACE_SEARCH_WIDTH;
    this.width = narrow ? frameWidth : FACE_SEARCH_WIDTH;
    this.height = narrow ? frameHeight : Math.max(1, Math.floor((frameHeight * FACE_SEARCH_WIDTH + (frameWidth >>> 1)) / frameWidth));
    this.frameColumns = narrow ? null : spans(frameWidth, this.width);
    this.frameRows = narrow ? null : spans(frameHeight, this.height);
    this.across = f32(frameWidth / this.width);
    this.down = f32(frameHeight / this.height);
    this.searched = new Uint8Array(narrow ? 0 : this.width * this.height);
    this.columnSums = new Uint32Array(frameWidth);
  }

  /** Parses and uses the model; says whether it is in use (malformed bytes leave no model in use). */
  load(bytes: Uint8Array): boolean {
    this.model = parseFaceModel(bytes);
    this.levels = this.model === null ? [] : levelsFor(this.model, this.width, this.height);
    // The first level scanned is the largest.
    const first = this.levels[0];
    const windows = this.levels.reduce((total, level) => total + level.windows, 0);
    this.pixels = new Uint8Array(first === undefined ? 0 : first.width * first.height);
    this.integral = new Int32Array(first === undefined ? 0 : (first.width + 1) * (first.height + 1));
    this.hits = new Int32Array(windows * 3);
    return this.model !== null;
  }

  get hasModel(): boolean {
    return this.model !== null;
  }

  /** The best face in a frame's luma, in pixels of the frame; null without a model or a face. */
  detect(frameLuma: Uint8Array): FrameFace | null {
    const model = this.model;
    if (model === null) return null;
    let image = frameLuma;
    if (this.frameColumns !== null && this.frameRows !== null) {
      boxFilter(frameLuma, this.frameWidth, this.frameColumns, this.frameRows, this.searched, this.columnSums);
      image = this.searched;
    }
    let count = 0;
    for (const level of this.levels) count = this.scan(model, level, image, count);
    const group = bestGroup(this.hits, count);
    if (group === null) return null;
    const half = group.size / 2;
    return { x: f32((group.x + half) * this.across), y: f32((group.y + half) * this.down), size: f32(group.size * this.across) };
  }

  /** Box-filters the searched image to the level, makes its integral image and runs the cascade on every window; returns the hit count. */
  private scan(model: FaceModel, level: Level, image: Uint8Array, hitCount: number): number {
    const { width, height, step, scale, size, corners } = level;
    let pixels = image;
    if (level.columns !== null && level.rows !== null) {
      boxFilter(image, this.width, level.columns, level.rows, this.pixels, this.columnSums);
      pixels = this.pixels;
    }
    const integral = this.integral;
    const stride = width + 1;
    integral.fill(0, 0, stride);
    for (let y = 0; y < height; y++) {
      let running = 0;
      const above = y * stride;
      integral[above + stride] = 0;
      for (let x = 0; x < width; x++) {
        running += pixels[y * width + x];
        integral[above + stride + x + 1] = integral[above + x + 1] + running;
      }
    }
    const hits = this.hits;
    let count = hitCount;
    for (let y = 0; y <= height - model.windowHeight; y += step) {
      for (let x = 0; x <= width - model.windowWidth; x += step) {
        if (!passes(model, corners, integral, y * stride + x)) continue;
        hits[count * 3] = Math.round(f32(x * scale));
        hits[count * 3 + 1] = Math.round(f32(y * scale));
        hits[count * 3 + 2] = size;
        count++;
      }
    }
    return count;
  }
}

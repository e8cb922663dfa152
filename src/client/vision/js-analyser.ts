/**
 * The per-frame analysis of docs/vision.md in plain JavaScript: the fallback
 * where WebAssembly is unavailable (iOS Lockdown Mode turns it off) and the
 * JavaScript peer of the benchmark. It computes exactly the contract's
 * numbers, the same as the wasm builds of `crates/vision`.
 *
 * One pass over the pixels per frame computes the luma, the motion and
 * darkness sums, the box-filter sums of the luma for the 100x100 whitelist
 * thumbnail and those of R, G and B for the 3x3 areas; the rest works on
 * those sums. The face is searched in that luma (`js-face.ts`) once a face
 * model is loaded, and the rules are `js-events.ts`. All buffers are
 * allocated by the constructor (the face search's when its model loads).
 */

import { THUMBNAIL_BYTES, type AnalyserOptions, type FrameAnalyser, type FrameFace, type FrameResult, type PatrolThumbnail } from './analyser';
import { ruledFields, SessionEvents } from './js-events';
import { JsFaceSearch } from './js-face';
// The crate's parameters: the JS pipeline keeps the wasm builds' limits and thresholds.
import {
  ALL_BLACK_MAX_LUMA,
  AREA_COLOUR_THRESHOLD,
  AREA_GRID,
  DARK_MEAN_LUMA,
  MAX_SIDE,
  MAX_WHITELIST,
  PIXEL_CHANGE_THRESHOLD,
  THUMBNAIL_SIZE,
  WHITELIST_MATCH_THRESHOLD,
} from './params.generated';

const WHITELIST_MATCH_SAD = WHITELIST_MATCH_THRESHOLD * THUMBNAIL_BYTES;
const NO_WHITELIST_SCORE = 255;
const AREA_SIDE = AREA_GRID;
/** The patrol thumbnail's long side is the whitelist thumbnail's side. */
const PATROL_LONG_SIDE = THUMBNAIL_SIZE;
const AREA_COUNT = AREA_SIDE * AREA_SIDE;
/** Every platform browsers run on is; the pixel loops read RGBA as one word. */
const LITTLE_ENDIAN = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;

/** Luma with weights 1/4, 1/2, 1/4: the rounded average of green and of the rounded average of red and blue. */
export function luma(r: number, g: number, b: number): number {
  return (((r + b + 1) >> 1) + g + 1) >> 1;
}

/**
 * The box-filter ranges of docs/vision.md along one axis, from `source`
 * pixels to `target` outputs. Output `j` covers
 * `[floor(j s / n), max(floor((j + 1) s / n), floor(j s / n) + 1))`. Two
 * outputs' ranges are either equal (upscaling) or disjoint, and together they
 * cover the source, so the distinct ranges ("bins") partition the source:
 * every source pixel adds to exactly one bin, and every output reads one bin.
 */
export interface AxisBins {
  /** Bin of each source pixel. */
  readonly binOfSource: Uint16Array;
  /** Bin of each output. */
  readonly binOfOutput: Uint16Array;
  /** First source pixel of each bin. */
  readonly binStart: Uint32Array;
  /** Source pixels in each bin. */
  readonly binSize: Uint32Array;
  readonly binCount: number;
}

export function axisBins(source: number, target: number): AxisBins {
  const binOfSource = new Uint16Array(source);
  const binOfOutput = new Uint16Array(target);
  const starts: number[] = [];
  const sizes: number[] = [];
  for (let j = 0; j < target; j++) {
    const start = Math.floor((j * source) / target);
    const end = Math.max(Math.floor(((j + 1) * source) / target), start + 1);
    if (start !== starts[starts.length - 1]) {
      starts.push(start);
      sizes.push(end - start);
      binOfSource.fill(sizes.length - 1, start, end);
    }
    binOfOutput[j] = sizes.length - 1;
  }
  return {
    binOfSource,
    binOfOutput,
    binStart: Uint32Array.from(starts),
    binSize: Uint32Array.from(sizes),
    binCount: sizes.length,
  };
}

/** `max(1, round(side * scale))` with `scale = min(1, 100 / long)`, in integers. */
export function patrolSize(width: number, height: number): { width: number; height: number } {
  const long = Math.max(width, height);
  if (long <= PATROL_LONG_SIDE) return { width, height };
  const half = long >> 1;
  return {
    width: Math.max(1, Math.floor((width * PATROL_LONG_SIDE + half) / long)),
    height: Math.max(1, Math.floor((height * PATROL_LONG_SIDE + half) / long)),
  };
}

/** A box filter from a `width` x `height` RGBA frame to `outWidth` x `outHeight` RGB means. */
class BoxFilter {
  readonly columns: AxisBins;
  readonly rows: AxisBins;
  /** R, G, B, A sums per bin, row-major over (row bin, column bin). */
  readonly sums: Uint32Array;
  /** `binOfSource` of the columns times 4: the offset of a column's bin in a row of `sums`. */
  readonly columnOffset: Int32Array;

  constructor(
    width: number,
    height: number,
    readonly outWidth: number,
    readonly outHeight: number,
  ) {
    this.columns = axisBins(width, outWidth);
    this.rows = axisBins(height, outHeight);
    this.sums = new Uint32Array(this.columns.binCount * this.rows.binCount * 4);
    this.columnOffset = Int32Array.from(this.columns.binOfSource, (bin) => bin * 4);
  }

  /** Offset in `sums` of output cell (row, column)'s bin. */
  cellOffset(row: number, column: number): number {
    return (this.rows.binOfOutput[row] * this.columns.binCount + this.columns.binOfOutput[column]) * 4;
  }

  cellCount(row: number, column: number): number {
    return this.rows.binSize[this.rows.binOfOutput[row]] * this.columns.binSize[this.columns.binOfOutput[column]];
  }

  /**
   * Adds every pixel to its bin (the sums must have been cleared). Pixels are
   * read as little-endian 32-bit words, `0xAABBGGRR`; runs of pixels in the
   * same bin are summed in locals first.
   */
  accumulate(pixels: Uint32Array, width: number, height: number): void {
    const sums = this.sums;
    const columnOffset = this.columnOffset;
    const rowOfBins = this.rows.binOfSource;
    const rowStride = this.columns.binCount * 4;
    let i = 0;
    for (let y = 0; y < height; y++) {
      const base = rowOfBins[y] * rowStride;
      let k = base;
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      for (let x = 0; x < width; x++, i++) {
        const bin = base + columnOffset[x];
        if (bin !== k) {
          sums[k] += r;
          sums[k + 1] += g;
          sums[k + 2] += b;
          sums[k + 3] += a;
          r = g = b = a = 0;
          k = bin;
        }
        const v = pixels[i];
        r += v & 0xff;
        g += (v >>> 8) & 0xff;
        b += (v >>> 16) & 0xff;
        a += v >>> 24;
      }
      sums[k] += r;
      sums[k + 1] += g;
      sums[k + 2] += b;
      sums[k + 3] += a;
    }
  }
}

/** Rounded mean with halves up: `(sum + count / 2) / count` in integers. */
function roundedMean(sum: number, count: number): number {
  return Math.floor((sum + (count >>> 1)) / count);
}

/** The whole per-frame pipeline of docs/vision.md in plain JavaScript. */
export class JsAnalyser implements FrameAnalyser {
  readonly width: number;
  readonly height: number;
  private disposed = false;
  private readonly pixels: Uint8ClampedArray<ArrayBuffer>;
  /** The same pixels as little-endian words, one load per pixel. */
  private readonly words: Uint32Array;
  private readonly previousLuma: Uint8Array;
  private readonly events: SessionEvents;
  private readonly faces: JsFaceSearch;
  private readonly patrolFilter: BoxFilter;

  // The whitelist thumbnail: the luma box-filtered to 100x100.
  private readonly gridColumns: AxisBins;
  private readonly gridRows: AxisBins;
  /** Luma sums per (row bin, column bin). */
  private readonly gridSums: Uint32Array;
  /** Offset of each source row's bins in `gridSums`. */
  private readonly gridRowOffset: Int32Array;
  private readonly thumb = new Uint8Array(THUMBNAIL_BYTES);

  // The 3x3 areas: R, G and B box-filtered to 3x3.
  private readonly areaColumns: AxisBins;
  private readonly areaRows: AxisBins;
  /** R, G, B sums per (row bin, column bin). */
  private readonly areaSums: Float64Array;
  private readonly areaMeans = new Uint8Array(AREA_COUNT * 3);
  private readonly previousAreaMeans = new Uint8Array(AREA_COUNT * 3);

  private whitelist = new Uint8Array(0);
  private whitelistCount = 0;
  private processed = false;

  // Measurements of the current frame, set by scan(), finishGrid() and matchWhitelist().
  private lumaSum = 0;
  private maxLuma = 0;
  private diffSum = 0;
  private changed = 0;
  private changedXSum = 0;
  private changedYSum = 0;
  private changedAreas = 0;
  private whitelistIndex = -1;
  private whitelistSad = 0;
  private face: FrameFace | null = null;

  constructor(options: AnalyserOptions) {
    const { width, height } = options;
    if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1 || width > MAX_SIDE || height > MAX_SIDE) {
      throw new RangeError(`Unsupported frame size ${width}x${height}`);
    }
    if (!LITTLE_ENDIAN) throw new Error('The JavaScript vision pipeline needs a little-endian platform');
    this.width = width;
    this.height = height;
    this.pixels = new Uint8ClampedArray(width * height * 4);
    this.words = new Uint32Array(this.pixels.buffer);
    this.previousLuma = new Uint8Array(width * height);
    this.events = new SessionEvents(options);
    this.faces = new JsFaceSearch(width, height);
    const patrol = patrolSize(width, height);
    this.patrolFilter = new BoxFilter(width, height, patrol.width, patrol.height);

    this.gridColumns = axisBins(width, THUMBNAIL_SIZE);
    this.gridRows = axisBins(height, THUMBNAIL_SIZE);
    this.gridSums = new Uint32Array(this.gridColumns.binCount * this.gridRows.binCount);
    this.gridRowOffset = Int32Array.from(this.gridRows.binOfSource, (bin) => bin * this.gridColumns.binCount);

    this.areaColumns = axisBins(width, AREA_SIDE);
    this.areaRows = axisBins(height, AREA_SIDE);
    this.areaSums = new Float64Array(this.areaColumns.binCount * this.areaRows.binCount * 3);
  }

  frameBuffer(): Uint8ClampedArray<ArrayBuffer> {
    this.live();
    return this.pixels;
  }

  process(timeMs: number): FrameResult {
    this.live();
    this.scan();
    this.findFace();
    this.finishGrid();
    this.matchWhitelist();
    return this.decide(timeMs);
  }

  setWhitelist(images: readonly Uint8Array[]): void {
    this.live();
    for (const image of images) {
      if (image.length !== THUMBNAIL_BYTES) {
        throw new RangeError(`A whitelist image must be ${THUMBNAIL_BYTES} bytes, not ${image.length}`);
      }
    }
    if (images.length > MAX_WHITELIST) throw new RangeError(`Too many whitelist images: ${images.length}`);
    if (this.whitelist.length < images.length * THUMBNAIL_BYTES) {
      this.whitelist = new Uint8Array(images.length * THUMBNAIL_BYTES);
    }
    for (const [index, image] of images.entries()) this.whitelist.set(image, index * THUMBNAIL_BYTES);
    this.whitelistCount = images.length;
  }

  patrol(): PatrolThumbnail {
    this.live();
    const filter = this.patrolFilter;
    filter.sums.fill(0);
    filter.accumulate(this.words, this.width, this.height);
    const { outWidth, outHeight, sums } = filter;
    const rgba = new Uint8ClampedArray(outWidth * outHeight * 4);
    let bright = false;
    let p = 0;
    for (let row = 0; row < outHeight; row++) {
      for (let column = 0; column < outWidth; column++, p += 4) {
        const k = filter.cellOffset(row, column);
        const count = filter.cellCount(row, column);
        const r = roundedMean(sums[k], count);
        const g = roundedMean(sums[k + 1], count);
        const b = roundedMean(sums[k + 2], count);
        rgba[p] = r;
        rgba[p + 1] = g;
        rgba[p + 2] = b;
        // Alpha is averaged like the colours: 255 for opaque camera frames.
        rgba[p + 3] = roundedMean(sums[k + 3], count);
        if (luma(r, g, b) > ALL_BLACK_MAX_LUMA) bright = true;
      }
    }
    return { width: outWidth, height: outHeight, allBlack: !bright, rgba };
  }

  thumbnail(): Uint8Array {
    this.live();
    return this.thumb.slice();
  }

  /**
   * Hands the face model (crates/vision/pkg/face-model.bin) to the analyser;
   * true when it parsed and is in use, as `Analyser.loadFaceModel`.
   */
  loadFaceModel(bytes: Uint8Array): boolean {
    this.live();
    return this.faces.load(bytes);
  }

  dispose(): void {
    this.disposed = true;
  }

  /**
   * The single pass over the pixels: luma, its difference with the previous
   * frame's, the sums for motion, centroid and darkness, the luma box sums of
   * the thumbnail grid and the R, G, B sums of the areas. A row is walked in
   * segments, one per area column, so that the area sums stay in locals; the
   * grid's luma is summed in a local while consecutive pixels share a grid
   * bin. Frame totals are kept per row so that the inner loop stays in small
   * integers.
   */
  protected scan(): void {
    const { width, height, words, previousLuma, gridSums, gridRowOffset, areaSums } = this;
    const gridColumnBin = this.gridColumns.binOfSource;
    const areaColumnStart = this.areaColumns.binStart;
    const areaColumnSize = this.areaColumns.binSize;
    const areaColumnBins = this.areaColumns.binCount;
    const areaRowBin = this.areaRows.binOfSource;
    gridSums.fill(0);
    areaSums.fill(0);
    let lumaSum = 0;
    let maxLuma = 0;
    let diffSum = 0;
    let changed = 0;
    let changedXSum = 0;
    let changedYSum = 0;
    for (let y = 0; y < height; y++) {
      const rowStart = y * width;
      const gridBase = gridRowOffset[y];
      const areaBase = areaRowBin[y] * areaColumnBins * 3;
      let rowLuma = 0;
      let rowDiff = 0;
      let rowChanged = 0;
      let rowChangedX = 0;
      // Luma of the current run of pixels in grid bin `k`.
      let k = gridBase;
      let binLuma = 0;
      for (let segment = 0; segment < areaColumnBins; segment++) {
        const end = areaColumnStart[segment] + areaColumnSize[segment];
        let r = 0;
        let g = 0;
        let b = 0;
        for (let x = areaColumnStart[segment], i = rowStart + x; x < end; x++, i++) {
          const v = words[i];
          const red = v & 0xff;
          const green = (v >>> 8) & 0xff;
          const blue = (v >>> 16) & 0xff;
          r += red;
          g += green;
          b += blue;
          const y8 = (((red + blue + 1) >> 1) + green + 1) >> 1;
          rowLuma += y8;
          if (y8 > maxLuma) maxLuma = y8;
          // Math.abs compiles branchless; `if (d < 0)` mispredicts on sensor noise.
          const d = Math.abs(y8 - previousLuma[i]);
          rowDiff += d;
          if (d > PIXEL_CHANGE_THRESHOLD) {
            rowChanged++;
            rowChangedX += x;
          }
          previousLuma[i] = y8;
          const bin = gridBase + gridColumnBin[x];
          if (bin !== k) {
            gridSums[k] += binLuma;
            binLuma = 0;
            k = bin;
          }
          binLuma += y8;
        }
        const a = areaBase + segment * 3;
        areaSums[a] += r;
        areaSums[a + 1] += g;
        areaSums[a + 2] += b;
      }
      gridSums[k] += binLuma;
      lumaSum += rowLuma;
      diffSum += rowDiff;
      changed += rowChanged;
      changedXSum += rowChangedX;
      changedYSum += rowChanged * y;
    }
    this.lumaSum = lumaSum;
    this.maxLuma = maxLuma;
    if (this.processed) {
      this.diffSum = diffSum;
      this.changed = changed;
      this.changedXSum = changedXSum;
      this.changedYSum = changedYSum;
    } else {
      // The first frame has no previous frame: its differences were against zeros.
      this.diffSum = 0;
      this.changed = 0;
      this.changedXSum = 0;
      this.changedYSum = 0;
    }
  }

  /** The best face in the frame's luma (which `scan` left in `previousLuma`), as fractions of the frame. */
  protected findFace(): void {
    const face = this.faces.detect(this.previousLuma);
    const { width, height } = this;
    this.face = face === null ? null : { x: Math.fround(face.x / width), y: Math.fround(face.y / height), size: Math.fround(face.size / width) };
  }

  /** The box filters' means: the whitelist thumbnail and the areas' colours. */
  protected finishGrid(): void {
    const { thumb, gridSums, gridColumns, gridRows, areaSums, areaColumns, areaRows, areaMeans, previousAreaMeans } = this;
    let t = 0;
    for (let row = 0; row < THUMBNAIL_SIZE; row++) {
      const rowBin = gridRows.binOfOutput[row];
      const rowSize = gridRows.binSize[rowBin];
      const base = rowBin * gridColumns.binCount;
      for (let column = 0; column < THUMBNAIL_SIZE; column++, t++) {
        const columnBin = gridColumns.binOfOutput[column];
        thumb[t] = roundedMean(gridSums[base + columnBin], rowSize * gridColumns.binSize[columnBin]);
      }
    }
    previousAreaMeans.set(areaMeans);
    let changedAreas = 0;
    for (let area = 0; area < AREA_COUNT; area++) {
      const rowBin = areaRows.binOfOutput[Math.floor(area / AREA_SIDE)];
      const columnBin = areaColumns.binOfOutput[area % AREA_SIDE];
      const count = areaRows.binSize[rowBin] * areaColumns.binSize[columnBin];
      const k = (rowBin * areaColumns.binCount + columnBin) * 3;
      for (let c = 0; c < 3; c++) {
        const mean = roundedMean(areaSums[k + c], count);
        // The first frame changes no area.
        if (this.processed && Math.abs(mean - previousAreaMeans[area * 3 + c]) > AREA_COLOUR_THRESHOLD) {
          changedAreas |= 1 << area;
        }
        areaMeans[area * 3 + c] = mean;
      }
    }
    this.changedAreas = changedAreas;
  }

  /** The best (lowest, first on ties) sum of absolute differences against the whitelist. */
  protected matchWhitelist(): void {
    const { thumb, whitelist } = this;
    let bestIndex = -1;
    let bestSad = 0;
    for (let image = 0; image < this.whitelistCount; image++) {
      let sad = 0;
      const base = image * THUMBNAIL_BYTES;
      for (let i = 0; i < THUMBNAIL_BYTES; i++) {
        sad += Math.abs(thumb[i] - whitelist[base + i]);
      }
      if (bestIndex < 0 || sad < bestSad) {
        bestIndex = image;
        bestSad = sad;
      }
    }
    this.whitelistIndex = bestIndex;
    this.whitelistSad = bestSad;
  }

  /** Derived values (in double precision), runs and events; builds the result. */
  protected decide(timeMs: number): FrameResult {
    const pixelCount = this.width * this.height;
    const hasPrevious = this.processed;
    this.processed = true;
    const whitelisted = this.whitelistIndex >= 0 && this.whitelistSad <= WHITELIST_MATCH_SAD;
    const motionScore = this.diffSum / pixelCount;
    const meanLuma = this.lumaSum / pixelCount;
    const dark = meanLuma < DARK_MEAN_LUMA;
    const changed = this.changed;
    const hasCentroid = hasPrevious && changed >= Math.max(1, Math.floor(pixelCount / 200));
    const centroidX = hasCentroid ? (this.changedXSum / changed + 0.5) / this.width : 0;
    const centroidY = hasCentroid ? (this.changedYSum / changed + 0.5) / this.height : 0;
    const faceDetector = this.faces.hasModel;
    const face = this.face;
    const outcome = this.events.update({
      timeMs,
      hasPrevious,
      motionScore,
      dark,
      whitelisted,
      faceDetector,
      face: face === null ? null : { y: face.y, size: face.size * (this.width / this.height) },
    });

    const areaMeans: [number, number, number][] = [];
    const areasChanged: boolean[] = [];
    const m = this.areaMeans;
    for (let area = 0; area < AREA_COUNT; area++) {
      areaMeans.push([m[area * 3], m[area * 3 + 1], m[area * 3 + 2]]);
      areasChanged.push((this.changedAreas & (1 << area)) !== 0);
    }
    return {
      hasPrevious,
      motionScore: Math.fround(motionScore),
      changedRatio: Math.fround(changed / pixelCount),
      meanLuma: Math.fround(meanLuma),
      dark,
      allBlack: this.maxLuma <= ALL_BLACK_MAX_LUMA,
      centroid: hasCentroid ? { x: Math.fround(centroidX), y: Math.fround(centroidY) } : null,
      whitelistIndex: this.whitelistIndex,
      whitelistScore: this.whitelistIndex >= 0 ? Math.fround(this.whitelistSad / THUMBNAIL_BYTES) : NO_WHITELIST_SCORE,
      whitelisted,
      areaMeans,
      areasChanged,
      faceDetector,
      face,
      ...ruledFields(outcome),
    };
  }

  private live(): void {
    if (this.disposed) throw new Error('The analyser has been disposed');
  }
}

/**
 * The OpenCV.js peer of the benchmark: the steps of docs/vision.md done the
 * way an OpenCV.js user would, with the library's functions on Mats that are
 * allocated once. It is a speed peer, not a bit-exact implementation
 * (OpenCV's grey conversion and INTER_AREA rounding differ slightly from the
 * contract), but it does the same work per frame, including the copies into
 * and out of Mats and the event bookkeeping in JavaScript.
 */

import cvModule from '@techstark/opencv-js';
import {
  THUMBNAIL_BYTES,
  THUMBNAIL_SIZE,
  type AnalyserOptions,
  type FrameAnalyser,
  type FrameResult,
  type PatrolThumbnail,
} from '../../src/client/vision/analyser';
import { patrolSize } from '../../src/client/vision/js-analyser';
import { ruledFields, SessionEvents } from '../../src/client/vision/js-events';
import type { StepClock } from '../steps';

export type OpenCv = typeof cvModule;
type Mat = InstanceType<OpenCv['Mat']>;

let loading: Promise<{ cv: OpenCv }> | undefined;

/**
 * The OpenCV.js runtime, initialised once. It comes wrapped: the Emscripten
 * module has a `then` method, so resolving a promise with it directly would
 * never settle.
 */
export function loadOpenCv(): Promise<{ cv: OpenCv }> {
  loading ??= new Promise<{ cv: OpenCv }>((resolve) => {
    if (typeof cvModule.Mat === 'function') {
      resolve({ cv: cvModule });
    } else {
      cvModule.onRuntimeInitialized = () => resolve({ cv: cvModule });
    }
  });
  return loading;
}

const AREA_COUNT = 9;

/** The box-filter range of output `j` of `n` over `s` source pixels (docs/vision.md). */
function range(j: number, s: number, n: number): { start: number; size: number } {
  const start = Math.floor((j * s) / n);
  const end = Math.max(Math.floor(((j + 1) * s) / n), start + 1);
  return { start, size: end - start };
}

export class OpenCvAnalyser implements FrameAnalyser {
  readonly width: number;
  readonly height: number;
  /** Set by the benchmark to time the steps; null when only the total is measured. */
  clock: StepClock | null = null;
  private readonly frame: Mat;
  private gray: Mat;
  private previousGray: Mat;
  private readonly diff: Mat;
  private readonly mask: Mat;
  private readonly thumb: Mat;
  /** An empty Mat: "no mask" for minMaxLoc. */
  private readonly noMask: Mat;
  private readonly areaViews: Mat[];
  private readonly patrolMat: Mat;
  private readonly patrolGray: Mat;
  private readonly patrolSize: { width: number; height: number };
  private readonly thumbDsize: InstanceType<OpenCv['Size']>;
  private readonly patrolDsize: InstanceType<OpenCv['Size']>;
  private whitelist: Mat[] = [];
  private readonly events: SessionEvents;
  private readonly previousAreaMeans = new Uint8Array(AREA_COUNT * 3);
  private processed = false;
  private disposed = false;

  constructor(
    private readonly cv: OpenCv,
    options: AnalyserOptions,
  ) {
    this.width = options.width;
    this.height = options.height;
    this.frame = new cv.Mat(this.height, this.width, cv.CV_8UC4);
    this.gray = new cv.Mat(this.height, this.width, cv.CV_8UC1);
    this.previousGray = new cv.Mat(this.height, this.width, cv.CV_8UC1);
    this.diff = new cv.Mat(this.height, this.width, cv.CV_8UC1);
    this.mask = new cv.Mat(this.height, this.width, cv.CV_8UC1);
    this.thumb = new cv.Mat(THUMBNAIL_SIZE, THUMBNAIL_SIZE, cv.CV_8UC1);
    this.noMask = new cv.Mat();
    // The 3x3 areas as ROI views of the frame, made once.
    this.areaViews = [];
    for (let row = 0; row < 3; row++) {
      const rows = range(row, this.height, 3);
      for (let column = 0; column < 3; column++) {
        const columns = range(column, this.width, 3);
        this.areaViews.push(this.frame.roi(new cv.Rect(columns.start, rows.start, columns.size, rows.size)));
      }
    }
    this.patrolSize = patrolSize(this.width, this.height);
    this.thumbDsize = new cv.Size(THUMBNAIL_SIZE, THUMBNAIL_SIZE);
    this.patrolDsize = new cv.Size(this.patrolSize.width, this.patrolSize.height);
    this.patrolMat = new cv.Mat(this.patrolSize.height, this.patrolSize.width, cv.CV_8UC4);
    this.patrolGray = new cv.Mat(this.patrolSize.height, this.patrolSize.width, cv.CV_8UC1);
    this.events = new SessionEvents(options);
  }

  /** A view of the frame Mat's pixels in the OpenCV heap; take it afresh before every frame. */
  frameBuffer(): Uint8ClampedArray<ArrayBuffer> {
    this.live();
    const data = this.frame.data;
    return new Uint8ClampedArray(data.buffer as ArrayBuffer, data.byteOffset, data.length);
  }

  process(timeMs: number): FrameResult {
    this.live();
    const { cv, clock } = this;
    const pixelCount = this.width * this.height;

    // Luma.
    [this.gray, this.previousGray] = [this.previousGray, this.gray];
    cv.cvtColor(this.frame, this.gray, cv.COLOR_RGBA2GRAY);
    clock?.lap('luma');

    // Motion: score, changed pixels and their centroid.
    const hasPrevious = this.processed;
    let motionScore = 0;
    let changed = 0;
    let centroid: { x: number; y: number } | null = null;
    if (hasPrevious) {
      cv.absdiff(this.gray, this.previousGray, this.diff);
      motionScore = cv.mean(this.diff)[0];
      cv.threshold(this.diff, this.mask, 25, 255, cv.THRESH_BINARY);
      changed = cv.countNonZero(this.mask);
      if (changed >= Math.max(1, Math.floor(pixelCount / 200))) {
        const moments: { m00: number; m10: number; m01: number } = cv.moments(this.mask, true);
        centroid = { x: (moments.m10 / moments.m00 + 0.5) / this.width, y: (moments.m01 / moments.m00 + 0.5) / this.height };
      }
    }
    clock?.lap('motion');

    // Darkness.
    const meanLuma = cv.mean(this.gray)[0];
    const allBlack = cv.minMaxLoc(this.gray, this.noMask).maxVal <= 16;
    const dark = meanLuma < 40;
    clock?.lap('darkness');

    // Whitelist thumbnail and scores.
    cv.resize(this.gray, this.thumb, this.thumbDsize, 0, 0, cv.INTER_AREA);
    let whitelistIndex = -1;
    let whitelistSad = 0;
    this.whitelist.forEach((image, index) => {
      const sad = cv.norm1(this.thumb, image, cv.NORM_L1);
      if (whitelistIndex < 0 || sad < whitelistSad) {
        whitelistIndex = index;
        whitelistSad = sad;
      }
    });
    const whitelisted = whitelistIndex >= 0 && whitelistSad <= 20 * THUMBNAIL_BYTES;
    clock?.lap('whitelist');

    // Areas: mean colour of each ROI, read back into JavaScript.
    const areaMeans: [number, number, number][] = [];
    const areasChanged: boolean[] = [];
    this.areaViews.forEach((view, area) => {
      const mean = cv.mean(view);
      const rgb: [number, number, number] = [Math.round(mean[0]), Math.round(mean[1]), Math.round(mean[2])];
      let moved = false;
      for (let c = 0; c < 3; c++) {
        if (hasPrevious && Math.abs(rgb[c] - this.previousAreaMeans[area * 3 + c]) > 50) moved = true;
        this.previousAreaMeans[area * 3 + c] = rgb[c];
      }
      areaMeans.push(rgb);
      areasChanged.push(moved);
    });
    clock?.lap('areas');

    // Events, in JavaScript.
    this.processed = true;
    // It looks for no face: no away, no nodding, darkness on the mean luma alone.
    const outcome = this.events.update({ timeMs, hasPrevious, motionScore, dark, whitelisted, faceDetector: false, face: null });
    const result: FrameResult = {
      hasPrevious,
      motionScore: Math.fround(motionScore),
      changedRatio: Math.fround(changed / pixelCount),
      meanLuma: Math.fround(meanLuma),
      dark,
      allBlack,
      centroid: centroid ? { x: Math.fround(centroid.x), y: Math.fround(centroid.y) } : null,
      whitelistIndex,
      whitelistScore: whitelistIndex >= 0 ? Math.fround(whitelistSad / THUMBNAIL_BYTES) : 255,
      whitelisted,
      areaMeans,
      areasChanged,
      faceDetector: false,
      face: null,
      ...ruledFields(outcome),
    };
    clock?.lap('events');
    return result;
  }

  setWhitelist(images: readonly Uint8Array[]): void {
    this.live();
    for (const image of this.whitelist) image.delete();
    this.whitelist = images.map((image) => {
      const mat = new this.cv.Mat(THUMBNAIL_SIZE, THUMBNAIL_SIZE, this.cv.CV_8UC1);
      mat.data.set(image);
      return mat;
    });
  }

  patrol(): PatrolThumbnail {
    this.live();
    const { cv } = this;
    const { width, height } = this.patrolSize;
    cv.resize(this.frame, this.patrolMat, this.patrolDsize, 0, 0, cv.INTER_AREA);
    cv.cvtColor(this.patrolMat, this.patrolGray, cv.COLOR_RGBA2GRAY);
    const allBlack = cv.minMaxLoc(this.patrolGray, this.noMask).maxVal <= 16;
    // Copy out of the OpenCV heap: the caller owns the pixels.
    const rgba = new Uint8ClampedArray(this.patrolMat.data);
    return { width, height, allBlack, rgba };
  }

  thumbnail(): Uint8Array {
    this.live();
    return this.thumb.data.slice();
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const mat of [...this.areaViews, ...this.whitelist]) mat.delete();
    for (const mat of [this.noMask, this.frame, this.gray, this.previousGray, this.diff, this.mask, this.thumb, this.patrolMat, this.patrolGray]) {
      mat.delete();
    }
  }

  private live(): void {
    if (this.disposed) throw new Error('The analyser has been disposed');
  }
}

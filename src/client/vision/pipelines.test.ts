// @vitest-environment node
/**
 * The per-frame pipelines against docs/vision.md: the plain JavaScript
 * pipeline against hand-computed numbers and scripted event sequences, then
 * the wasm-simd, wasm-scalar and JavaScript pipelines against each other.
 */

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { syntheticFrames, seededRandom } from '../../../bench/frames';
import { Analyser, THUMBNAIL_BYTES, type AnalyserOptions, type FrameAnalyser, type FrameResult, type PatrolThumbnail, type VisionExports } from './analyser';
import { JsAnalyser, axisBins, luma, patrolSize } from './js-analyser';
import { loadFaceModelBytes, loadVisionWasm, type WasmFlavour } from './load-node';

type Rgb = readonly [number, number, number];

const OPTIONS: AnalyserOptions = { width: 1, height: 1, ios: false, sleeper: false };

/** A frame of one colour. */
function solid(width: number, height: number, [r, g, b]: Rgb): Uint8ClampedArray<ArrayBuffer> {
  const frame = new Uint8ClampedArray(width * height * 4);
  for (let p = 0; p < frame.length; p += 4) {
    frame[p] = r;
    frame[p + 1] = g;
    frame[p + 2] = b;
    frame[p + 3] = 255;
  }
  return frame;
}

/** A frame from its pixels, row by row. */
function pixels(rows: readonly (readonly Rgb[])[]): Uint8ClampedArray<ArrayBuffer> {
  return Uint8ClampedArray.from(rows.flatMap((row) => row.flatMap(([r, g, b]) => [r, g, b, 255])));
}

function grey(value: number): Rgb {
  return [value, value, value];
}

function feed(analyser: FrameAnalyser, frame: Uint8ClampedArray, timeMs: number): FrameResult {
  analyser.frameBuffer().set(frame);
  return analyser.process(timeMs);
}

function js(width: number, height: number, options: Partial<AnalyserOptions> = {}): JsAnalyser {
  return new JsAnalyser({ ...OPTIONS, ...options, width, height });
}

/** Indices of the frames on which an event fired. */
function firedAt(results: readonly FrameResult[], event: keyof FrameResult['events']): number[] {
  return results.flatMap((result, index) => (result.events[event] ? [index] : []));
}

describe('JS pipeline: geometry', () => {
  it('uses the contract luma', () => {
    expect(luma(255, 255, 255)).toBe(255);
    expect(luma(0, 0, 0)).toBe(0);
    expect(luma(10, 200, 30)).toBe(110); // (10 + 30 + 1) >> 1 = 20; (20 + 200 + 1) >> 1 = 110
    expect(luma(255, 0, 0)).toBe(64); // (255 + 0 + 1) >> 1 = 128; (128 + 0 + 1) >> 1 = 64
    expect(luma(0, 255, 0)).toBe(128); // 0; (0 + 255 + 1) >> 1 = 128
    expect(luma(0, 0, 255)).toBe(64);
    expect(luma(254, 0, 255)).toBe(128); // 255 halves round up: (509 + 1) >> 1 = 255; (255 + 1) >> 1 = 128
  });

  it('tiles the source when downscaling and takes one pixel each when upscaling', () => {
    const down = axisBins(160, 100);
    expect(down.binCount).toBe(100);
    expect(Array.from(down.binSize).reduce((a, b) => a + b)).toBe(160);
    // Output 0 covers [0, 1), output 1 covers [1, 3): floor(160/100) = 1, floor(320/100) = 3.
    expect(Array.from(down.binSize.slice(0, 3))).toEqual([1, 2, 1]);
    const up = axisBins(3, 100);
    expect(up.binCount).toBe(3);
    expect(Array.from(up.binSize)).toEqual([1, 1, 1]);
    expect(up.binOfOutput[33]).toBe(0);
    expect(up.binOfOutput[34]).toBe(1);
    expect(up.binOfOutput[66]).toBe(1);
    expect(up.binOfOutput[67]).toBe(2);
  });

  it('sizes the patrol thumbnail with the long side at most 100', () => {
    expect(patrolSize(640, 480)).toEqual({ width: 100, height: 75 });
    expect(patrolSize(120, 160)).toEqual({ width: 75, height: 100 });
    expect(patrolSize(161, 121)).toEqual({ width: 100, height: 75 });
    expect(patrolSize(17, 9)).toEqual({ width: 17, height: 9 });
    expect(patrolSize(100, 100)).toEqual({ width: 100, height: 100 });
    expect(patrolSize(4096, 1)).toEqual({ width: 100, height: 1 });
    // 150 * 100 / 200 = 75 exactly; 101 * 100 / 202 = 50 exactly; 3 * 100 / 200 = 1.5 rounds up to 2.
    expect(patrolSize(200, 3)).toEqual({ width: 100, height: 2 });
  });

  it('rejects sizes the wasm rejects', () => {
    expect(() => js(0, 10)).toThrow(RangeError);
    expect(() => js(4097, 10)).toThrow(RangeError);
    expect(() => js(4096, 1)).not.toThrow();
  });
});

describe('JS pipeline: hand-computed frames', () => {
  it('1x1: first frame, then a change to black', () => {
    const analyser = js(1, 1);
    const first = feed(analyser, pixels([[[10, 200, 30]]]), 0);
    expect(first).toMatchObject({
      hasPrevious: false,
      motionScore: 0,
      changedRatio: 0,
      meanLuma: 110,
      dark: false,
      allBlack: false,
      centroid: null,
      noddingCount: 0,
      whitelistIndex: -1,
      whitelistScore: 255,
      whitelisted: false,
      lowMotionMs: 0,
      darkMs: 0,
      faceDetector: false,
      face: null,
      noFaceMs: 0,
      events: { noMotion: false, motion: false, darkness: false, nodding: false, away: false, back: false },
    });
    expect(first.areaMeans).toEqual(Array(9).fill([10, 200, 30]));
    expect(first.areasChanged).toEqual(Array(9).fill(false));
    expect(analyser.thumbnail()).toEqual(new Uint8Array(THUMBNAIL_BYTES).fill(110));
    const patrol = analyser.patrol();
    expect(patrol).toMatchObject({ width: 1, height: 1, allBlack: false });
    expect(Array.from(patrol.rgba)).toEqual([10, 200, 30, 255]);

    const second = feed(analyser, pixels([[[0, 0, 0]]]), 1000);
    expect(second).toMatchObject({
      hasPrevious: true,
      motionScore: 110,
      changedRatio: 1,
      meanLuma: 0,
      dark: true,
      allBlack: true,
      // One changed pixel is enough: max(1, floor(1 / 200)) = 1.
      centroid: { x: 0.5, y: 0.5 },
      lowMotionMs: 0,
      darkMs: 1000,
    });
    expect(second.areasChanged).toEqual(Array(9).fill(true));
    expect(analyser.patrol().allBlack).toBe(true);
  });

  it('2x2: upscaled box filters', () => {
    const white: Rgb = [255, 255, 255];
    const red: Rgb = [255, 0, 0];
    const green: Rgb = [0, 255, 0];
    const blue: Rgb = [0, 0, 255];
    const analyser = js(2, 2);
    const first = feed(
      analyser,
      pixels([
        [white, red],
        [green, blue],
      ]),
      0,
    );
    expect(first.meanLuma).toBe(127.75); // (255 + 64 + 128 + 64) / 4
    // From 2 to 3 areas: area 0 covers [0, 1), area 1 [floor(2/3), max(floor(4/3), 1)) = [0, 1), area 2 [1, 2).
    expect(first.areaMeans).toEqual([white, white, red, white, white, red, green, green, blue]);
    // Thumbnail columns 0-49 take source column 0, 50-99 column 1; rows likewise.
    const thumb = analyser.thumbnail();
    expect([thumb[0], thumb[49], thumb[50], thumb[99]]).toEqual([255, 255, 64, 64]);
    expect([thumb[49 * 100 + 49], thumb[50 * 100], thumb[50 * 100 + 50], thumb[9999]]).toEqual([255, 128, 64, 64]);
    const patrol = analyser.patrol();
    expect(patrol).toMatchObject({ width: 2, height: 2, allBlack: false });
    expect(Array.from(patrol.rgba)).toEqual([...white, 255, ...red, 255, ...green, 255, ...blue, 255]);

    // The blue pixel turns white: luma 64 -> 255.
    const second = feed(
      analyser,
      pixels([
        [white, red],
        [green, white],
      ]),
      1000,
    );
    expect(second.motionScore).toBe(47.75); // 191 / 4
    expect(second.changedRatio).toBe(0.25);
    expect(second.centroid).toEqual({ x: 0.75, y: 0.75 });
    expect(second.areasChanged).toEqual([false, false, false, false, false, false, false, false, true]);
    expect(second.areaMeans[8]).toEqual(white);
  });

  it('4x4: areas of 1, 1 and 2 pixels a side, rounded half up', () => {
    // Area columns [0, 1), [1, 2), [2, 4); rows likewise.
    const frame = solid(4, 4, grey(100));
    const at = (x: number, y: number): number => (y * 4 + x) * 4;
    // Area 8 (x and y 2-3): R 0, 0, 0, 1 -> (1 + 2) / 4 = 0; G 1, 1, 0, 0 -> (2 + 2) / 4 = 1; B 255, 255, 255, 254 -> 255.
    frame.set([0, 1, 255], at(2, 2));
    frame.set([0, 1, 255], at(3, 2));
    frame.set([0, 0, 255], at(2, 3));
    frame.set([1, 0, 254], at(3, 3));
    // Area 2 (x 2-3, y 0): 10 and 13 -> (23 + 1) / 2 = 12.
    frame.set(grey(10), at(2, 0));
    frame.set(grey(13), at(3, 0));
    const result = feed(js(4, 4), frame, 0);
    expect(result.areaMeans[8]).toEqual([0, 1, 255]);
    expect(result.areaMeans[2]).toEqual([12, 12, 12]);
    expect(result.areaMeans[4]).toEqual([100, 100, 100]);
  });

  it('the whitelist thumbnail is the box-filtered luma, not the luma of box-filtered colours', () => {
    // 200x100: each thumbnail cell is a red and a near-black pixel side by side.
    const frame = solid(200, 100, [255, 0, 0]);
    for (let p = 4; p < frame.length; p += 8) frame.set([1, 0, 0], p);
    const analyser = js(200, 100);
    feed(analyser, frame, 0);
    // Lumas 64 and 1: (65 + 1) / 2 = 33. (The luma of the mean colour, 128, 0, 0, would be 32.)
    expect(analyser.thumbnail()).toEqual(new Uint8Array(THUMBNAIL_BYTES).fill(33));
  });

  it('3x3: areas are the pixels; the 25-level and 50-level thresholds are strict', () => {
    const analyser = js(3, 3);
    const colours: Rgb[] = [
      [10, 20, 30],
      [40, 50, 60],
      [70, 80, 90],
      [100, 110, 120],
      [130, 140, 150],
      [160, 170, 180],
      [190, 200, 210],
      [220, 230, 240],
      [250, 5, 128],
    ];
    const first = feed(analyser, pixels([colours.slice(0, 3), colours.slice(3, 6), colours.slice(6, 9)]), 0);
    expect(first.areaMeans).toEqual(colours);

    feed(analyser, solid(3, 3, grey(100)), 1000);
    const next = solid(3, 3, grey(100));
    next.set([126, 126, 126], 0); // pixel 0: luma +26, changed; channels +26
    next.set([125, 125, 125], 4 * 4); // pixel 4: luma +25, not changed
    next.set([100, 100, 150], 2 * 4); // pixel 2: luma 113 (+13); blue +50, area not changed
    next.set([151, 100, 100], 8 * 4); // pixel 8: luma 113 (+13); red +51, area changed
    const result = feed(analyser, next, 2000);
    expect(result.motionScore).toBe(Math.fround(77 / 9)); // (26 + 25 + 13 + 13) / 9
    expect(result.changedRatio).toBe(Math.fround(1 / 9));
    expect(result.centroid).toEqual({ x: Math.fround(0.5 / 3), y: Math.fround(0.5 / 3) });
    expect(result.areasChanged).toEqual([false, false, false, false, false, false, false, false, true]);
  });

  it('dark below 40, all black at 16 and under', () => {
    const analyser = js(1, 1);
    expect(feed(analyser, solid(1, 1, grey(40)), 0)).toMatchObject({ dark: false, allBlack: false });
    expect(feed(analyser, solid(1, 1, grey(39)), 1000)).toMatchObject({ dark: true, allBlack: false });
    expect(feed(analyser, solid(1, 1, grey(17)), 2000)).toMatchObject({ dark: true, allBlack: false });
    expect(feed(analyser, solid(1, 1, grey(16)), 3000)).toMatchObject({ dark: true, allBlack: true });
  });

  it('the centroid needs 0.5 % of the pixels to have changed', () => {
    const analyser = js(100, 100); // floor(10000 / 200) = 50 pixels
    feed(analyser, solid(100, 100, grey(0)), 0);
    const frame = solid(100, 100, grey(0));
    for (let x = 0; x < 49; x++) frame.set(grey(255), (10 * 100 + x) * 4);
    expect(feed(analyser, frame, 1000).centroid).toBeNull(); // 49 changed
    feed(analyser, solid(100, 100, grey(0)), 2000); // the same 49 change back
    const fifty = solid(100, 100, grey(0));
    for (let x = 0; x < 50; x++) fifty.set(grey(255), (10 * 100 + x) * 4);
    // Mean x 24.5 and y 10: (24.5 + 0.5) / 100 and (10 + 0.5) / 100.
    expect(feed(analyser, fifty, 3000).centroid).toEqual({ x: 0.25, y: Math.fround(0.105) });
  });

  it('rounds cell means half up in the patrol thumbnail', () => {
    const analyser = js(200, 2); // patrol 100 x 1: cells of 2 x 2 pixels
    const frame = solid(200, 2, grey(0));
    // Cell 0: 0, 0, 0, 1 -> (1 + 2) / 4 = 0. Cell 1: 1, 1, 0, 0 -> (2 + 2) / 4 = 1.
    frame.set(grey(1), (1 * 200 + 1) * 4);
    frame.set(grey(1), 2 * 4);
    frame.set(grey(1), 3 * 4);
    // Cell 2: 255, 255, 255, 254 -> (1019 + 2) / 4 = 255.
    for (const at of [4, 5, 204]) frame.set(grey(255), at * 4);
    frame.set(grey(254), 205 * 4);
    analyser.frameBuffer().set(frame);
    const patrol = analyser.patrol();
    expect(patrol).toMatchObject({ width: 100, height: 1 });
    expect(Array.from(patrol.rgba.slice(0, 12))).toEqual([0, 0, 0, 255, 1, 1, 1, 255, 255, 255, 255, 255]);
  });

  it('a bright pixel can vanish from the patrol thumbnail: all black there, not in the frame', () => {
    const analyser = js(1000, 10); // patrol 100 x 1: cells of 10 x 10
    const frame = solid(1000, 10, grey(0));
    frame.set(grey(255), 0);
    expect(feed(analyser, frame, 0).allBlack).toBe(false);
    const patrol = analyser.patrol();
    expect(patrol.rgba[0]).toBe(3); // (255 + 50) / 100
    expect(patrol.allBlack).toBe(true);
  });

  it('patrols the frame in the buffer, processed or not', () => {
    const analyser = js(4, 4);
    feed(analyser, solid(4, 4, grey(200)), 0);
    analyser.frameBuffer().set(solid(4, 4, grey(10)));
    expect(analyser.patrol().rgba[0]).toBe(10);
    expect(analyser.thumbnail()[0]).toBe(200);
  });
});

describe('JS pipeline: whitelist', () => {
  const scene = syntheticFrames(64, 48, 2, 3).frames[0];

  it('scores the mean absolute difference; matches at 20 and under', () => {
    const analyser = js(64, 48);
    feed(analyser, scene, 0);
    const thumb = analyser.thumbnail();
    const shifted = (by: number): Uint8Array => thumb.map((value) => (value + by > 255 ? value - by : value + by));
    analyser.setWhitelist([shifted(30), shifted(20), shifted(21)]);
    let result = feed(analyser, scene, 1000);
    expect(result).toMatchObject({ whitelistIndex: 1, whitelistScore: 20, whitelisted: true });
    analyser.setWhitelist([shifted(30), shifted(21)]);
    result = feed(analyser, scene, 2000);
    expect(result).toMatchObject({ whitelistIndex: 1, whitelistScore: 21, whitelisted: false });
  });

  it('takes the first of equal scores, and -1 / 255 without a whitelist', () => {
    const analyser = js(64, 48);
    feed(analyser, scene, 0);
    const thumb = analyser.thumbnail();
    analyser.setWhitelist([new Uint8Array(THUMBNAIL_BYTES), thumb, thumb]);
    expect(feed(analyser, scene, 1000)).toMatchObject({ whitelistIndex: 1, whitelistScore: 0, whitelisted: true });
    analyser.setWhitelist([]);
    expect(feed(analyser, scene, 2000)).toMatchObject({ whitelistIndex: -1, whitelistScore: 255, whitelisted: false });
  });

  it('rejects wrong sizes and more than 64 images', () => {
    const analyser = js(8, 8);
    expect(() => analyser.setWhitelist([new Uint8Array(99)])).toThrow(RangeError);
    expect(() => analyser.setWhitelist(Array.from({ length: 65 }, () => new Uint8Array(THUMBNAIL_BYTES)))).toThrow(RangeError);
    expect(() => analyser.setWhitelist(Array.from({ length: 64 }, () => new Uint8Array(THUMBNAIL_BYTES)))).not.toThrow();
  });
});

describe('JS pipeline: events', () => {
  /** Alternates two frames whose luma differs by `delta` on every pixel, one a second. */
  function flicker(options: Partial<AnalyserOptions>, delta: number, seconds: number): FrameResult[] {
    const analyser = js(4, 4, options);
    return Array.from({ length: seconds }, (_, i) => feed(analyser, solid(4, 4, grey(100 + (i % 2) * delta)), i * 1000));
  }

  it('no motion exactly at 180 s, once', () => {
    const results = flicker({}, 1, 400);
    expect(firedAt(results, 'noMotion')).toEqual([180]);
    expect(results[179].lowMotionMs).toBe(179_000);
    expect(results[180].lowMotionMs).toBe(180_000);
    expect(results[0].lowMotionMs).toBe(0); // the first frame is never low motion
  });

  it('no motion at 90 s for sleepers', () => {
    expect(firedAt(flicker({ sleeper: true }, 1, 200), 'noMotion')).toEqual([90]);
  });

  it('threshold 1.5, or 3.5 on iOS; a score at the threshold is motion', () => {
    // Luma differences of 2 and 3.5 on average.
    expect(firedAt(flicker({}, 2, 200), 'noMotion')).toEqual([]);
    expect(firedAt(flicker({ ios: true }, 2, 200), 'noMotion')).toEqual([180]);
    expect(firedAt(flicker({ ios: true }, 4, 200), 'noMotion')).toEqual([]);
    const atThreshold = (ios: boolean, a: number, b: number): FrameResult[] => {
      // 2x1 frames: one pixel flickers by `b - a`, the other stays: score (b - a) / 2.
      const analyser = js(2, 1, { ios });
      return Array.from({ length: 200 }, (_, i) => feed(analyser, pixels([[grey(i % 2 === 0 ? a : b), grey(50)]]), i * 1000));
    };
    expect(atThreshold(false, 100, 103)[1].motionScore).toBe(1.5);
    expect(firedAt(atThreshold(false, 100, 103), 'noMotion')).toEqual([]);
    expect(firedAt(atThreshold(false, 100, 102), 'noMotion')).toEqual([180]);
    expect(firedAt(atThreshold(true, 100, 107), 'noMotion')).toEqual([]);
    expect(firedAt(atThreshold(true, 100, 106), 'noMotion')).toEqual([180]);
  });

  it('motion when movement returns after a no-motion event, then a new episode', () => {
    const analyser = js(4, 4, { sleeper: true });
    const results: FrameResult[] = [];
    for (let i = 0; i < 300; i++) {
      const moving = i >= 100 && i < 103;
      const value = moving ? (i % 2 === 0 ? 0 : 200) : 100;
      results.push(feed(analyser, solid(4, 4, grey(value)), i * 1000));
    }
    // Frame 103 (back to grey 100 after black) is movement too; the run restarts at 104.
    expect(firedAt(results, 'noMotion')).toEqual([90, 193]);
    expect(firedAt(results, 'motion')).toEqual([100]);
    // Movement without a no-motion event before it is not an event.
    const fresh = js(4, 4);
    const early = Array.from({ length: 20 }, (_, i) => feed(fresh, solid(4, 4, grey(i < 10 ? 100 : i * 10)), i * 1000));
    expect(firedAt(early, 'motion')).toEqual([]);
  });

  it('darkness at 30 s of darkness, re-armed by a frame that is not dark', () => {
    const analyser = js(4, 4);
    const results: FrameResult[] = [];
    for (let i = 0; i < 80; i++) {
      const light = i === 0 || i === 45;
      results.push(feed(analyser, solid(4, 4, grey(light ? 120 : 10 + (i % 2) * 5)), i * 1000));
    }
    expect(results[30].darkMs).toBe(30_000);
    expect(results[45].darkMs).toBe(0);
    expect(firedAt(results, 'darkness')).toEqual([30, 75]);
  });

  it('a session that starts dark counts its first frame as one second', () => {
    const analyser = js(4, 4);
    const results = Array.from({ length: 40 }, (_, i) => feed(analyser, solid(4, 4, grey(10)), i * 1000));
    expect(results[0].darkMs).toBe(1000);
    expect(firedAt(results, 'darkness')).toEqual([29]);
  });

  it('gaps count at most 2 s; time going back counts nothing', () => {
    const analyser = js(4, 4);
    const times = [0, 1000, 61_000, 61_500, 61_000, 62_000.75, 63_000];
    const runs = times.map((t, i) => feed(analyser, solid(4, 4, grey(100 + (i % 2))), t).lowMotionMs);
    expect(runs).toEqual([0, 1000, 3000, 3500, 3500, 4500, 5500]);
  });

  it('whitelisted frames break the low-motion and dark runs', () => {
    const analyser = js(16, 16, { sleeper: true });
    const still = solid(16, 16, grey(100));
    feed(analyser, still, 0);
    const approved = analyser.thumbnail();
    const results: FrameResult[] = [];
    for (let i = 1; i < 200; i++) {
      analyser.setWhitelist(i === 50 ? [approved] : []);
      results.push(feed(analyser, still, i * 1000));
    }
    expect(results[48].lowMotionMs).toBe(49_000);
    expect(results[49]).toMatchObject({ whitelisted: true, whitelistIndex: 0, whitelistScore: 0, lowMotionMs: 0 });
    expect(results[50].lowMotionMs).toBe(1000);
    expect(firedAt(results, 'noMotion')).toEqual([49 + 90]);

    // Whitelisted all along: never no motion, never darkness.
    const approvedScene = js(16, 16);
    feed(approvedScene, solid(16, 16, grey(10)), 0);
    approvedScene.setWhitelist([approvedScene.thumbnail()]);
    const always = Array.from({ length: 300 }, (_, i) => feed(approvedScene, solid(16, 16, grey(10)), (i + 1) * 1000));
    expect(always.every((result) => result.whitelisted && result.dark && result.darkMs === 0 && result.lowMotionMs === 0)).toBe(true);
    expect(firedAt(always, 'noMotion')).toEqual([]);
    expect(firedAt(always, 'darkness')).toEqual([]);

    // A whitelisted dark frame breaks the dark run but not the episode.
    const dark = js(16, 16);
    const darkResults: FrameResult[] = [];
    for (let i = 0; i < 80; i++) {
      dark.setWhitelist(i === 40 ? [dark.thumbnail()] : []);
      darkResults.push(feed(dark, solid(16, 16, grey(10)), i * 1000));
    }
    expect(darkResults[40]).toMatchObject({ whitelisted: true, darkMs: 0 });
    expect(darkResults[70].darkMs).toBe(30_000);
    expect(firedAt(darkResults, 'darkness')).toEqual([29]);
  });

  it('judges no nodding and nobody away without a face detector, however the changed pixels move', () => {
    // A band of changed rows jumping up and down, the pattern of the motion
    // centroid's old nodding rule: without a face it is not a head.
    const analyser = js(100, 100);
    const plain = solid(100, 100, grey(60));
    const results = [feed(analyser, plain, 0)];
    for (const centre of [30, 60, 30, 60, 30, 60, 30, 60]) {
      const band = solid(100, 100, grey(60));
      for (let y = centre - 5; y < centre + 5; y++) band.fill(255, y * 400, (y + 1) * 400);
      results.push(feed(analyser, band, results.length * 1000));
      results.push(feed(analyser, plain, results.length * 1000));
    }
    expect(results[1].centroid).toEqual({ x: 0.5, y: Math.fround(0.3) });
    expect(results.every((result) => result.noddingCount === 0 && !result.events.nodding)).toBe(true);
    const still = Array.from({ length: 400 }, (_, i) => feed(analyser, plain, (results.length + i) * 1000));
    expect(still.some((result) => result.events.away || result.noFaceMs > 0)).toBe(false);
    expect(firedAt(still, 'noMotion')).toEqual([179]);
  });
});

// ---------------------------------------------------------------------------
// Cross-implementation equality: wasm-simd, wasm-scalar and JavaScript.

const SIZES: readonly (readonly [number, number])[] = [
  [1, 1],
  [17, 9],
  [161, 121],
  [160, 120],
  [640, 480],
  [120, 160],
];

interface Step {
  frame: Uint8ClampedArray<ArrayBuffer>;
  timeMs: number;
  /** Replaces the whitelist before the frame; images may refer to earlier thumbnails. */
  whitelist?: (earlierThumbnails: readonly Uint8Array[]) => Uint8Array[];
}

/** Seeded random frames, random walks, near-threshold steps and the synthetic room, with whitelists and odd timing. */
function script(width: number, height: number, seed: number): Step[] {
  const random = seededRandom(seed);
  const size = width * height * 4;
  const steps: Step[] = [];
  let time = 0;
  const push = (frame: Uint8ClampedArray<ArrayBuffer>, dt = 1000, whitelist?: Step['whitelist']): void => {
    time += dt;
    steps.push({ frame, timeMs: time, whitelist });
  };

  // Uniform noise.
  for (let i = 0; i < 3; i++) {
    const frame = new Uint8ClampedArray(size);
    for (let p = 0; p < size; p++) frame[p] = random() & 0xff;
    push(frame);
  }
  // A grey random walk around the changed-pixel threshold: luma steps of 20 to 30.
  let walk = new Uint8ClampedArray(size);
  for (let p = 0; p < size; p += 4) {
    const value = 60 + (random() % 120);
    walk.set([value, value, value, 255], p);
  }
  push(walk.slice());
  for (let i = 0; i < 4; i++) {
    const next = walk.slice();
    for (let p = 0; p < size; p += 4) {
      const step = (20 + (random() % 11)) * (random() & 1 ? 1 : -1);
      const value = next[p] + step;
      next.set([value, value, value], p);
    }
    walk = next;
    push(walk.slice(), 997.25);
  }
  // Colour blocks that jump by about the area threshold (49 to 52).
  const blocks = (offset: number): Uint8ClampedArray<ArrayBuffer> => {
    const frame = new Uint8ClampedArray(size);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const block = Math.floor((3 * x) / width) + 3 * Math.floor((3 * y) / height);
        frame.set([(block * 25 + offset) & 0xff, 100 + offset, 90 + block * 10, 255], (y * width + x) * 4);
      }
    }
    return frame;
  };
  push(blocks(0));
  push(blocks(49 + (random() % 4)));
  // The synthetic room with its moving head, nodding, stillness and darkness.
  const room = syntheticFrames(width, height, 48, seed).frames;
  room.forEach((frame, i) => {
    // Whitelists on the way: the thumbnail of a frame seen before (a match),
    // a random image, and later none.
    let whitelist: Step['whitelist'];
    if (i === 10) {
      whitelist = (thumbs) => {
        const noise = new Uint8Array(THUMBNAIL_BYTES);
        for (let k = 0; k < noise.length; k++) noise[k] = random() & 0xff;
        return [noise, thumbs[thumbs.length - 1], thumbs[thumbs.length - 3]];
      };
    }
    if (i === 30) whitelist = (thumbs) => [thumbs[thumbs.length - 1].map((value) => Math.min(255, value + 19))];
    if (i === 40) whitelist = () => [];
    const dt = i === 20 ? 5000 : i === 21 ? -300 : i === 22 ? 1333.5 : 1000;
    push(frame, dt, whitelist);
  });
  // Black frames, then a frame with a single bright pixel.
  push(new Uint8ClampedArray(size).fill(0).map((_value, p) => (p % 4 === 3 ? 255 : 0)));
  const speck = new Uint8ClampedArray(size).map((_value, p) => (p % 4 === 3 ? 255 : 5));
  speck.set([255, 255, 255], 4 * Math.floor((width * height) / 2));
  push(speck);
  return steps;
}

/** A long, mostly still session at one frame a second: no-motion, motion, darkness and nodding events. */
function longScript(width: number, height: number, seed: number): Step[] {
  const room = syntheticFrames(width, height, 40, seed).frames;
  // Phases of syntheticFrames(40): moving 0-11, nodding 12-17, still 18-25, dark 26-33, return 34-39.
  const order: number[] = [];
  for (let i = 0; i < 12; i++) order.push(i);
  for (let k = 0; k < 3; k++) for (let i = 12; i < 18; i++) order.push(i);
  for (let k = 0; k < 200; k++) order.push(18 + (k % 8));
  for (let i = 34; i < 40; i++) order.push(i);
  for (let k = 0; k < 40; k++) order.push(26 + (k % 8));
  for (let i = 34; i < 40; i++) order.push(i);
  return order.map((index, i) => ({ frame: room[index], timeMs: 5_000 + i * 1000 }));
}

interface Outcome {
  result: FrameResult;
  thumbnail: Uint8Array;
  patrol: PatrolThumbnail;
}

function run(analyser: FrameAnalyser, steps: readonly Step[]): Outcome[] {
  const thumbnails: Uint8Array[] = [];
  return steps.map((step) => {
    if (step.whitelist) analyser.setWhitelist(step.whitelist(thumbnails));
    const result = feed(analyser, step.frame, step.timeMs);
    const thumbnail = analyser.thumbnail();
    thumbnails.push(thumbnail);
    return { result, thumbnail, patrol: analyser.patrol() };
  });
}

const FLOAT_FIELDS = ['motionScore', 'changedRatio', 'meanLuma', 'whitelistScore'] as const;

/** Both sides compute the same f64 operations and round to f32, so this is tight. */
function close(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1e-4;
}

/** Every difference between two outcomes, described; empty when they agree. */
function differences(expected: Outcome, actual: Outcome): string[] {
  const found: string[] = [];
  const a = expected.result;
  const b = actual.result;
  for (const field of FLOAT_FIELDS) {
    if (!close(a[field], b[field])) found.push(`${field}: ${a[field]} vs ${b[field]}`);
  }
  if ((a.centroid === null) !== (b.centroid === null)) {
    found.push(`centroid: ${JSON.stringify(a.centroid)} vs ${JSON.stringify(b.centroid)}`);
  } else if (a.centroid && b.centroid && !(close(a.centroid.x, b.centroid.x) && close(a.centroid.y, b.centroid.y))) {
    found.push(`centroid: ${JSON.stringify(a.centroid)} vs ${JSON.stringify(b.centroid)}`);
  }
  const exact = [
    'hasPrevious',
    'dark',
    'allBlack',
    'noddingCount',
    'whitelistIndex',
    'whitelisted',
    'lowMotionMs',
    'darkMs',
    'faceDetector',
    'noFaceMs',
  ] as const;
  for (const field of exact) {
    if (a[field] !== b[field]) found.push(`${field}: ${a[field]} vs ${b[field]}`);
  }
  for (const field of ['areaMeans', 'areasChanged', 'events', 'face'] as const) {
    if (JSON.stringify(a[field]) !== JSON.stringify(b[field])) {
      found.push(`${field}: ${JSON.stringify(a[field])} vs ${JSON.stringify(b[field])}`);
    }
  }
  const firstByteDiff = (x: ArrayLike<number>, y: ArrayLike<number>): string | null => {
    if (x.length !== y.length) return `length ${x.length} vs ${y.length}`;
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return `byte ${i}: ${x[i]} vs ${y[i]}`;
    return null;
  };
  const thumb = firstByteDiff(expected.thumbnail, actual.thumbnail);
  if (thumb) found.push(`thumbnail ${thumb}`);
  const pa = expected.patrol;
  const pb = actual.patrol;
  if (pa.width !== pb.width || pa.height !== pb.height || pa.allBlack !== pb.allBlack) {
    found.push(`patrol: ${pa.width}x${pa.height} black ${pa.allBlack} vs ${pb.width}x${pb.height} black ${pb.allBlack}`);
  }
  const patrolPixels = firstByteDiff(pa.rgba, pb.rgba);
  if (patrolPixels) found.push(`patrol rgba ${patrolPixels}`);
  return found;
}

interface Builds {
  modules: Record<WasmFlavour, VisionExports>;
  faceModel: Uint8Array;
}

/** Runs the steps through every pipeline, each with the face model, and lists the mismatches against JavaScript, frame by frame. */
function compare({ modules, faceModel }: Builds, options: AnalyserOptions, steps: readonly Step[]): string[] {
  const javascript = new JsAnalyser(options);
  expect(javascript.loadFaceModel(faceModel)).toBe(true);
  const reference = run(javascript, steps);
  const mismatches: string[] = [];
  for (const flavour of ['simd', 'scalar'] as const) {
    const analyser = new Analyser(modules[flavour], options);
    expect(analyser.loadFaceModel(faceModel)).toBe(true);
    try {
      const outcomes = run(analyser, steps);
      outcomes.forEach((outcome, frame) => {
        for (const difference of differences(reference[frame], outcome)) {
          mismatches.push(`${options.width}x${options.height} frame ${frame} (t ${steps[frame].timeMs}): js vs wasm-${flavour}: ${difference}`);
        }
      });
    } finally {
      analyser.dispose();
    }
  }
  return mismatches;
}

// Three pipelines over whole sessions of frames: seconds of work, far more on a loaded machine (speed is measured in bench/).
describe('wasm-simd, wasm-scalar and JavaScript agree', { timeout: 60_000 }, () => {
  let builds: Builds | undefined;
  let loadError: unknown;

  beforeAll(async () => {
    try {
      builds = { modules: { simd: await loadVisionWasm('simd'), scalar: await loadVisionWasm('scalar') }, faceModel: await loadFaceModelBytes() };
    } catch (error) {
      loadError = error;
    }
  });

  /** The built modules and face model; fails the test (never skips it) when they are not built. */
  function wasm(): Builds {
    if (!builds) {
      const reason = loadError instanceof Error ? loadError.message : String(loadError);
      throw new Error(`The vision wasm modules could not be loaded, so the pipelines cannot be compared: ${reason}`);
    }
    return builds;
  }

  for (const [width, height] of SIZES) {
    it(`on seeded and structured frames at ${width}x${height}`, () => {
      const steps = script(width, height, width * 7919 + height);
      const mismatches = compare(wasm(), { width, height, ios: false, sleeper: false }, steps);
      expect(mismatches.slice(0, 20)).toEqual([]);
    });
  }

  it('on odd shapes: 2x2, 3x3, 5x7, 101x3, 4096x1, 1x300, 99x101, 301x199', () => {
    const mismatches: string[] = [];
    for (const [width, height] of [
      [2, 2],
      [3, 3],
      [5, 7],
      [101, 3],
      [4096, 1],
      [1, 300],
      [99, 101],
      [301, 199],
    ] as const) {
      const steps = script(width, height, width * 31 + height).slice(0, 24);
      mismatches.push(...compare(wasm(), { width, height, ios: false, sleeper: false }, steps));
    }
    expect(mismatches.slice(0, 20)).toEqual([]);
  });

  for (const [width, height, ios, sleeper] of [
    [17, 9, false, false],
    [160, 120, true, true],
    [120, 160, false, true],
  ] as const) {
    it(`over a long session at ${width}x${height}${ios ? ', iOS' : ''}${sleeper ? ', sleeper' : ''}`, () => {
      const steps = longScript(width, height, 11);
      const mismatches = compare(wasm(), { width, height, ios, sleeper }, steps);
      expect(mismatches.slice(0, 20)).toEqual([]);
      // The session exercises the events it is meant to.
      const results = run(new JsAnalyser({ width, height, ios, sleeper }), steps).map((outcome) => outcome.result);
      if (width * height > 1000) {
        expect(firedAt(results, 'noMotion').length).toBeGreaterThan(0);
        expect(firedAt(results, 'darkness').length).toBeGreaterThan(0);
      }
    });
  }

  it('cannot be compared without the builds: a missing module is an error naming the build command', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'warden-no-wasm-'));
    try {
      await expect(loadVisionWasm('simd', empty)).rejects.toThrow(
        /vision-simd\.wasm is missing: build the vision crate first with `node scripts\/build-wasm\.mjs`/,
      );
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });

  it('reject the same sizes', () => {
    for (const flavour of ['simd', 'scalar'] as const) {
      expect(() => new Analyser(wasm().modules[flavour], { ...OPTIONS, width: 0, height: 5 })).toThrow(RangeError);
      expect(() => new Analyser(wasm().modules[flavour], { ...OPTIONS, width: 4097, height: 5 })).toThrow(RangeError);
    }
  });
});

// @vitest-environment node
/**
 * The JavaScript face detector (js-face.ts) against the crate's: the same
 * model bytes parsed the same way, and on real footage (the judgment
 * benchmark's clips, bench/footage: fetched and checked on first use, then
 * cached) the same face and the same judgments as both wasm builds, frame
 * by frame.
 */

import { beforeAll, describe, expect, it } from 'vitest';
import { CLIPS } from '../../../bench/footage/clips';
import { fetchFootage } from '../../../bench/footage/fetch';
import { FootageImages, FootageRenderer } from '../../../bench/footage/render';
import { planClip } from '../../../bench/footage/script';
import { Analyser, type FrameAnalyser, type FrameResult, type VisionExports } from './analyser';
import { JsAnalyser } from './js-analyser';
import { parseFaceModel } from './js-face';
import { loadFaceModelBytes, loadVisionWasm } from './load-node';

let model: Uint8Array;
let builds: Record<'simd' | 'scalar', VisionExports>;
let images: FootageImages;

beforeAll(async () => {
  model = await loadFaceModelBytes();
  builds = { simd: await loadVisionWasm('simd'), scalar: await loadVisionWasm('scalar') };
  images = new FootageImages(fetchFootage());
});

describe('the face model in JavaScript', () => {
  it('parses the bytes the build writes: 20 stages, 136 features, 139 stumps on a 24 px window', () => {
    const parsed = parseFaceModel(model);
    expect(parsed).not.toBeNull();
    expect(parsed?.windowWidth).toBe(24);
    expect(parsed?.windowHeight).toBe(24);
    expect(parsed?.stageCounts.length).toBe(20);
    expect(parsed?.features.length).toBe(136 * 4);
    expect(parsed?.weakFeatures.length).toBe(139);
  });

  it('rejects what the crate rejects: every truncation, a byte too many, a wrong magic or version, a bad index, a feature past the window, a leaf not a number', () => {
    for (let length = 0; length < model.length; length++) expect(parseFaceModel(model.subarray(0, length)), `truncated to ${length}`).toBeNull();
    const changed = (edit: (bytes: Uint8Array, view: DataView) => void): Uint8Array => {
      const bytes = model.slice();
      edit(bytes, new DataView(bytes.buffer));
      return bytes;
    };
    const weakAt = model.length - 139 * 42;
    expect(parseFaceModel(Uint8Array.from([...model, 0]))).toBeNull();
    expect(parseFaceModel(changed((bytes) => (bytes[3] = 0x58)))).toBeNull();
    expect(parseFaceModel(changed((bytes) => (bytes[4] = 2)))).toBeNull();
    expect(parseFaceModel(changed((_, view) => view.setUint16(weakAt, 136, true)))).toBeNull();
    expect(parseFaceModel(changed((bytes) => (bytes[12] = 24)))).toBeNull();
    expect(parseFaceModel(changed((_, view) => view.setFloat32(weakAt + 34, Number.NaN, true)))).toBeNull();
    expect(parseFaceModel(changed((_, view) => view.setFloat32(weakAt + 34, 0.5, true)))).not.toBeNull();
  });

  it('leaves no model in use after malformed bytes: nobody is looked for', () => {
    const analyser = new JsAnalyser({ width: 160, height: 120, ios: false, sleeper: false });
    expect(analyser.loadFaceModel(model.subarray(1))).toBe(false);
    analyser.frameBuffer().fill(128);
    expect(analyser.process(0)).toMatchObject({ faceDetector: false, face: null, noFaceMs: 0 });
  });
});

/** The analysers of one clip: JavaScript first, then wasm-simd and wasm-scalar, each with the model loaded. */
function analysersFor(width: number, height: number, ios: boolean): FrameAnalyser[] {
  const options = { width, height, ios, sleeper: false };
  const js = new JsAnalyser(options);
  const wasm = [new Analyser(builds.simd, options), new Analyser(builds.scalar, options)];
  expect([js.loadFaceModel(model), ...wasm.map((analyser) => analyser.loadFaceModel(model))]).toEqual([true, true, true]);
  return [js, ...wasm];
}

/** What the face and the rules decide in a result. */
function judged(result: FrameResult): Partial<FrameResult> {
  const { faceDetector, face, noFaceMs, noddingCount, lowMotionMs, darkMs, events } = result;
  return { faceDetector, face, noFaceMs, noddingCount, lowMotionMs, darkMs, events };
}

/**
 * Runs seconds `from` to `to` of a clip, every `every` s, through the three
 * pipelines; returns the JavaScript results and every frame where a wasm
 * build judged otherwise.
 */
function runClip(name: string, from: number, to: number, every: number): { results: FrameResult[]; mismatches: string[] } {
  const clip = CLIPS.find((entry) => entry.name === name);
  if (clip === undefined) throw new Error(`no clip ${name}`);
  const plan = planClip(clip);
  const renderer = new FootageRenderer(clip, images);
  const analysers = analysersFor(clip.width, clip.height, clip.ios);
  const frame = new Uint8ClampedArray(clip.width * clip.height * 4);
  const results: FrameResult[] = [];
  const mismatches: string[] = [];
  try {
    for (let second = from; second < Math.min(to, plan.poses.length); second += every) {
      renderer.render(second, plan.poses[second], frame);
      const [js, ...wasm] = analysers.map((analyser) => {
        analyser.frameBuffer().set(frame);
        return analyser.process(second * 1000);
      });
      const expected = JSON.stringify(judged(js));
      for (const [index, other] of wasm.entries()) {
        const actual = JSON.stringify(judged(other));
        if (actual !== expected) mismatches.push(`${name} ${second} s: js ${expected}, wasm-${index === 0 ? 'simd' : 'scalar'} ${actual}`);
      }
      results.push(js);
    }
  } finally {
    for (const analyser of analysers) analyser.dispose();
  }
  return { results, mismatches };
}

describe('the JavaScript fallback judges real footage as the wasm builds do', { timeout: 180_000 }, () => {
  it('finds the same face, every 20th second, near and far, dim and bright, turned aside, and on a phone', () => {
    const mismatches: string[] = [];
    let faces = 0;
    let frames = 0;
    // Clips on photographs (a video background is slow to decode), at 160x120, 640x480 and 480x640.
    for (const name of ['typing-desk', 'video-call', 'second-screen', 'dim-room', 'bright-room', 'near-far', 'iphone', 'iphone-portrait']) {
      const run = runClip(name, 0, Number.POSITIVE_INFINITY, 20);
      mismatches.push(...run.mismatches);
      frames += run.results.length;
      faces += run.results.filter((result) => result.face !== null).length;
    }
    expect(mismatches.slice(0, 10)).toEqual([]);
    // The footage is mostly a person at the desk: the faces were there to be found.
    expect(frames).toBeGreaterThan(200);
    expect(faces / frames).toBeGreaterThan(0.7);
  });

  it('raises the same away, back, nodding and darkness, second by second', () => {
    const leaves = runClip('leaves', 300, 600, 1);
    const dozes = runClip('dozes', 100, 200, 1);
    const dim = runClip('dim-room', 0, 60, 1);
    expect([...leaves.mismatches, ...dozes.mismatches, ...dim.mismatches].slice(0, 10)).toEqual([]);
    const fired = (results: FrameResult[], event: keyof FrameResult['events']) => results.filter((result) => result.events[event]).length;
    // The seat empty for 240 s: away, then back; the doze: nodding; a dim room, dark by its mean luma for 30 s and more, with the face plain to see: no darkness.
    expect([fired(leaves.results, 'away'), fired(leaves.results, 'back')]).toEqual([1, 1]);
    expect(fired(dozes.results, 'nodding')).toBe(1);
    expect(fired(dim.results, 'darkness')).toBe(0);
    expect(dim.results.filter((result) => result.dark).length).toBeGreaterThanOrEqual(30);
  });
});

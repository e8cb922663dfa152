/**
 * `npm run bench:face`: what the face detector (docs/vision.md, "Face") adds
 * to a frame, in both wasm builds and the JavaScript fallback, on real photos brought to the camera's
 * sizes, 160x120 and 640x480 (searched box-filtered to 160x120). Detection
 * runs inside `process()` once a face model is loaded, so its cost is the
 * median `process()` of an analyser with the model minus that of one without,
 * on the same frame, the two timed in turn.
 *
 * The photos are OpenCV's documentation images (Debian's opencv-doc), which
 * `bench/footage/fetch.ts` fetches into the footage cache:
 *   npm run bench:face -- [--runs <n>]
 */

import { spawnSync } from 'node:child_process';
import { Analyser, type AnalyserOptions, type FrameAnalyser } from '../src/client/vision/analyser';
import { JsAnalyser } from '../src/client/vision/js-analyser';
import { loadFaceModelBytes, loadVisionWasm } from '../src/client/vision/load-node';
import { fetchFootage } from './footage/fetch';
import type { SourceId } from './footage/sources';
import { median } from './steps';

/** One face large (face-swapped), four to a picture (facereg), and none large enough (lecture-hall). */
const PHOTOS: SourceId[] = ['face-swapped', 'facereg', 'lecture-hall'];
const SIZES = [
  { width: 160, height: 120 },
  { width: 640, height: 480 },
];
/** Runs not timed before each measurement. */
const WARM_UP_RUNS = 50;
/** At most 1 ms a frame at 160x120 in wasm-simd. */
const TARGET_US = 1000;

function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(name);
  return at >= 0 && at + 1 < process.argv.length ? process.argv[at + 1] : fallback;
}

/** The photo as RGBA, scaled to cover the size and cropped to it. */
function rgba(path: string, width: number, height: number): Uint8Array {
  const filter = `scale=${width}:${height}:force_original_aspect_ratio=increase,crop=${width}:${height}`;
  const args = ['-loglevel', 'error', '-i', path, '-vf', filter, '-f', 'rawvideo', '-pix_fmt', 'rgba', '-'];
  const result = spawnSync('ffmpeg', args, { maxBuffer: width * height * 4 + 1024 });
  if (result.status !== 0 || result.stdout.length !== width * height * 4) {
    throw new Error(`ffmpeg could not read ${path}: ${result.stderr?.toString() ?? result.error?.message}`);
  }
  return new Uint8Array(result.stdout);
}

/** An implementation of the pipeline that takes the face model. */
interface Build {
  name: string;
  make(options: AnalyserOptions): FrameAnalyser & { loadFaceModel(bytes: Uint8Array): boolean };
}

/** Microseconds of one `process()` of each analyser, run in turn on the same frame: medians of `runs`. */
function timeProcess(analysers: FrameAnalyser[], runs: number): number[] {
  const times = analysers.map(() => [] as number[]);
  for (let run = 0; run < runs; run++) {
    analysers.forEach((analyser, index) => {
      const start = performance.now();
      analyser.process(run * 1000);
      times[index].push((performance.now() - start) * 1000);
    });
  }
  return times.map(median);
}

async function main(): Promise<void> {
  const runs = Number(option('--runs', '200'));
  const footage = fetchFootage();
  const model = await loadFaceModelBytes();
  const [simd, scalar] = [await loadVisionWasm('simd'), await loadVisionWasm('scalar')];
  const builds: Build[] = [
    { name: 'wasm-simd', make: (options) => new Analyser(simd, options) },
    { name: 'wasm-scalar', make: (options) => new Analyser(scalar, options) },
    { name: 'js', make: (options) => new JsAnalyser(options) },
  ];
  console.log(`face detection: process() with the face model minus without, median of ${runs} runs each`);
  console.log(`(target: at most ${TARGET_US} µs a frame at 160x120 in wasm-simd)\n`);
  for (const { width, height } of SIZES) {
    for (const id of PHOTOS) {
      const path = footage.get(id);
      if (path === undefined) throw new Error(`no footage ${id}`);
      const frame = rgba(path, width, height);
      const cells: string[] = [];
      let found = '';
      for (const build of builds) {
        const options = { width, height, ios: false, sleeper: false };
        const [withModel, without] = [build.make(options), build.make(options)];
        try {
          if (!withModel.loadFaceModel(model)) throw new Error(`${build.name} did not take the face model`);
          withModel.frameBuffer().set(frame);
          without.frameBuffer().set(frame);
          const face = withModel.process(0).face;
          const seen =
            face === null ? 'no face' : `face at ${(face.x * width).toFixed(0)},${(face.y * height).toFixed(0)} side ${(face.size * width).toFixed(0)}`;
          // Every build finds the same face (src/client/vision/js-face.test.ts); say so if not.
          found = found === '' || found === seen ? seen : `${found}; ${build.name}: ${seen}`;
          // Untimed runs first: V8 compiles wasm in a baseline tier and
          // optimises hot functions later, which would count against the first photo.
          timeProcess([withModel, without], WARM_UP_RUNS);
          const [us, baseUs] = timeProcess([withModel, without], runs);
          const detection = us - baseUs;
          const verdict = build.name === 'js' ? 'no target' : width === 160 ? (detection <= TARGET_US ? 'target held' : 'target missed') : `target at 160x120`;
          cells.push(
            `${build.name} ${detection.toFixed(0).padStart(5)} µs (of ${us.toFixed(0)}; ${build.name === 'js' ? verdict : `${TARGET_US} µs ${verdict}`})`,
          );
        } finally {
          withModel.dispose();
          without.dispose();
        }
      }
      console.log(`${`${width}x${height}`.padEnd(8)} ${id.padEnd(13)} ${cells.join('  ')}  ${found}`);
    }
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});

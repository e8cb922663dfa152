/**
 * `npm run bench:face`: the face detector (docs/vision.md, "Face") in both
 * wasm builds, on real photos brought to the camera's sizes, 160x120 and
 * 640x480 (searched box-filtered to 160x120): median microseconds of one
 * `vision_detect_face` on a processed frame, and the face found.
 *
 * The photos are OpenCV's documentation images (Debian's opencv-doc):
 *   npm run bench:face -- [--photos <dir>] [--runs <n>]
 */

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Analyser, type FaceInFrame, type VisionExports } from '../src/client/vision/analyser';
import { loadFaceModelBytes, loadVisionWasm, type WasmFlavour } from '../src/client/vision/load-node';
import { median } from './steps';

const DEFAULT_PHOTOS = '/usr/share/doc/opencv-doc/opencv4/html';
/** One face each, large (face_swapped) or four to a picture (facereg), and none large enough (studentsSample). */
const PHOTOS = ['face_swapped.jpg', 'facereg.jpg', 'studentsSample_input.jpg'];
const SIZES = [
  { width: 160, height: 120 },
  { width: 640, height: 480 },
];
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

function describe(face: FaceInFrame | null): string {
  return face === null ? 'no face' : `face at ${face.x.toFixed(0)},${face.y.toFixed(0)} side ${face.size.toFixed(0)}`;
}

async function main(): Promise<void> {
  const dir = option('--photos', DEFAULT_PHOTOS);
  const runs = Number(option('--runs', '200'));
  const photos = PHOTOS.map((name) => join(dir, name));
  const missing = photos.filter((path) => !existsSync(path));
  if (missing.length > 0) throw new Error(`missing ${missing.join(', ')}: install opencv-doc or pass --photos <dir>`);
  const model = await loadFaceModelBytes();
  const builds: [WasmFlavour, VisionExports][] = [
    ['simd', await loadVisionWasm('simd')],
    ['scalar', await loadVisionWasm('scalar')],
  ];
  console.log(`face detection, median of ${runs} runs (target at 160x120 in wasm-simd: at most ${TARGET_US} µs)\n`);
  for (const { width, height } of SIZES) {
    for (const photo of photos) {
      const frame = rgba(photo, width, height);
      const cells: string[] = [];
      let found = '';
      for (const [flavour, exports] of builds) {
        const analyser = new Analyser(exports, { width, height, ios: false, sleeper: false });
        try {
          if (!analyser.loadFaceModel(model)) throw new Error(`wasm-${flavour} did not take the face model`);
          analyser.frameBuffer().set(frame);
          analyser.process(0);
          found = describe(analyser.detectFace());
          const times: number[] = [];
          for (let run = 0; run < runs; run++) {
            const start = performance.now();
            analyser.detectFace();
            times.push((performance.now() - start) * 1000);
          }
          const us = median(times);
          const verdict = flavour === 'simd' && width === 160 ? (us <= TARGET_US ? ' (target held)' : ' (target missed)') : '';
          cells.push(`wasm-${flavour} ${us.toFixed(0).padStart(6)} µs${verdict}`);
        } finally {
          analyser.dispose();
        }
      }
      console.log(`${`${width}x${height}`.padEnd(8)} ${photo.split('/').pop()?.padEnd(26)} ${cells.join('  ')}  ${found}`);
    }
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});

/**
 * Writes small YUV4MPEG2 (.y4m) videos for Chromium's fake camera
 * (`--use-file-for-fake-video-capture`). Chromium loops the file at its
 * frame rate, so a sampler that takes a frame a second sees frames of a loop
 * whose length is not a whole number of seconds: consecutive samples of the
 * moving video always differ.
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { seededRandom } from '../bench/frames.ts';

export interface Y4mOptions {
  width: number;
  height: number;
  frames: number;
  fps: number;
  /** Luma of pixel (x, y) in frame `frame`, 0 to 255. */
  luma(x: number, y: number, frame: number): number;
  /** Chroma (Cb, Cr) of the 2x2 block at (x, y) (full-size coordinates); 128 is grey. */
  chroma?(x: number, y: number, frame: number): [number, number];
}

/** Encodes the frames as 4:2:0 YUV4MPEG2 (C420jpeg). */
export function encodeY4m(options: Y4mOptions): Buffer {
  const { width, height, frames, fps } = options;
  if (width % 2 !== 0 || height % 2 !== 0) throw new RangeError('y4m 4:2:0 needs even sizes');
  const header = Buffer.from(`YUV4MPEG2 W${width} H${height} F${fps}:1 Ip A1:1 C420jpeg\n`, 'ascii');
  const frameHeader = Buffer.from('FRAME\n', 'ascii');
  const lumaBytes = width * height;
  const chromaBytes = (width / 2) * (height / 2);
  const frameBytes = frameHeader.length + lumaBytes + 2 * chromaBytes;
  const out = Buffer.alloc(header.length + frames * frameBytes);
  header.copy(out, 0);
  let offset = header.length;
  for (let frame = 0; frame < frames; frame++) {
    frameHeader.copy(out, offset);
    offset += frameHeader.length;
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        out[offset++] = clamp(options.luma(x, y, frame));
      }
    }
    const cbStart = offset;
    const crStart = offset + chromaBytes;
    for (let y = 0; y < height; y += 2) {
      for (let x = 0; x < width; x += 2) {
        const [cb, cr] = options.chroma ? options.chroma(x, y, frame) : [128, 128];
        const index = (y / 2) * (width / 2) + x / 2;
        out[cbStart + index] = clamp(cb);
        out[crStart + index] = clamp(cr);
      }
    }
    offset = crStart + chromaBytes;
  }
  return out;
}

function clamp(value: number): number {
  return Math.max(0, Math.min(255, Math.round(value)));
}

/** A lit, textured room: a soft diagonal gradient with a coarse checker on it. */
function room(x: number, y: number): number {
  const checker = ((x >> 3) + (y >> 3)) % 2 === 0 ? 18 : -18;
  return 110 + (x + y) * 0.25 + checker;
}

/** Where the moving shape's top-left corner is in `frame`: it bounces along a diagonal. */
function shapeAt(frame: number, frames: number, width: number, height: number, size: number) {
  const phase = frame / frames; // 0..1 over the loop
  const tri = phase < 0.5 ? phase * 2 : 2 - phase * 2; // 0 → 1 → 0
  return {
    left: Math.round(tri * (width - size)),
    top: Math.round((height - size) / 2 + Math.sin(phase * 2 * Math.PI) * (height - size) * 0.4),
  };
}

/**
 * A textured scene with a dark-red square of `size` px crossing it and back.
 * 37 frames at 10 fps loop every 3.7 s, so samples a second apart never land
 * on the same frame.
 */
export function movingVideo(width = 160, height = 120, frames = 37, fps = 10): Buffer {
  const size = Math.round(Math.min(width, height) / 3);
  return encodeY4m({
    width,
    height,
    frames,
    fps,
    luma(x, y, frame) {
      const { left, top } = shapeAt(frame, frames, width, height, size);
      const inside = x >= left && x < left + size && y >= top && y < top + size;
      return inside ? 40 : room(x, y);
    },
    chroma(x, y, frame) {
      const { left, top } = shapeAt(frame, frames, width, height, size);
      const inside = x >= left && x < left + size && y >= top && y < top + size;
      return inside ? [110, 200] : [120, 134];
    },
  });
}

/**
 * The same textured scene with the square standing still: identical frames,
 * or, given `sensorNoiseSeed`, the scene as a real camera films it: every
 * pixel's luma in every frame moved by sensor noise of -1, 0 or +1 (a
 * quarter, a half and a quarter of the time, from a seeded generator), so
 * that no two frames are the same while their motion score (the mean
 * absolute luma difference, docs/vision.md) stays near 0.75, under the
 * no-motion threshold.
 */
export function stillVideo({ sensorNoiseSeed }: { sensorNoiseSeed?: number } = {}, width = 160, height = 120, frames = 24, fps = 10): Buffer {
  const size = Math.round(Math.min(width, height) / 3);
  const left = Math.round((width - size) / 2);
  const top = Math.round((height - size) / 2);
  const inside = (x: number, y: number) => x >= left && x < left + size && y >= top && y < top + size;
  const random = sensorNoiseSeed === undefined ? null : seededRandom(sensorNoiseSeed);
  // Frames are encoded in order, pixel by pixel: each draw is the next pixel's noise.
  const noise = () => {
    if (random === null) return 0;
    const bits = random();
    return (bits & 1) + ((bits >>> 1) & 1) - 1;
  };
  return encodeY4m({
    width,
    height,
    frames,
    fps,
    luma(x, y) {
      return (inside(x, y) ? 40 : room(x, y)) + noise();
    },
    chroma(x, y) {
      return inside(x, y) ? [110, 200] : [120, 134];
    },
  });
}

/** Writes `data` to `path` atomically (a parallel reader never sees half a file). */
export function writeFileAtomic(path: string, data: Buffer): string {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, data);
  renameSync(temporary, path);
  return path;
}

/** A covered lens: every pixel's luma 10, below both the dark (40) and the black (16) levels. */
export function darkVideo(width = 160, height = 120, frames = 12, fps = 10): Buffer {
  return encodeY4m({ width, height, frames, fps, luma: () => 10 });
}

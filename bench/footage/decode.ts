/**
 * Decoding the footage with ffmpeg (Debian's `ffmpeg` package): a photograph
 * or a video's frames, cropped and scaled, as RGBA.
 */

import { execFileSync } from 'node:child_process';

export interface RgbaImage {
  width: number;
  height: number;
  /** `width * height * 4` bytes. */
  data: Uint8ClampedArray<ArrayBuffer>;
}

/** A rectangle in source pixels. */
export interface Region {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The largest rectangle of `region`'s centre with the aspect of `width` x `height`. */
export function fitAspect(region: Region, width: number, height: number): Region {
  const aspect = width / height;
  if (region.width / region.height > aspect) {
    const fitted = Math.round(region.height * aspect);
    return { x: region.x + Math.floor((region.width - fitted) / 2), y: region.y, width: fitted, height: region.height };
  }
  const fitted = Math.round(region.width / aspect);
  return { x: region.x, y: region.y + Math.floor((region.height - fitted) / 2), width: region.width, height: fitted };
}

function ffmpeg(args: readonly string[], bytes: number): Buffer {
  try {
    return execFileSync('ffmpeg', ['-v', 'error', ...args, '-f', 'rawvideo', '-pix_fmt', 'rgba', '-'], {
      maxBuffer: bytes + 1024,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') {
      throw new Error('ffmpeg is missing: install it with `apt-get install -y ffmpeg`');
    }
    throw error;
  }
}

function rgba(buffer: Buffer, width: number, height: number): RgbaImage {
  const data = new Uint8ClampedArray(width * height * 4);
  data.set(buffer.subarray(0, data.length));
  return { width, height, data };
}

/** A still image at its own size. */
export function decodeImage(path: string, width: number, height: number): RgbaImage {
  const buffer = ffmpeg(['-i', path, '-frames:v', '1'], width * height * 4);
  if (buffer.length !== width * height * 4) throw new Error(`${path}: decoded ${buffer.length} bytes, expected ${width}x${height} RGBA`);
  return rgba(buffer, width, height);
}

function cropScale(region: Region, width: number, height: number): string {
  return `crop=${region.width}:${region.height}:${region.x}:${region.y},scale=${width}:${height}:flags=area`;
}

/** `region` of a still image, scaled (area averaging) to `width` x `height`. */
export function decodeRegion(path: string, region: Region, width: number, height: number): RgbaImage {
  const buffer = ffmpeg(['-i', path, '-frames:v', '1', '-vf', cropScale(region, width, height)], width * height * 4);
  return rgba(buffer, width, height);
}

/**
 * One frame a second of a video from `offsetS` on (the frame shown at
 * `offsetS`, `offsetS + 1`, …), `region` of it scaled to `width` x `height`.
 */
export function decodeVideo(path: string, offsetS: number, region: Region, width: number, height: number): RgbaImage[] {
  const frameBytes = width * height * 4;
  const buffer = ffmpeg(['-ss', offsetS.toFixed(3), '-i', path, '-vf', `fps=1:round=down,${cropScale(region, width, height)}`], 2000 * frameBytes);
  const frames: RgbaImage[] = [];
  for (let at = 0; at + frameBytes <= buffer.length; at += frameBytes) frames.push(rgba(buffer.subarray(at, at + frameBytes), width, height));
  return frames;
}

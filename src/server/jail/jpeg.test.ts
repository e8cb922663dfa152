import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { jpegDataUrlSize } from './jpeg.ts';

// Baseline JPEGs drawn on a canvas and encoded by Chromium (toDataURL('image/jpeg', 0.7)),
// and the first made progressive (SOF2) by jpegtran.
const FIXTURES = [
  { file: 'canvas-100x75.jpg', width: 100, height: 75 },
  { file: 'canvas-75x100.jpg', width: 75, height: 100 },
  { file: 'canvas-40x30.jpg', width: 40, height: 30 },
  { file: 'canvas-640x480.jpg', width: 640, height: 480 },
  { file: 'progressive-100x75.jpg', width: 100, height: 75 },
];

const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const START_OF_IMAGE = [0xff, 0xd8];

function fixture(file: string): Buffer {
  return readFileSync(new URL(`./fixtures/${file}`, import.meta.url));
}

function dataUrl(bytes: Uint8Array | number[]): string {
  return `data:image/jpeg;base64,${Buffer.from(bytes).toString('base64')}`;
}

/** A marker segment whose payload looks like a frame header of 0x1122 x 0x3344, to catch reading the wrong segment. */
function decoySegment(marker: number): number[] {
  return [0xff, marker, 0x00, 0x08, 0x08, 0x11, 0x22, 0x33, 0x44, 0x03];
}

/** Where the frame header (SOF) of a fixture starts. */
function frameHeaderOffset(jpeg: Buffer): number {
  let offset = 2;
  while (jpeg[offset + 1] !== 0xc0 && jpeg[offset + 1] !== 0xc2) offset += 2 + jpeg.readUInt16BE(offset + 2);
  return offset;
}

describe('jpegDataUrlSize', () => {
  it.each(FIXTURES)('reads $width x $height from $file', ({ file, width, height }) => {
    const jpeg = fixture(file);
    expect(jpegDataUrlSize(dataUrl(jpeg))).toEqual({ ok: true, width, height, bytes: jpeg.length });
  });

  it('skips standalone markers, fill bytes, and the DHT, JPG and DAC segments that share the frame range', () => {
    const jpeg = fixture('canvas-40x30.jpg');
    const withExtras = [
      ...START_OF_IMAGE,
      0xff,
      0xd0, // a restart marker, standalone
      0xff,
      0x01, // TEM, standalone
      ...decoySegment(0xc4),
      ...decoySegment(0xc8),
      ...decoySegment(0xcc),
      0xff,
      0xff, // fill bytes before the fixture's own first marker
      ...jpeg.subarray(2),
    ];
    expect(jpegDataUrlSize(dataUrl(withExtras))).toMatchObject({ ok: true, width: 40, height: 30 });
  });

  it('refuses what is not a JPEG data URL', () => {
    expect(jpegDataUrlSize(`data:image/png;base64,${PNG_1X1}`)).toEqual({ ok: false, error: 'not_jpeg_data_url' });
    expect(jpegDataUrlSize('')).toEqual({ ok: false, error: 'not_jpeg_data_url' });
    expect(jpegDataUrlSize('hello')).toEqual({ ok: false, error: 'not_jpeg_data_url' });
    expect(jpegDataUrlSize('DATA:IMAGE/JPEG;BASE64,/9j/')).toEqual({ ok: false, error: 'not_jpeg_data_url' });
    expect(jpegDataUrlSize('data:image/jpeg;base64,/9j/4AAQ SkZJRg==')).toEqual({ ok: false, error: 'not_jpeg_data_url' });
    expect(jpegDataUrlSize('data:image/jpeg;base64,/9j_-AAQ')).toEqual({ ok: false, error: 'not_jpeg_data_url' });
  });

  it('refuses bytes that are not a JPEG', () => {
    expect(jpegDataUrlSize(`data:image/jpeg;base64,${PNG_1X1}`)).toEqual({ ok: false, error: 'not_jpeg' });
    expect(jpegDataUrlSize('data:image/jpeg;base64,')).toEqual({ ok: false, error: 'not_jpeg' });
    expect(jpegDataUrlSize(dataUrl(Buffer.from('garbage, not an image at all')))).toEqual({ ok: false, error: 'not_jpeg' });
    // A JPEG start followed by bytes that are no marker.
    expect(jpegDataUrlSize(dataUrl([...START_OF_IMAGE, 0x12, 0x34, 0x56]))).toEqual({ ok: false, error: 'not_jpeg' });
    // A segment length shorter than the length field itself.
    expect(jpegDataUrlSize(dataUrl([...START_OF_IMAGE, 0xff, 0xe0, 0x00, 0x01]))).toEqual({ ok: false, error: 'not_jpeg' });
  });

  it('says truncated when the frame header is cut off', () => {
    const jpeg = fixture('canvas-100x75.jpg');
    const frame = frameHeaderOffset(jpeg);
    for (const cut of [2, frame - 10, frame, frame + 1, frame + 3, frame + 6, frame + 8]) {
      expect(jpegDataUrlSize(dataUrl(jpeg.subarray(0, cut))), `cut at ${cut}`).toEqual({ ok: false, error: 'truncated' });
    }
    expect(jpegDataUrlSize(dataUrl(jpeg.subarray(0, frame + 9)))).toMatchObject({ ok: true, width: 100, height: 75 });
  });

  it('says no_size when the scan or the end comes before any frame header, or the header declares no size', () => {
    expect(jpegDataUrlSize(dataUrl([...START_OF_IMAGE, 0xff, 0xda, 0x00, 0x08]))).toEqual({ ok: false, error: 'no_size' });
    expect(jpegDataUrlSize(dataUrl([...START_OF_IMAGE, ...decoySegment(0xc4), 0xff, 0xd9]))).toEqual({ ok: false, error: 'no_size' });
    const zeroHeight = [...START_OF_IMAGE, 0xff, 0xc0, 0x00, 0x0b, 0x08, 0x00, 0x00, 0x00, 0x64, 0x01, 0x01, 0x11, 0x00];
    expect(jpegDataUrlSize(dataUrl(zeroHeight))).toEqual({ ok: false, error: 'no_size' });
  });

  it('never throws, on random strings and on mutated fixtures', () => {
    // A seeded generator (mulberry32), so that a failure can be replayed.
    let seed = 0x5eed;
    const random = (): number => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
    };
    const below = (limit: number): number => Math.floor(random() * limit);
    const fixtures = FIXTURES.map(({ file }) => fixture(file));
    const alphabet = 'data:image/jpeg;base64,ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=ÿ\u0000 \n';

    for (let round = 0; round < 3_000; round += 1) {
      const inputs: string[] = [];
      inputs.push(Array.from({ length: below(64) }, () => alphabet[below(alphabet.length)]).join(''));
      inputs.push(dataUrl(Array.from({ length: below(64) }, () => below(256))));
      // Mostly marker-like bytes, to walk the segment loop rather than stop at once.
      const markerish = Array.from({ length: below(64) }, () => [0xff, 0xc0, 0xda, 0x00, below(256)][below(5)] ?? 0);
      inputs.push(dataUrl([...START_OF_IMAGE, ...markerish]));
      const mutated = Buffer.from(fixtures[below(fixtures.length)] ?? []);
      for (let flips = below(8); flips > 0; flips -= 1) mutated[below(Math.min(mutated.length, 700))] = below(256);
      inputs.push(dataUrl(mutated.subarray(0, below(mutated.length + 1))));
      for (const input of inputs) {
        const result = jpegDataUrlSize(input);
        if (result.ok) {
          expect(result.width).toBeGreaterThan(0);
          expect(result.height).toBeGreaterThan(0);
        } else {
          expect(['not_jpeg_data_url', 'not_jpeg', 'no_size', 'truncated']).toContain(result.error);
        }
      }
    }
  });
});

/**
 * Reads the pixel size a JPEG declares in its frame header, so that a patrol
 * image can be refused by its size without decoding it (docs/jail.md).
 */

export type JpegSizeError = 'not_jpeg_data_url' | 'not_jpeg' | 'no_size' | 'truncated';

const DATA_URL_PREFIX = 'data:image/jpeg;base64,';
// Buffer.from skips characters that are not base64; refuse them instead.
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

const MARKER_PREFIX = 0xff;
const START_OF_IMAGE = 0xd8;
const START_OF_SCAN = 0xda;
const END_OF_IMAGE = 0xd9;
/** TEM (0x01) and the restart markers RST0-RST7 stand alone, with no length. */
const STANDALONE_MARKERS = new Set([0x01, 0xd0, 0xd1, 0xd2, 0xd3, 0xd4, 0xd5, 0xd6, 0xd7]);
/** Start-of-frame markers: C0-CF but DHT (C4), JPG (C8) and DAC (CC), which share the range. */
const START_OF_FRAME_MARKERS = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);
/** A frame header: length (2), precision (1), height (2), width (2), then the components. */
const FRAME_HEADER_SIZE_BYTES = 7;

/** The width and height a JPEG data URL's header declares, or an error naming what is wrong. */
export function jpegDataUrlSize(dataUrl: string): { ok: true; width: number; height: number; bytes: number } | { ok: false; error: JpegSizeError } {
  const failed = (error: JpegSizeError) => ({ ok: false, error }) as const;
  if (!dataUrl.startsWith(DATA_URL_PREFIX)) return failed('not_jpeg_data_url');
  const base64 = dataUrl.slice(DATA_URL_PREFIX.length);
  if (!BASE64.test(base64)) return failed('not_jpeg_data_url');
  const jpeg = Buffer.from(base64, 'base64');
  if (jpeg.length < 2 || jpeg[0] !== MARKER_PREFIX || jpeg[1] !== START_OF_IMAGE) return failed('not_jpeg');

  let offset = 2;
  for (;;) {
    if (offset >= jpeg.length) return failed('truncated');
    if (jpeg[offset] !== MARKER_PREFIX) return failed('not_jpeg');
    while (jpeg[offset] === MARKER_PREFIX) offset += 1; // fill bytes before the marker
    if (offset >= jpeg.length) return failed('truncated');
    const marker = jpeg[offset];
    offset += 1;
    if (STANDALONE_MARKERS.has(marker)) continue;
    if (marker === START_OF_SCAN || marker === END_OF_IMAGE) return failed('no_size');
    if (marker === 0x00 || marker === START_OF_IMAGE) return failed('not_jpeg');

    if (offset + 2 > jpeg.length) return failed('truncated');
    const segmentLength = jpeg.readUInt16BE(offset); // counts its own two bytes
    if (segmentLength < 2) return failed('not_jpeg');
    if (START_OF_FRAME_MARKERS.has(marker)) {
      if (segmentLength < FRAME_HEADER_SIZE_BYTES) return failed('not_jpeg');
      if (offset + FRAME_HEADER_SIZE_BYTES > jpeg.length) return failed('truncated');
      const height = jpeg.readUInt16BE(offset + 3);
      const width = jpeg.readUInt16BE(offset + 5);
      // A height of 0 defers it to a later DNL segment; no patrol image needs that.
      if (width === 0 || height === 0) return failed('no_size');
      return { ok: true, width, height, bytes: jpeg.length };
    }
    offset += segmentLength;
  }
}

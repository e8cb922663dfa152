/**
 * Draws a clip's frames: a real person cut out of a photograph (a soft
 * outline around the head and shoulders) over a real background, at the
 * plan's pose, with hands of real skin texture, the real glass, a slowly
 * drifting exposure and sensor noise. Seeded: the same clip gives the same
 * frames. One renderer reuses its buffers from frame to frame.
 */

import { seededRandom } from '../frames.ts';
import { decodeImage, decodeRegion, decodeVideo, fitAspect, type Region, type RgbaImage } from './decode.ts';
import { BACKGROUNDS, GLASS, PEOPLE, type Person } from './scenes.ts';
import type { Clip, Pose } from './script.ts';
import { SOURCES, type SourceId } from './sources.ts';

const FEATHER = 0.08;
/** Exposure drift: two slow waves, at most ±4.5 %. */
const DRIFT = [
  { amplitude: 0.03, periodS: 131 },
  { amplitude: 0.015, periodS: 41 },
];

/** Set bits of each byte: eight fair coins, a binomial noise of sigma sqrt(2) once 4 is taken off. */
const POPCOUNT = Uint8Array.from({ length: 256 }, (_, byte) => {
  let bits = 0;
  for (let value = byte; value > 0; value >>= 1) bits += value & 1;
  return bits;
});

/** Decoded photographs, shared by every renderer of a run. */
export class FootageImages {
  private readonly images = new Map<SourceId, RgbaImage>();

  constructor(readonly paths: ReadonlyMap<SourceId, string>) {}

  path(id: SourceId): string {
    const path = this.paths.get(id);
    if (path === undefined) throw new Error(`footage source ${id} was not fetched`);
    return path;
  }

  image(id: SourceId): RgbaImage {
    let image = this.images.get(id);
    if (image === undefined) {
      const source = SOURCES.find((entry) => entry.id === id);
      if (source === undefined) throw new Error(`no footage source ${id}`);
      image = decodeImage(this.path(id), source.width, source.height);
      this.images.set(id, image);
    }
    return image;
  }
}

/** Bilinear sample of channel `c` at (x, y) (pixel centres at half-integers); the caller keeps (x, y) inside. */
function sample(image: RgbaImage, x: number, y: number, out: Float64Array): void {
  const fx = Math.max(0, Math.min(image.width - 1.001, x - 0.5));
  const fy = Math.max(0, Math.min(image.height - 1.001, y - 0.5));
  const x0 = Math.floor(fx);
  const y0 = Math.floor(fy);
  const ax = fx - x0;
  const ay = fy - y0;
  const row = image.width * 4;
  const p = y0 * row + x0 * 4;
  const data = image.data;
  for (let c = 0; c < 3; c++) {
    const top = data[p + c] * (1 - ax) + data[p + 4 + c] * ax;
    const bottom = data[p + row + c] * (1 - ax) + data[p + row + 4 + c] * ax;
    out[c] = top * (1 - ay) + bottom * ay;
  }
}

function feather(distance: number): number {
  return Math.max(0, Math.min(1, (1 - distance) / FEATHER));
}

export class FootageRenderer {
  readonly width: number;
  readonly height: number;
  private readonly scene: Uint8ClampedArray<ArrayBuffer>;
  private readonly colour = new Float64Array(3);
  private readonly random: () => number;
  private readonly lut = new Uint8ClampedArray(256);
  private readonly person: Person | null;
  private still: RgbaImage | null = null;
  private video: { frames: RgbaImage[]; start: number; pass: number } | null = null;
  private gain = 1;
  private readonly phase: number;

  constructor(
    private readonly clip: Clip,
    private readonly images: FootageImages,
  ) {
    this.width = clip.width;
    this.height = clip.height;
    this.scene = new Uint8ClampedArray(clip.width * clip.height * 4);
    const next = seededRandom(clip.seed ^ 0x5eed);
    this.random = next;
    this.phase = (next() / 2 ** 32) * Math.PI * 2;
    this.person = clip.person === null ? null : PEOPLE[clip.person];
  }

  /** Draws the frame of `second` at `pose` into `out` (RGBA, opaque). Seconds must come in order from 0. */
  render(second: number, pose: Pose, out: Uint8ClampedArray): void {
    this.scene.set(this.background(second).data);
    if (this.person !== null && pose.face !== null) {
      this.drawPerson(this.person, pose);
      if (pose.hands !== null) {
        this.drawHand(this.person, pose.hands.left, pose.face.side);
        if (pose.hands.right !== null) this.drawHand(this.person, pose.hands.right, pose.face.side);
      }
      if (pose.glass > 0) this.drawGlass(pose);
    }
    if (second === 0) this.gain = this.clip.luma === undefined ? 1 : this.clip.luma / meanLuma(this.scene);
    this.expose(second, out);
  }

  private background(second: number): RgbaImage {
    const background = BACKGROUNDS[this.clip.background];
    const region = fitAspect(background.region, this.width, this.height);
    if (!background.video) {
      this.still ??= decodeRegion(this.images.path(background.source), region, this.width, this.height);
      return this.still;
    }
    // A video a second at a time; when it ends it plays again from a
    // different fraction of a second, so no frame repeats.
    while (this.video === null || second >= this.video.start + this.video.frames.length) {
      const pass = this.video === null ? 0 : this.video.pass + 1;
      const start = this.video === null ? 0 : this.video.start + this.video.frames.length;
      const frames = decodeVideo(this.images.path(background.source), (pass * 0.37) % 1, region, this.width, this.height);
      if (frames.length === 0) throw new Error(`${background.source}: no frames decoded`);
      this.video = { frames, start, pass };
    }
    return this.video.frames[second - this.video.start];
  }

  /** The outline (head and shoulders ellipses, feathered) of `person`, mapped so that its face lands on `pose.face`. */
  private drawPerson(person: Person, pose: Pose): void {
    const face = pose.face;
    if (face === null) return;
    const image = this.images.image(person.source);
    const { head, shoulders } = person;
    const scale = face.side;
    const vScale = face.side * pose.squash;
    const reach = Math.max(head.rx, shoulders.rx);
    const x0 = Math.max(0, Math.floor(face.x - reach * scale));
    const x1 = Math.min(this.width, Math.ceil(face.x + reach * scale));
    const y0 = Math.max(0, Math.floor(face.y + (head.dy - head.ry) * vScale));
    const y1 = Math.min(this.height, Math.ceil(face.y + (shoulders.dy + shoulders.ry) * vScale));
    for (let y = y0; y < y1; y++) {
      const v = (y + 0.5 - face.y) / vScale;
      const sy = person.face.y + v * person.face.side;
      if (sy < 0 || sy >= image.height) continue;
      for (let x = x0; x < x1; x++) {
        const u = (x + 0.5 - face.x) / scale;
        const sx = person.face.x + u * person.face.side;
        if (sx < 0 || sx >= image.width) continue;
        const hx = u / head.rx;
        const hy = (v - head.dy) / head.ry;
        const sx2 = u / shoulders.rx;
        const sy2 = (v - shoulders.dy) / shoulders.ry;
        const inHead = hx * hx + hy * hy;
        const inShoulders = sx2 * sx2 + sy2 * sy2;
        if (inHead >= 1 && inShoulders >= 1) continue;
        const alpha = Math.max(feather(Math.sqrt(inHead)), feather(Math.sqrt(inShoulders)));
        if (alpha > 0) this.blend(x, y, image, sx, sy, alpha);
      }
    }
  }

  /** A hand: an ellipse of the person's own cheek skin, a third of a face wide. */
  private drawHand(person: Person, [hx, hy]: [number, number], side: number): void {
    const image = this.images.image(person.source);
    const rx = 0.32 * side;
    const ry = 0.18 * side;
    const cheekX = person.face.x - 0.22 * person.face.side;
    const cheekY = person.face.y;
    for (let y = Math.max(0, Math.floor(hy - ry)); y < Math.min(this.height, Math.ceil(hy + ry)); y++) {
      const ny = (y + 0.5 - hy) / ry;
      for (let x = Math.max(0, Math.floor(hx - rx)); x < Math.min(this.width, Math.ceil(hx + rx)); x++) {
        const nx = (x + 0.5 - hx) / rx;
        const alpha = feather(Math.sqrt(nx * nx + ny * ny));
        if (alpha > 0) this.blend(x, y, image, cheekX + nx * 0.06 * person.face.side, cheekY + ny * 0.035 * person.face.side, alpha);
      }
    }
  }

  /** The glass, raised over the lower face (`pose.glass` 1) or half-way up (0.5). */
  private drawGlass(pose: Pose): void {
    const face = pose.face;
    if (face === null) return;
    const image = this.images.image(GLASS.source);
    const region: Region = GLASS.region;
    const width = 0.55 * face.side;
    const height = width * (region.height / region.width);
    const left = face.x + 0.05 * face.side - width / 2;
    const top = face.y + 0.15 * face.side + (1 - pose.glass) * 0.6 * face.side;
    for (let y = Math.max(0, Math.floor(top)); y < Math.min(this.height, Math.ceil(top + height)); y++) {
      const ny = (y + 0.5 - top) / height;
      for (let x = Math.max(0, Math.floor(left)); x < Math.min(this.width, Math.ceil(left + width)); x++) {
        const nx = (x + 0.5 - left) / width;
        // A rounded rectangle: a superellipse of the unit square.
        const alpha = feather(((Math.abs(nx - 0.5) * 2) ** 4 + (Math.abs(ny - 0.5) * 2) ** 4) ** 0.25);
        if (alpha > 0) this.blend(x, y, image, region.x + nx * region.width, region.y + ny * region.height, alpha);
      }
    }
  }

  private blend(x: number, y: number, image: RgbaImage, sx: number, sy: number, alpha: number): void {
    sample(image, sx, sy, this.colour);
    const p = (y * this.width + x) * 4;
    for (let c = 0; c < 3; c++) this.scene[p + c] = this.scene[p + c] * (1 - alpha) + this.colour[c] * alpha + 0.5;
  }

  /** The camera: the exposure of this second (gain with a slow drift) and sensor noise, into `out`. */
  private expose(second: number, out: Uint8ClampedArray): void {
    let drift = 1;
    for (const [index, wave] of DRIFT.entries()) drift += wave.amplitude * Math.sin((2 * Math.PI * second) / wave.periodS + this.phase * (index + 1));
    const gain = this.gain * drift;
    for (let v = 0; v < 256; v++) this.lut[v] = v * gain + 0.5;
    const noise = this.clip.noise ?? 1;
    const scene = this.scene;
    for (let p = 0; p < scene.length; p += 4) {
      const bits = this.random();
      out[p] = this.lut[scene[p]] + (POPCOUNT[bits & 255] - 4) * noise;
      out[p + 1] = this.lut[scene[p + 1]] + (POPCOUNT[(bits >>> 8) & 255] - 4) * noise;
      out[p + 2] = this.lut[scene[p + 2]] + (POPCOUNT[(bits >>> 16) & 255] - 4) * noise;
      out[p + 3] = 255;
    }
  }
}

/** The mean luma of an RGBA frame (docs/vision.md's luma). */
function meanLuma(rgba: Uint8ClampedArray): number {
  let sum = 0;
  for (let p = 0; p < rgba.length; p += 4) sum += (((rgba[p] + rgba[p + 2] + 1) >> 1) + rgba[p + 1] + 1) >> 1;
  return sum / (rgba.length / 4);
}

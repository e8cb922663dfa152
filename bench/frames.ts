/**
 * Seeded synthetic camera frames for the benchmark and the cross-implementation
 * tests: a textured room, a head-like blob that moves, nods, holds still and
 * returns, sensor noise on every frame, and a dark stretch (lights out).
 */

export interface FrameSequence {
  /** What the frames show, e.g. `synthetic` or `fake-camera`. */
  name: string;
  width: number;
  height: number;
  /** RGBA frames, `width * height * 4` bytes each. */
  frames: Uint8ClampedArray<ArrayBuffer>[];
}

/** mulberry32: a small, fast, seeded 32-bit generator. Returns [0, 2^32). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

/** The phase of the synthetic timeline a frame is in. */
export type Phase = 'moving' | 'nodding' | 'still' | 'dark' | 'return';

export function phaseOf(index: number, count: number): Phase {
  const at = index / count;
  if (at < 0.3) return 'moving';
  if (at < 0.45) return 'nodding';
  if (at < 0.65) return 'still';
  if (at < 0.85) return 'dark';
  return 'return';
}

interface Rgb {
  r: number;
  g: number;
  b: number;
}

/** The static room: wall, window, shelf, desk, with a fixed texture. */
function room(width: number, height: number, random: () => number): Uint8ClampedArray<ArrayBuffer> {
  const pixels = new Uint8ClampedArray(width * height * 4);
  const shelfColours: Rgb[] = [
    { r: 150, g: 40, b: 40 },
    { r: 40, g: 90, b: 150 },
    { r: 200, g: 180, b: 60 },
    { r: 60, g: 130, b: 70 },
    { r: 220, g: 220, b: 210 },
  ];
  const bookWidth = Math.max(1, Math.round(width / 64));
  for (let y = 0; y < height; y++) {
    const v = y / height;
    for (let x = 0; x < width; x++) {
      const u = x / width;
      // Wall: a soft vertical gradient.
      let colour: Rgb = { r: 180 - 40 * v, g: 170 - 40 * v, b: 150 - 30 * v };
      if (u > 0.62 && u < 0.92 && v > 0.08 && v < 0.45) {
        colour = { r: 235, g: 240, b: 250 }; // window
        if (Math.abs(u - 0.77) < 0.006 || Math.abs(v - 0.265) < 0.008) colour = { r: 90, g: 80, b: 70 }; // frame bars
      } else if (u > 0.04 && u < 0.34 && v > 0.12 && v < 0.55) {
        const book = Math.floor(x / bookWidth);
        colour = (book * 7 + Math.floor(v * 4)) % 6 === 5 ? { r: 70, g: 50, b: 35 } : shelfColours[(book * 3 + Math.floor(v * 4)) % shelfColours.length];
      } else if (v > 0.78) {
        colour = { r: 120 + 20 * Math.sin(u * 40), g: 82, b: 50 }; // desk, wood grain
      }
      const grain = (random() & 31) - 16;
      const p = (y * width + x) * 4;
      pixels[p] = colour.r + grain;
      pixels[p + 1] = colour.g + grain;
      pixels[p + 2] = colour.b + grain;
      pixels[p + 3] = 255;
    }
  }
  return pixels;
}

/** Where the head is on frame `index`, as fractions of the frame. */
function headAt(index: number, count: number): { x: number; y: number } {
  const phase = phaseOf(index, count);
  switch (phase) {
    case 'moving':
      return { x: 0.5 + 0.15 * Math.sin(index * 0.7), y: 0.45 + 0.03 * Math.sin(index * 1.3) };
    case 'nodding':
      // Drops over three frames and jerks back up. (Swinging between two
      // positions would not do: the changed pixels of A to B and of B to A
      // are the same, and so is their centroid.)
      return { x: 0.5, y: 0.4 + 0.04 * (index % 4) };
    case 'still':
    case 'dark':
      return { x: 0.47, y: 0.46 };
    case 'return':
      return { x: 0.5 + 0.2 * Math.cos(index * 0.9), y: 0.44 };
  }
}

/**
 * `count` frames of the synthetic room at `width` x `height`, from `seed`.
 * The same arguments always give the same frames.
 */
export function syntheticFrames(width: number, height: number, count: number, seed = 1): FrameSequence {
  const random = seededRandom(seed);
  const background = room(width, height, random);
  const frames: Uint8ClampedArray<ArrayBuffer>[] = [];
  const radiusX = Math.max(1, 0.11 * width);
  const radiusY = Math.max(1, 0.2 * height);
  for (let index = 0; index < count; index++) {
    const frame = new Uint8ClampedArray(background);
    const head = headAt(index, count);
    const cx = head.x * width;
    const cy = head.y * height;
    const x0 = Math.max(0, Math.floor(cx - radiusX * 1.8));
    const x1 = Math.min(width, Math.ceil(cx + radiusX * 1.8));
    const y0 = Math.max(0, Math.floor(cy - radiusY));
    for (let y = y0; y < height; y++) {
      for (let x = x0; x < x1; x++) {
        const dx = (x + 0.5 - cx) / radiusX;
        const dy = (y + 0.5 - cy) / radiusY;
        let colour: Rgb | null = null;
        if (dx * dx + dy * dy <= 1) {
          // Face with hair on top and a little shading.
          colour = dy < -0.45 ? { r: 55, g: 38, b: 28 } : { r: 205 - 30 * dx * dx, g: 160 - 25 * dx * dx, b: 130 - 20 * dx * dx };
        } else if (dy > 1.1 && Math.abs(dx) < 1.8 - 0.2 * (dy - 1.1)) {
          colour = { r: 50, g: 70, b: 120 }; // shoulders and jumper
        }
        if (colour !== null) {
          const p = (y * width + x) * 4;
          frame[p] = colour.r;
          frame[p + 1] = colour.g;
          frame[p + 2] = colour.b;
        }
      }
    }
    const dark = phaseOf(index, count) === 'dark';
    for (let p = 0; p < frame.length; p += 4) {
      // Sensor noise on every channel (binomial, -2 to 2, a motion score
      // under 1 for a still scene), and lights out in the dark stretch.
      const noise = random();
      for (let c = 0; c < 3; c++) {
        const bits = noise >>> (c * 4);
        const value = frame[p + c] + (bits & 1) + ((bits >>> 1) & 1) + ((bits >>> 2) & 1) + ((bits >>> 3) & 1) - 2;
        frame[p + c] = dark ? Math.round(value * 0.12) : value;
      }
    }
    frames.push(frame);
  }
  return { name: 'synthetic', width, height, frames };
}

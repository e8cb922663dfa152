/**
 * A camera video with a real face for the browser tests (Chromium's fake
 * camera, tests/fake-camera.ts): 160x120 at 10 fps, the empty room for
 * `awayS`, then a man at the left of the frame typing for `presentS`. Made
 * from the judgment benchmark's footage
 * (bench/footage: fetched and checked on first use, then cached) by the same
 * renderer, so the face, its background and the camera noise are the
 * benchmark's. The video's time is real time: Chromium plays it at its frame
 * rate and loops it.
 */

import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fetchFootage } from '../bench/footage/fetch.ts';
import { FootageImages, FootageRenderer } from '../bench/footage/render.ts';
import { planClip, type Clip, type Pose } from '../bench/footage/script.ts';
import { encodeY4m, writeFileAtomic } from './y4m.ts';

const WIDTH = 160;
const HEIGHT = 120;
const FPS = 10;

export interface FaceVideoOptions {
  /** Seconds of the empty room: room for the away count the test waits for. */
  awayS: number;
  /** Seconds with the man there, typing. */
  presentS: number;
}

/**
 * Writes the empty room, then the man, and returns its path (in the system's
 * temporary directory). Chromium loops it, so the room is empty again after
 * `awayS + presentS`: the man comes in, then leaves.
 */
export function faceAwayVideo({ awayS, presentS }: FaceVideoOptions): string {
  return faceVideo(`empty-then-face-${awayS}-${presentS}`, {
    about: 'the room is empty, then a man sits down at the left of the frame and types',
    script: [
      { s: awayS, do: 'away', x: 0.3, say: 'the room empty' },
      { s: presentS, do: 'types', x: 0.3, say: 'sits down at the left of the frame and types' },
    ],
  });
}

/**
 * A man sitting perfectly still at the left of the frame, his face in
 * view: one pose, one exposure and no sensor noise, so that every frame (and
 * the loop's seam) is the same picture.
 */
export function faceStillVideo(): string {
  const seconds = 5;
  return faceVideo(
    'face-still',
    {
      about: 'a man sits perfectly still at the left of the frame',
      noise: 0,
      script: [{ s: seconds, do: 'reads', x: 0.3, say: 'reads, perfectly still' }],
    },
    // The pose once he has settled at the left, drawn at the first second's exposure.
    (poses) => () => ({ second: 0, pose: poses[seconds - 1] }),
  );
}

/** Which pose, at which second's exposure, each second of the video shows: by default the plan's own. */
type Posing = (poses: readonly Pose[]) => (second: number) => { second: number; pose: Pose };

const AS_PLANNED: Posing = (poses) => (second) => ({ second, pose: poses[second] });

function faceVideo(name: string, scene: Pick<Clip, 'about' | 'script' | 'noise'>, posing: Posing = AS_PLANNED): string {
  const clip: Clip = {
    name,
    width: WIDTH,
    height: HEIGHT,
    ios: false,
    person: 'man-tshirt',
    background: 'lecture-hall',
    seed: 4242,
    ...scene,
  };
  const plan = planClip(clip);
  const at = posing(plan.poses);
  const renderer = new FootageRenderer(clip, new FootageImages(fetchFootage()));
  const frames = plan.poses.length * FPS;
  const rgba = new Uint8ClampedArray(WIDTH * HEIGHT * 4);
  let rendered = -1;
  // Each second's pose for a second of frames, every frame with its own noise;
  // encodeY4m asks for a frame's pixels in order, luma first.
  const pixel = (x: number, y: number, frame: number) => {
    if (frame !== rendered) {
      const { second, pose } = at(Math.floor(frame / FPS));
      renderer.render(second, pose, rgba);
      rendered = frame;
    }
    const p = (y * WIDTH + x) * 4;
    return [rgba[p], rgba[p + 1], rgba[p + 2]] as const;
  };
  const video = encodeY4m({
    width: WIDTH,
    height: HEIGHT,
    frames,
    fps: FPS,
    // Full-range BT.601, as C420jpeg says.
    luma(x, y, frame) {
      const [r, g, b] = pixel(x, y, frame);
      return 0.299 * r + 0.587 * g + 0.114 * b;
    },
    chroma(x, y, frame) {
      const [r, g, b] = pixel(x, y, frame);
      return [128 - 0.168736 * r - 0.331264 * g + 0.5 * b, 128 + 0.5 * r - 0.418688 * g - 0.081312 * b];
    },
  });
  return writeFileAtomic(join(tmpdir(), 'warden-fake-camera', `${name}.y4m`), video);
}

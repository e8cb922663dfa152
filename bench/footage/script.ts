/**
 * A clip's script, written by hand as a person would describe what happens
 * ("types for two minutes", "dozes off for 45 s", "leaves for four
 * minutes"), and what it means second by second: the pose the renderer
 * draws and the label the judgment benchmark scores against. Both come from
 * the same seeded plan, so the labels are the script.
 */

import { seededRandom } from '../frames.ts';
import type { BackgroundId, PersonId } from './scenes.ts';

export type Action =
  /** Types: the head jitters by 1-3 % of the height every second, the hands move in the lower frame. */
  | 'types'
  /** Reads: the head lowered a little and still (breathing only), hands still, a page turned now and then. */
  | 'reads'
  /** Talks (a call): small head bobs, 2 to 6 in 15 s, now and then a gesture. */
  | 'talks'
  /** Turns to a second screen: the face slides sideways, partly out of the frame, and shrinks; comes back at the end. */
  | 'turns'
  /** Drinks: a glass covers the lower face for all but the first and last second. */
  | 'drinks'
  /** Away: the seat is empty (the background alone). */
  | 'away'
  /** Dozes: the head sinks slowly for 2-5 s and jerks back up within a second, again and again: one labelled doze episode. */
  | 'dozes';

export type Activity = 'working' | 'away' | 'dozing';

export interface Step {
  /** Seconds. */
  s: number;
  do: Action;
  /** Face side as a fraction of the frame height from this step on (the person leans in or sits back over 3 s). */
  size?: number;
  /** Face centre as a fraction of the width from this step on. */
  x?: number;
  /** What happens, in words. */
  say: string;
}

export interface Clip {
  name: string;
  about: string;
  width: number;
  height: number;
  /** An iPhone: the analyser's iOS threshold. */
  ios: boolean;
  /** Who sits there (null: no one, at any second). */
  person: PersonId | null;
  background: BackgroundId;
  /** The mean luma the camera's exposure settles at (a dim or a bright room); absent: the photographs' own. */
  luma?: number;
  /** Sensor noise, times the usual (sigma 1.4 levels). */
  noise?: number;
  seed: number;
  script: readonly Step[];
}

/** A face in frame pixels: its centre and side. */
export interface FaceBox {
  x: number;
  y: number;
  side: number;
}

export interface Pose {
  /** The face where the person is drawn; null when away. */
  face: FaceBox | null;
  /** Vertical squash of the head (a lowered or sinking head shows less of the face). */
  squash: number;
  /** Hands in the lower frame (centres in pixels), or null. */
  hands: { left: [number, number]; right: [number, number] | null } | null;
  /** The glass: 0 down out of view, 1 at the mouth. */
  glass: number;
}

export interface SecondLabel {
  /** The labelled face (null: no face in the frame). */
  face: FaceBox | null;
  /** The face is inside the frame: centre in it and at least 3/4 of its box. */
  inView: boolean;
  activity: Activity;
}

export interface DozeEpisode {
  /** First second of the episode and the second after its last. */
  start: number;
  end: number;
}

export interface Plan {
  poses: Pose[];
  labels: SecondLabel[];
  dozes: DozeEpisode[];
}

const DEFAULT_SIZE = 0.36;
const DEFAULT_X = 0.5;
const FACE_Y = 0.42;
const TRANSITION_S = 3;

function activityOf(action: Action): Activity {
  if (action === 'away') return 'away';
  if (action === 'dozes') return 'dozing';
  return 'working';
}

/** The share of a square box of `side` centred at (x, y) inside a `width` x `height` frame. */
function insideShare(box: FaceBox, width: number, height: number): number {
  const half = box.side / 2;
  const w = Math.max(0, Math.min(width, box.x + half) - Math.max(0, box.x - half));
  const h = Math.max(0, Math.min(height, box.y + half) - Math.max(0, box.y - half));
  return (w * h) / (box.side * box.side);
}

export function inView(box: FaceBox, width: number, height: number): boolean {
  return box.x >= 0 && box.x < width && box.y >= 0 && box.y < height && insideShare(box, width, height) >= 0.75;
}

/** The poses and labels of every second of `clip`; the same clip always gives the same plan. */
export function planClip(clip: Clip): Plan {
  const { width: W, height: H } = clip;
  const next = seededRandom(clip.seed);
  const random = () => next() / 2 ** 32;
  const between = (low: number, high: number) => low + (high - low) * random();
  const sign = () => (random() < 0.5 ? -1 : 1);
  const poses: Pose[] = [];
  const labels: SecondLabel[] = [];
  const dozes: DozeEpisode[] = [];
  let size = DEFAULT_SIZE;
  let x = DEFAULT_X;
  let second = 0;
  for (const step of clip.script) {
    const fromSize = size;
    const fromX = x;
    size = step.size ?? size;
    x = step.x ?? x;
    if (step.do === 'dozes') dozes.push({ start: second, end: second + step.s });
    // Per-step state: the next page turn, the bob in progress, the doze cycle, the side turned to.
    let pageTurnIn = Math.round(between(25, 60));
    let bob = 0;
    let sinkLength = 0;
    let sinkAt = 0;
    let sinkDrop = 0;
    let restLeft = Math.round(between(1, 4));
    const turnSide = x < 0.5 ? -1 : 1;
    for (let i = 0; i < step.s; i++, second++) {
      const blend = Math.min(1, (i + 1) / Math.min(TRANSITION_S, step.s));
      const side = (fromSize + (size - fromSize) * blend) * H;
      let cx = (fromX + (x - fromX) * blend) * W;
      let cy = FACE_Y * H;
      let faceSide = side;
      let squash = 1;
      let glass = 0;
      const handY = H - 0.1 * H;
      let left: [number, number] = [cx - 0.95 * side, handY];
      let right: [number, number] | null = [cx + 0.95 * side, handY];
      switch (step.do) {
        case 'types':
          cx += sign() * between(0, 0.015) * W;
          cy += sign() * between(0.01, 0.03) * H;
          left = [left[0] + sign() * between(0.01, 0.05) * W, left[1] + sign() * between(0, 0.03) * H];
          right = [right[0] + sign() * between(0.01, 0.05) * W, right[1] + sign() * between(0, 0.03) * H];
          break;
        case 'reads':
          cy += 0.04 * H + between(-0.003, 0.003) * H;
          squash = 0.94;
          if (--pageTurnIn <= 1) {
            right = [right[0] - 0.1 * W * pageTurnIn, right[1] - 0.04 * H];
            if (pageTurnIn === 0) pageTurnIn = Math.round(between(25, 60));
          }
          break;
        case 'talks':
          cx += between(-0.005, 0.005) * W;
          if (bob > 0) {
            cy += bob * H;
            bob = 0;
          } else if (random() < 0.3) {
            bob = between(0.02, 0.04);
          }
          if (random() < 0.2) right = [right[0] + sign() * 0.04 * W, right[1] - 0.05 * H];
          break;
        case 'turns': {
          const ramp = Math.min(1, (i + 1) / 2, (step.s - i) / 2);
          cx += turnSide * 0.4 * W * ramp;
          faceSide *= 1 - 0.15 * ramp;
          cx += between(-0.005, 0.005) * W;
          cy += between(-0.01, 0.01) * H;
          left = [left[0] + turnSide * 0.1 * W * ramp + sign() * between(0, 0.03) * W, left[1]];
          right = [right[0] + turnSide * 0.1 * W * ramp + sign() * between(0, 0.03) * W, right[1]];
          break;
        }
        case 'drinks':
          glass = i === 0 || i === step.s - 1 ? 0.5 : 1;
          if (glass === 1) cy -= 0.02 * H;
          right = null;
          break;
        case 'away':
          break;
        case 'dozes':
          if (sinkLength > 0 && sinkAt < sinkLength) {
            sinkAt++;
            cy += sinkDrop * side * (sinkAt / sinkLength);
            squash = 1 - 0.12 * (sinkAt / sinkLength);
          } else if (sinkLength > 0) {
            // The jerk back up: upright again within the second.
            sinkLength = 0;
            restLeft = Math.round(between(1, 3));
          } else if (--restLeft <= 0) {
            sinkLength = Math.round(between(2, 5));
            sinkAt = 0;
            sinkDrop = between(0.35, 0.6);
          }
          break;
      }
      const present = step.do !== 'away';
      const face = present ? { x: cx, y: cy, side: faceSide } : null;
      poses.push({ face, squash, hands: present ? { left, right } : null, glass });
      labels.push({ face, inView: face !== null && inView(face, W, H), activity: activityOf(step.do) });
    }
  }
  return { poses, labels, dozes };
}

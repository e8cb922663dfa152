/**
 * Where the Warden's eye looks (docs/client.md, The live screen): toward the
 * guest's face as the camera sees it. A face's centre in the frame, as
 * fractions of its width and height from its top left (mirrored for the
 * front camera, as the preview shows it), becomes a gaze from the eye's
 * centre: an angle and a distance as a fraction of the pupil's largest
 * travel. The frame's centre is straight ahead.
 */

/** The gaze: the angle from the eye's centre (radians, screen axes: 0 to the right, π/2 down) and the distance, 0 (centred) to 1 (as far as the pupil goes). */
export interface Gaze {
  radian: number;
  radius: number;
}

/** How far the iris travels from the eye's centre at most, in the eye's drawing units (Eye.tsx's 200 x 120): the opening is wide and low, so the travel is too. */
const PUPIL_TRAVEL = { x: 32, y: 10 } as const;

/** How far from the frame's centre (a fraction of the frame) a face's centre is when the eye looks as far as it goes that way: a face seldom reaches the frame's edge. */
const FULL_TURN = 0.35;

/** Gaze changes smaller than this (a fraction of the largest travel) are ignored, so that the eye does not twitch with every sample. */
const DEAD_ZONE = 0.08;

/** The gaze toward a face centred at `left`, `top` (fractions of the frame as shown). */
export function gazeToward(left: number, top: number): Gaze {
  const x = (left - 0.5) / FULL_TURN;
  const y = (top - 0.5) / FULL_TURN;
  const radius = Math.min(1, Math.hypot(x, y));
  return { radian: radius === 0 ? 0 : Math.atan2(y, x), radius };
}

/** The gaze as a point on the unit disc (x to the right, y down). */
function pointOf({ radian, radius }: Gaze): { x: number; y: number } {
  return { x: Math.cos(radian) * radius, y: Math.sin(radian) * radius };
}

/** Where the iris goes for `gaze`, in the eye's drawing units from its centre (to a tenth). */
export function pupilOffset(gaze: Gaze): { x: number; y: number } {
  const { x, y } = pointOf(gaze);
  return { x: Math.round(x * PUPIL_TRAVEL.x * 10) / 10, y: Math.round(y * PUPIL_TRAVEL.y * 10) / 10 };
}

/** Whether the eye should turn from `from` to `to`: only past the dead zone. */
export function isNotableTurn(from: Gaze, to: Gaze): boolean {
  const a = pointOf(from);
  const b = pointOf(to);
  return Math.hypot(b.x - a.x, b.y - a.y) >= DEAD_ZONE;
}

import { describe, expect, it } from 'vitest';
import { NO_MOTION_THRESHOLD } from '../src/client/vision/params.generated.ts';
import { stillVideo } from '../tests/y4m.ts';

const WIDTH = 160;
const HEIGHT = 120;

/** The luma planes of a 4:2:0 y4m file, frame by frame. */
function lumaFrames(file: Buffer): Buffer[] {
  const frameBytes = WIDTH * HEIGHT * 1.5;
  const marker = Buffer.from('FRAME\n');
  const frames: Buffer[] = [];
  for (let at = file.indexOf(marker); at !== -1; at = file.indexOf(marker, at + marker.length + frameBytes)) {
    const start = at + marker.length;
    frames.push(file.subarray(start, start + WIDTH * HEIGHT));
  }
  return frames;
}

/** The motion score of docs/vision.md on the luma as written: the mean absolute difference. */
function motionScore(previous: Buffer, current: Buffer): number {
  let sum = 0;
  for (let i = 0; i < current.length; i++) sum += Math.abs(current[i]! - previous[i]!);
  return sum / current.length;
}

describe('the still video with sensor noise (bench:live-traffic)', () => {
  it('never repeats a frame, yet moves less than the no-motion threshold', () => {
    const frames = lumaFrames(stillVideo({ sensorNoiseSeed: 1 }));
    expect(frames).toHaveLength(24);
    // Samples a second apart meet frames 10 apart in the 24-frame loop; every pair of frames is checked.
    for (let a = 0; a < frames.length; a++) {
      for (let b = a + 1; b < frames.length; b++) {
        const score = motionScore(frames[a]!, frames[b]!);
        expect(score).toBeCloseTo(0.75, 1);
        expect(score).toBeLessThan(NO_MOTION_THRESHOLD);
      }
    }
  });

  it('is the frozen scene itself without a seed', () => {
    const frames = lumaFrames(stillVideo());
    expect(frames.every((frame) => frame.equals(frames[0]!))).toBe(true);
  });
});

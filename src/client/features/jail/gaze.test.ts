import { describe, expect, it } from 'vitest';
import { gazeToward, isNotableTurn, pupilOffset } from './gaze.ts';

describe('gazeToward', () => {
  it('looks straight ahead at a face in the middle of the picture', () => {
    expect(gazeToward(0.5, 0.5)).toEqual({ radian: 0, radius: 0 });
    expect(pupilOffset(gazeToward(0.5, 0.5))).toEqual({ x: 0, y: 0 });
  });

  it('turns the pupil to the side of the picture the face is on: left to the left, right to the right', () => {
    const left = pupilOffset(gazeToward(0.2, 0.5));
    const right = pupilOffset(gazeToward(0.8, 0.5));
    expect(left.x).toBeLessThan(0);
    expect(right.x).toBeGreaterThan(0);
    expect(left.y).toBeCloseTo(0);
    expect(right.x).toBeCloseTo(-left.x);
    expect(gazeToward(0.2, 0.5).radian).toBeCloseTo(Math.PI);
    expect(gazeToward(0.8, 0.5).radian).toBeCloseTo(0);
  });

  it('looks up at a face high in the picture and down at one low in it', () => {
    expect(pupilOffset(gazeToward(0.5, 0.3)).y).toBeLessThan(0);
    expect(pupilOffset(gazeToward(0.5, 0.7)).y).toBeGreaterThan(0);
    expect(gazeToward(0.5, 0.7).radian).toBeCloseTo(Math.PI / 2);
  });

  it('goes further the further the face is from the middle, and no further than the pupil travels', () => {
    expect(gazeToward(0.6, 0.5).radius).toBeLessThan(gazeToward(0.7, 0.5).radius);
    expect(gazeToward(0.85, 0.5).radius).toBeCloseTo(1);
    expect(gazeToward(1, 1).radius).toBe(1);
    expect(gazeToward(0, 0).radius).toBe(1);
    const corner = pupilOffset(gazeToward(0, 0));
    expect(corner.x).toBeLessThan(0);
    expect(corner.y).toBeLessThan(0);
  });
});

describe('isNotableTurn', () => {
  it('ignores a turn within the dead zone and follows one past it', () => {
    const here = gazeToward(0.6, 0.5);
    expect(isNotableTurn(here, gazeToward(0.61, 0.505))).toBe(false);
    expect(isNotableTurn(here, gazeToward(0.7, 0.5))).toBe(true);
    expect(isNotableTurn(here, gazeToward(0.4, 0.5))).toBe(true);
  });
});

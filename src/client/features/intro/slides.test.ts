import { describe, expect, it } from 'vitest';
import { SLIDES, stepSlide } from './slides.ts';

describe('intro slides', () => {
  it('has four slides: support, booking, camera setup (with its link), getting started', () => {
    expect(SLIDES.map((slide) => slide.action)).toEqual(['none', 'none', 'camera', 'none']);
  });
  it('steps within the four slides', () => {
    expect(stepSlide(0, -1)).toBe(0);
    expect(stepSlide(0, 1)).toBe(1);
    expect(stepSlide(3, 1)).toBe(3);
    expect(stepSlide(2, 1)).toBe(3);
  });
});

/** The introduction's four slides (docs/client.md, Screens and routes): what each shows, by text key. */
export interface Slide {
  title: 'intro_1_title' | 'intro_2_title' | 'intro_3_title' | 'intro_4_title';
  text: 'intro_1_text' | 'intro_2_text' | 'intro_3_text' | 'intro_4_text';
  /** Slide 3 links to the camera check (sign-up and sign-in are under every slide). */
  action: 'none' | 'camera';
}

export const SLIDES: readonly Slide[] = [
  { title: 'intro_1_title', text: 'intro_1_text', action: 'none' },
  { title: 'intro_2_title', text: 'intro_2_text', action: 'none' },
  { title: 'intro_3_title', text: 'intro_3_text', action: 'camera' },
  { title: 'intro_4_title', text: 'intro_4_text', action: 'none' },
];

/** The slide after a step of `delta`, kept within the four (no wrap-around). */
export function stepSlide(current: number, delta: number, count: number = SLIDES.length): number {
  return Math.min(count - 1, Math.max(0, current + delta));
}

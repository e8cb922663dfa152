import { readFileSync } from 'node:fs';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import { createI18n } from '../../i18n.ts';
import { EYE_LOOKS, Eye, type EyeProps, eyeLook } from './Eye.tsx';
import { gazeToward } from './gaze.ts';
import { EYE_MODES } from './sessionSlice.ts';
import { texts } from './texts.ts';

const i18n = createI18n('en');
i18n.addResourceBundle('en', 'jail', texts.en);

/** The eye's outer element as rendered: its look, its gaze and the iris's offset while it follows a face. */
function rendered(props: EyeProps): { look: string | undefined; gaze: string | undefined; x: string | undefined; y: string | undefined } {
  const html = renderToStaticMarkup(createElement(I18nextProvider, { i18n }, createElement(Eye, props)));
  const tag = /^<div class="eye"[^>]*>/.exec(html)?.[0] ?? '';
  return {
    look: /data-look="([^"]*)"/.exec(tag)?.[1],
    gaze: /data-gaze="([^"]*)"/.exec(tag)?.[1],
    x: /--gaze-x:([^;"]*)/.exec(tag)?.[1],
    y: /--gaze-y:([^;"]*)/.exec(tag)?.[1],
  };
}

describe('eyeLook', () => {
  it('shows the mode while awake; dialogue talks while the Warden speaks and listens otherwise', () => {
    expect(eyeLook({ mode: 'monitoring', awake: true })).toBe('monitoring');
    expect(eyeLook({ mode: 'capturing', awake: true })).toBe('capturing');
    expect(eyeLook({ mode: 'attention', awake: true })).toBe('attention');
    expect(eyeLook({ mode: 'dialogue', awake: true, speaking: true })).toBe('talking');
    expect(eyeLook({ mode: 'dialogue', awake: true, speaking: false })).toBe('listening');
  });

  it('is shut while asleep with nothing to watch, and rests half open while it watches a jail, whatever the mode', () => {
    for (const mode of EYE_MODES) {
      expect(eyeLook({ mode, awake: false })).toBe('closed');
      expect(eyeLook({ mode, awake: false, watching: true })).toBe('resting');
    }
  });

  it('has a distinct name for every look in both languages', () => {
    for (const language of ['en', 'ja'] as const) {
      const names = EYE_LOOKS.map((look) => texts[language][`eye_${look}`]);
      expect(new Set(names).size).toBe(EYE_LOOKS.length);
      for (const name of names) expect(name).not.toBe('');
    }
  });
});

describe('the gaze', () => {
  const faceAt = (left: number, top: number) => gazeToward(left, top);

  it('follows the face while the eye monitors: a face at the left turns the pupil left, one at the right turns it right', () => {
    const left = rendered({ mode: 'monitoring', awake: true, gaze: faceAt(0.2, 0.5) });
    const right = rendered({ mode: 'monitoring', awake: true, gaze: faceAt(0.8, 0.5) });
    expect(left).toMatchObject({ look: 'monitoring', gaze: 'following' });
    expect(Number.parseFloat(left.x ?? '')).toBeLessThan(0);
    expect(Number.parseFloat(right.x ?? '')).toBeGreaterThan(0);
    expect(left.x).toMatch(/px$/);
    expect(Number.parseFloat(rendered({ mode: 'monitoring', awake: true, gaze: faceAt(0.5, 0.2) }).y ?? '')).toBeLessThan(0);
  });

  it('follows it under the heavy lids while it rests through a jail', () => {
    const resting = rendered({ mode: 'monitoring', awake: false, watching: true, gaze: faceAt(0.3, 0.4) });
    expect(resting).toMatchObject({ look: 'resting', gaze: 'following' });
    expect(Number.parseFloat(resting.x ?? '')).toBeLessThan(0);
  });

  it('searches while it watches without a face (none seen, or no detector)', () => {
    expect(rendered({ mode: 'monitoring', awake: true, gaze: null })).toEqual({ look: 'monitoring', gaze: 'searching', x: undefined, y: undefined });
    expect(rendered({ mode: 'monitoring', awake: true })).toMatchObject({ gaze: 'searching', x: undefined });
    expect(rendered({ mode: 'monitoring', awake: false, watching: true })).toMatchObject({ look: 'resting', gaze: 'searching' });
  });

  it('keeps the other looks as they are: capturing, attention, dialogue and a closed eye neither follow nor search', () => {
    const gaze = faceAt(0.2, 0.5);
    for (const props of [
      { mode: 'capturing', awake: true },
      { mode: 'attention', awake: true },
      { mode: 'dialogue', awake: true, speaking: true },
      { mode: 'dialogue', awake: true },
      { mode: 'monitoring', awake: false },
    ] as const) {
      expect(rendered({ ...props, gaze })).toMatchObject({ gaze: undefined, x: undefined, y: undefined });
    }
  });

  it('moves the pupil only where motion is welcome: under reduced motion it stays still, centred', () => {
    const css = readFileSync(new URL('./eye.css', import.meta.url), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
    const still = mediaBlock(css, 'prefers-reduced-motion: reduce');
    const moving = mediaBlock(css, 'prefers-reduced-motion: no-preference');
    expect(moving).toContain('.eye[data-gaze="following"] .eye-iris');
    expect(moving).toMatch(/transform: translate\(var\(--gaze-x[^;]*var\(--gaze-y/);
    expect(moving).toMatch(/\.eye\[data-gaze="searching"\] \.eye-iris \{[^}]*animation: eye-search /);
    // Nothing else turns the iris by the gaze or searches with it.
    const elsewhere = css.replace(moving, '');
    expect(elsewhere).not.toContain('--gaze-');
    expect(elsewhere).not.toMatch(/animation:[^;]*eye-search/);
    expect(elsewhere).not.toContain('data-gaze');
    // And under reduced motion no animation or transition runs in the eye.
    expect(still).toMatch(/\.eye \*[^{]*\{\s*animation: none !important;\s*transition: none !important;/);
  });
});

/** The rules inside `@media (<query>) { … }` in `css`. */
function mediaBlock(css: string, query: string): string {
  const start = css.indexOf(`@media (${query})`);
  expect(start, `@media (${query})`).toBeGreaterThanOrEqual(0);
  const open = css.indexOf('{', start);
  let depth = 0;
  for (let index = open; index < css.length; index += 1) {
    if (css[index] === '{') depth += 1;
    if (css[index] === '}') depth -= 1;
    if (depth === 0) return css.slice(open + 1, index);
  }
  return css.slice(open + 1);
}

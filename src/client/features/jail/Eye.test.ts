import { describe, expect, it } from 'vitest';
import { EYE_LOOKS, eyeLook } from './Eye.tsx';
import { EYE_MODES } from './sessionSlice.ts';
import { texts } from './texts.ts';

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

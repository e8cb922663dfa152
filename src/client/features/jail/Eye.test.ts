import { describe, expect, it } from 'vitest';
import { texts } from '../prep/texts.ts';
import { eyeLabelKey } from './Eye.tsx';
import { EYE_MODES } from './sessionSlice.ts';

describe('eyeLabelKey', () => {
  it('names the mode while awake', () => {
    expect(eyeLabelKey('monitoring', true)).toBe('eye_monitoring');
    expect(eyeLabelKey('attention', true)).toBe('eye_attention');
  });

  it('says the eye is closed while asleep, whatever the mode', () => {
    for (const mode of EYE_MODES) expect(eyeLabelKey(mode, false)).toBe('eye_asleep');
  });

  it('has a distinct text for every label in both languages', () => {
    for (const language of ['en', 'ja'] as const) {
      const labels = [...EYE_MODES.map((mode) => eyeLabelKey(mode, true)), eyeLabelKey('monitoring', false)].map((key) => texts[language][key]);
      expect(new Set(labels).size).toBe(EYE_MODES.length + 1);
    }
  });
});

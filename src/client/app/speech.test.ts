import { describe, expect, it } from 'vitest';
import { browserEars, browserVoice, ScriptedSpeech } from './speech.ts';

describe('speech', () => {
  it('without a browser speech API, the voice resolves at once and the ears hear nothing', async () => {
    await expect(browserVoice().speak('Here we go', 'en')).resolves.toBeUndefined();
    const ears = browserEars();
    expect(ears.available).toBe(false);
    expect(await ears.listen('ja', 10)).toBeNull();
  });

  it('the scripted speech records what is said and answers listens in order, or null after the timeout', async () => {
    const speech = new ScriptedSpeech();
    await speech.speak('こんにちは', 'ja');
    expect(speech.spoken).toEqual([{ text: 'こんにちは', language: 'ja' }]);
    speech.hear('take a break');
    expect(await speech.listen('en')).toBe('take a break');
    const pending = speech.listen('en', 1_000);
    speech.hear('one');
    expect(await pending).toBe('one');
    expect(await speech.listen('en', 10)).toBeNull();
  });
});

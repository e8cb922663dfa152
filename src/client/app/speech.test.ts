import { afterEach, describe, expect, it, vi } from 'vitest';
import { browserEars, browserVoice } from './speech.ts';

describe('speech', () => {
  it('without a browser speech API, the voice says at once that it did not speak and the ears hear nothing', async () => {
    await expect(browserVoice().speak('Here we go', 'en')).resolves.toBe(false);
    const ears = browserEars();
    expect(ears.available).toBe(false);
    expect(await ears.listen('ja', 10)).toBeNull();
  });

  describe('with recognition', () => {
    afterEach(() => vi.unstubAllGlobals());

    /** A recognition that fails every start with `error`. */
    function failingWith(error: string) {
      return class {
        lang = '';
        interimResults = false;
        maxAlternatives = 1;
        onresult = null;
        onerror: ((event: { error: string }) => void) | null = null;
        onend: (() => void) | null = null;
        start() {
          this.onerror?.({ error });
          this.onend?.();
        }
        abort() {}
      };
    }

    it('stops being available once the microphone is refused', async () => {
      vi.stubGlobal('window', { SpeechRecognition: failingWith('not-allowed') });
      const ears = browserEars();
      expect(ears.available).toBe(true);
      expect(await ears.listen('en', 10)).toBeNull();
      expect(ears.available).toBe(false);
    });

    it('stays available after hearing nothing', async () => {
      vi.stubGlobal('window', { SpeechRecognition: failingWith('no-speech') });
      const ears = browserEars();
      expect(await ears.listen('en', 10)).toBeNull();
      expect(ears.available).toBe(true);
    });
  });
});

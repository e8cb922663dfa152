import { describe, expect, it } from 'vitest';
import { browserEars, browserVoice } from './speech.ts';

describe('speech', () => {
  it('without a browser speech API, the voice resolves at once and the ears hear nothing', async () => {
    await expect(browserVoice().speak('Here we go', 'en')).resolves.toBeUndefined();
    const ears = browserEars();
    expect(ears.available).toBe(false);
    expect(await ears.listen('ja', 10)).toBeNull();
  });
});

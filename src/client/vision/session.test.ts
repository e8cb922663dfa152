import { describe, expect, it, vi } from 'vitest';
import { THUMBNAIL_BYTES, type AnalyserOptions, type FrameAnalyser } from './analyser';
import { JsAnalyser } from './js-analyser';
import { VisionSession, type LoadedEngine, type PixelPath } from './session';

const OPTIONS: AnalyserOptions = { width: 8, height: 6, ios: false, sleeper: false };

/** The JavaScript engine, recording every analyser it makes. */
function jsEngine(): LoadedEngine & { made: FrameAnalyser[] } {
  const made: FrameAnalyser[] = [];
  return {
    info: { engine: 'js', fallbacks: [], loadMs: 0 },
    made,
    create(options) {
      const analyser = new JsAnalyser(options);
      vi.spyOn(analyser, 'dispose');
      made.push(analyser);
      return analyser;
    },
  };
}

/** Writes a uniform grey frame. */
function grey(value: number): (analyser: FrameAnalyser) => Promise<PixelPath> {
  return async (analyser) => {
    analyser.frameBuffer().fill(value);
    return 'canvas';
  };
}

describe('VisionSession', () => {
  it('analyses frames with one analyser of the session size', async () => {
    const engine = jsEngine();
    const session = new VisionSession(engine, OPTIONS, []);
    const first = await session.analyse({ width: 8, height: 6 }, 0, grey(100));
    const second = await session.analyse({ width: 8, height: 6 }, 1_000, grey(100));
    expect(first.result.hasPrevious).toBe(false);
    expect(second.result.hasPrevious).toBe(true);
    expect(second.result.meanLuma).toBe(100);
    expect([second.restarted, second.pixelPath, second.width, second.height]).toEqual([false, 'canvas', 8, 6]);
    expect(engine.made).toHaveLength(1);
  });

  it('makes a new analyser, keeping the whitelist, when the frame size changes', async () => {
    const engine = jsEngine();
    const whitelist = [new Uint8Array(THUMBNAIL_BYTES).fill(100)];
    const session = new VisionSession(engine, OPTIONS, whitelist);
    await session.analyse({ width: 8, height: 6 }, 0, grey(100));
    const turned = await session.analyse({ width: 6, height: 8 }, 1_000, grey(100));
    expect([turned.restarted, turned.width, turned.height]).toEqual([true, 6, 8]);
    expect(turned.result.hasPrevious).toBe(false);
    expect(turned.result.whitelisted).toBe(true);
    expect(engine.made).toHaveLength(2);
    expect(engine.made[0].dispose).toHaveBeenCalledOnce();
  });

  it('gives thumbnails only after a frame', async () => {
    const session = new VisionSession(jsEngine(), OPTIONS, []);
    expect(() => session.thumbnail()).toThrow('No frame has been analysed yet');
    expect(() => session.patrol()).toThrow('No frame has been analysed yet');
    await session.analyse({ width: 8, height: 6 }, 0, grey(0));
    expect(session.thumbnail()).toHaveLength(THUMBNAIL_BYTES);
    expect(session.patrol()).toMatchObject({ width: 8, height: 6, allBlack: true });
  });

  it('applies a new whitelist to the analyser at once', async () => {
    const session = new VisionSession(jsEngine(), OPTIONS, []);
    expect((await session.analyse({ width: 8, height: 6 }, 0, grey(50))).result.whitelisted).toBe(false);
    session.setWhitelist([new Uint8Array(THUMBNAIL_BYTES).fill(50)]);
    expect((await session.analyse({ width: 8, height: 6 }, 1_000, grey(50))).result.whitelisted).toBe(true);
  });

  it('frees its analyser when disposed, and answers nothing after', async () => {
    const engine = jsEngine();
    const session = new VisionSession(engine, OPTIONS, []);
    await session.analyse({ width: 8, height: 6 }, 0, grey(10));
    session.dispose();
    expect(engine.made[0].dispose).toHaveBeenCalledOnce();
    await expect(session.analyse({ width: 8, height: 6 }, 1_000, grey(10))).rejects.toThrow('The session has ended');
    expect(() => session.thumbnail()).toThrow('The session has ended');
  });

  it("keeps separate sessions apart: what one has seen is not the next one's", async () => {
    const engine = jsEngine();
    const before = new VisionSession(engine, OPTIONS, []);
    await before.analyse({ width: 8, height: 6 }, 0, grey(10));
    before.dispose();
    const after = new VisionSession(engine, OPTIONS, []);
    expect(() => after.thumbnail()).toThrow('No frame has been analysed yet');
    expect((await after.analyse({ width: 8, height: 6 }, 1_000, grey(200))).result.hasPrevious).toBe(false);
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SampleTimer, type SampleClock } from './sample-timer';

const START = 1_700_000_000_000;

describe('SampleTimer', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: START });
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it('samples once a second with Date.now() as the time, one at a time', async () => {
    const times: number[] = [];
    const timer = new SampleTimer({
      sample: async (timeMs) => {
        times.push(timeMs);
      },
    });
    timer.start();
    await vi.advanceTimersByTimeAsync(0);
    await vi.advanceTimersByTimeAsync(5_000);
    timer.stop();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(times).toEqual([0, 1, 2, 3, 4, 5].map((second) => START + second * 1000));
  });

  it('skips the samples it missed rather than catching up in a burst', async () => {
    const times: number[] = [];
    let slow = true;
    const timer = new SampleTimer({
      sample: async (timeMs) => {
        times.push(timeMs);
        if (slow) {
          slow = false;
          await new Promise((resolve) => setTimeout(resolve, 2_500));
        }
      },
    });
    timer.start();
    await vi.advanceTimersByTimeAsync(4_100);
    timer.stop();
    // 0 took 2.5 s; 1 s and 2 s were missed; then 3 s and 4 s.
    expect(times.map((time) => time - START)).toEqual([0, 3_000, 4_000]);
  });

  it('keeps the mean interval when it jitters', async () => {
    const times: number[] = [];
    const timer = new SampleTimer({
      jitterMs: 100,
      sample: async (timeMs) => {
        times.push(timeMs);
      },
    });
    timer.start();
    await vi.advanceTimersByTimeAsync(20_500);
    timer.stop();
    const gaps = times.slice(1).map((time, index) => time - times[index]);
    expect(times).toHaveLength(21);
    for (const gap of gaps) expect(Math.abs(gap - 1_000)).toBeLessThanOrEqual(200);
    // Each sample stays within 100 ms of its whole second.
    for (const [index, time] of times.entries()) expect(Math.abs(time - START - index * 1_000)).toBeLessThanOrEqual(100);
  });

  it('runs on the clock it is given', async () => {
    let now = 5_000;
    const pending: { callback: () => unknown; at: number }[] = [];
    const clock: SampleClock = {
      now: () => now,
      setTimeout: (callback, ms) => pending.push({ callback, at: now + ms }),
      clearTimeout: () => undefined,
    };
    const times: number[] = [];
    const timer = new SampleTimer({
      clock,
      sample: async (timeMs) => {
        times.push(timeMs);
      },
    });
    timer.start();
    for (let step = 0; step < 3; step++) {
      const next = pending.shift();
      if (next === undefined) throw new Error('No sample scheduled');
      now = next.at;
      // The callback returns the sample's promise, so a fake clock can wait for it.
      await next.callback();
    }
    timer.stop();
    expect(times).toEqual([5_000, 6_000, 7_000]);
    expect(pending.map((entry) => entry.at)).toEqual([8_000]);
  });
});

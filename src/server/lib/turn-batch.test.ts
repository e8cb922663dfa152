import { describe, expect, it } from 'vitest';
import { TurnBatch } from './turn-batch.ts';

describe('TurnBatch', () => {
  it('runs the items of one turn of the event loop together and answers each its own result', async () => {
    const runs: number[][] = [];
    const batch = new TurnBatch<number, string>(async (items) => {
      runs.push([...items]);
      return items.map((item) => `#${item}`);
    });
    const first = await Promise.all([batch.add(1), batch.add(2), batch.add(3)]);
    const later = await batch.add(4);
    expect(first).toEqual(['#1', '#2', '#3']);
    expect(later).toBe('#4');
    expect(runs).toEqual([[1, 2, 3], [4]]);
  });

  it('takes items that come while a batch runs into the next one', async () => {
    const runs: number[][] = [];
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const batch = new TurnBatch<number, number>(async (items) => {
      runs.push([...items]);
      if (runs.length === 1) await held;
      return [...items];
    });
    const first = batch.add(1);
    await new Promise((resolve) => setImmediate(resolve));
    const second = [batch.add(2), batch.add(3)];
    release();
    expect(await first).toBe(1);
    expect(await Promise.all(second)).toEqual([2, 3]);
    expect(runs).toEqual([[1], [2, 3]]);
  });

  it('holds what comes while a batch runs until it has ended, then runs it as one batch', async () => {
    const runs: number[][] = [];
    let running = 0;
    let mostAtOnce = 0;
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const batch = new TurnBatch<number, number>(async (items) => {
      runs.push([...items]);
      running += 1;
      mostAtOnce = Math.max(mostAtOnce, running);
      if (runs.length === 1) await held;
      running -= 1;
      return [...items];
    });
    const first = batch.add(1);
    const later: Promise<number>[] = [];
    // Three more turns while the first batch runs: they wait, and go together.
    for (const item of [2, 3, 4]) {
      await new Promise((resolve) => setImmediate(resolve));
      later.push(batch.add(item));
    }
    await new Promise((resolve) => setImmediate(resolve));
    expect(runs).toEqual([[1]]);
    release();
    expect(await first).toBe(1);
    expect(await Promise.all(later)).toEqual([2, 3, 4]);
    expect(runs).toEqual([[1], [2, 3, 4]]);
    expect(mostAtOnce).toBe(1);
  });

  it('fails every item of a batch whose run throws, and runs the next batch anew', async () => {
    let fail = true;
    const batch = new TurnBatch<number, number>(async (items) => {
      if (fail) throw new Error('the database is away');
      return [...items];
    });
    const failed = await Promise.allSettled([batch.add(1), batch.add(2)]);
    expect(failed.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    expect(await batch.add(3)).toBe(3);
  });
});

import { describe, expect, it } from 'vitest';
import { judgeJail, randomGenerator, scheduleJails, type JailRow, type ServerLife } from './chaos-verdict.ts';

const MINUTE = 60_000;

describe('scheduleJails', () => {
  it('lays out whole-minute jails that end inside their part of the run and never overlap', () => {
    const runStart = 1_000_000;
    const runEnd = runStart + 10 * MINUTE;
    const slots = scheduleJails(randomGenerator(7), 50, 2, runStart, runEnd);
    expect(slots).toHaveLength(50);
    for (const [first, second] of slots) {
      if (first === undefined || second === undefined) throw new Error('two jails a guest');
      for (const slot of [first, second]) {
        expect(Number.isInteger(slot.minutes) && slot.minutes >= 1 && slot.minutes <= 3).toBe(true);
        expect(slot.startTime + slot.minutes * MINUTE).toBeLessThanOrEqual(runEnd);
      }
      expect(first.startTime + first.minutes * MINUTE).toBeLessThanOrEqual(second.startTime);
      expect(second.startTime).toBeGreaterThanOrEqual(runStart);
    }
  });

  it('gives a short run one-minute jails that end inside it', () => {
    const runStart = 5_000_000;
    const slots = scheduleJails(randomGenerator(3), 10, 1, runStart, runStart + 40_000);
    for (const [slot] of slots) {
      expect(slot?.minutes).toBe(1);
      const end = (slot?.startTime ?? 0) + MINUTE;
      expect(end).toBeGreaterThanOrEqual(runStart + 20_000);
      expect(end).toBeLessThanOrEqual(runStart + 40_000);
    }
  });

  it('repeats itself for the same seed', () => {
    expect(scheduleJails(randomGenerator(42), 3, 2, 0, 10 * MINUTE)).toEqual(scheduleJails(randomGenerator(42), 3, 2, 0, 10 * MINUTE));
  });
});

describe('judgeJail', () => {
  // Up from 10 s to 100 s, killed, down until 110 s, up again until 300 s.
  const lives: ServerLife[] = [
    { spawnedAt: 0, readyAt: 10_000, killedAt: 100_000 },
    { spawnedAt: 100_500, readyAt: 110_000, killedAt: 300_000 },
  ];
  const row = (startTime: number, endTime: number, startedAt: number | null, finishedAt: number | null): JailRow => ({
    id: 1,
    start_time: startTime,
    end_time: endTime,
    started_at: startedAt,
    finished_at: finishedAt,
    finish: finishedAt === null ? null : 'ignored',
  });

  it('measures the lateness from the end when a server ran then', () => {
    const judged = judgeJail(row(20_000, 80_000, 20_400, 81_000), lives);
    expect(judged).toEqual({ due: true, started: true, endedInRun: true, finished: true, endedWhileUp: true, startLatenessMs: 400, finishLatenessMs: 1_000 });
  });

  it('measures it from the restart when the end fell while no server ran', () => {
    const judged = judgeJail(row(40_000, 105_000, 40_500, 111_500), lives);
    expect(judged.endedWhileUp).toBe(false);
    expect(judged.finishLatenessMs).toBe(1_500);
  });

  it('counts a jail that never started as due when a server ran during it', () => {
    const judged = judgeJail(row(90_000, 150_000, null, null), lives);
    expect(judged).toMatchObject({ due: true, started: false, finished: false, startLatenessMs: null, finishLatenessMs: null });
  });

  it('does not hold a jail whose whole window fell while no server ran to have started', () => {
    expect(judgeJail(row(101_000, 109_000, null, null), lives).due).toBe(false);
  });

  it('does not hold a jail to have started when a server answered only in its last second', () => {
    expect(judgeJail(row(101_000, 110_500, null, null), lives).due).toBe(false);
  });

  it('does not hold a jail that ends after the last server stopped to have finished', () => {
    expect(judgeJail(row(200_000, 400_000, 200_300, null), lives)).toMatchObject({ due: true, started: true, endedInRun: false, finishLatenessMs: null });
  });
});

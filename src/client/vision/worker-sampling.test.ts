import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FrameFace, VisionEvents } from './analyser';
import type { Sample } from './sample';
import { WorkerSampling, type ReportPolicy, type SamplingReport } from './worker-sampling';

const START = 1_700_000_000_000;
const QUIET: VisionEvents = { motion: false, noMotion: false, darkness: false, nodding: false, away: false, back: false };

/** A camera frame as the worker sees it: only `close` matters here. */
function fakeFrame(): VideoFrame & { closed: boolean } {
  const frame = {
    closed: false,
    close() {
      frame.closed = true;
    },
  };
  return frame as unknown as VideoFrame & { closed: boolean };
}

/** Worker sampling over fake frames; `events` and `face` say what the analysis of the n-th frame (from 1) sees. */
function sampling(report: ReportPolicy, events: (n: number) => Partial<VisionEvents> = () => ({}), face: (n: number) => FrameFace | null = () => null) {
  const frames: ReturnType<typeof fakeFrame>[] = [];
  const times: number[] = [];
  const reports: SamplingReport[] = [];
  const sampler = new WorkerSampling({
    report,
    frame: async () => {
      const frame = fakeFrame();
      frames.push(frame);
      return frame;
    },
    analyse: async (frame, timeMs) => {
      times.push(timeMs);
      frame.close();
      return { result: { events: { ...QUIET, ...events(times.length) }, face: face(times.length) } } as unknown as Sample;
    },
    post: (heard) => reports.push(heard),
  });
  return { sampler, frames, times, reports };
}

describe('WorkerSampling', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: START });
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it('samples once a second on its own clock, with Date.now() as the time', async () => {
    const { sampler, times, frames } = sampling('every');
    sampler.start();
    await vi.advanceTimersByTimeAsync(3_000);
    sampler.stop();
    await vi.advanceTimersByTimeAsync(3_000);
    expect(times).toEqual([0, 1, 2, 3].map((second) => START + second * 1000));
    expect(frames.every((frame) => frame.closed)).toBe(true);
  });

  it('tells the jail only of the first sample and the samples with events', async () => {
    const { sampler, reports } = sampling('events', (n) => (n === 3 ? { motion: true } : n === 5 ? { darkness: true } : {}));
    sampler.start();
    await vi.advanceTimersByTimeAsync(5_500);
    sampler.stop();
    expect(reports.map((report) => (report.kind === 'sample' ? [report.analysed, report.timeMs - START] : report.kind))).toEqual([
      [1, 0],
      [3, 2_000],
      [5, 4_000],
    ]);
  });

  it('tells the jail when the face appears, leaves or moves a twentieth of the frame, not when it sways', async () => {
    const at = (x: number): FrameFace => ({ x, y: 0.4, size: 0.3 });
    const faces: (FrameFace | null)[] = [null, at(0.5), at(0.52), at(0.54), at(0.56), null, null, at(0.3)];
    const { sampler, reports } = sampling(
      'events',
      () => ({}),
      (n) => faces[n - 1] ?? null,
    );
    sampler.start();
    await vi.advanceTimersByTimeAsync(7_500);
    sampler.stop();
    expect(reports.map((report) => (report.kind === 'sample' ? report.analysed : 0))).toEqual([1, 2, 5, 6, 8]);
  });

  it('tells every sample when asked to', async () => {
    const { sampler, reports } = sampling('every');
    sampler.start();
    await vi.advanceTimersByTimeAsync(4_500);
    sampler.stop();
    expect(reports.map((report) => (report.kind === 'sample' ? report.analysed : 0))).toEqual([1, 2, 3, 4, 5]);
  });

  it('closes a frame that arrives after it was stopped, and says nothing of it', async () => {
    let deliver: (frame: VideoFrame) => void = () => undefined;
    const late = fakeFrame();
    const reports: SamplingReport[] = [];
    const analyse = vi.fn();
    const sampler = new WorkerSampling({
      report: 'every',
      frame: () => new Promise<VideoFrame>((resolve) => (deliver = resolve)),
      analyse,
      post: (heard) => reports.push(heard),
    });
    sampler.start();
    await vi.advanceTimersByTimeAsync(0);
    sampler.stop();
    deliver(late);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(late.closed).toBe(true);
    expect(analyse).not.toHaveBeenCalled();
    expect(reports).toEqual([]);
  });

  it('reports a failed sample with how many frames were analysed before, and goes on', async () => {
    const reports: SamplingReport[] = [];
    let calls = 0;
    const sampler = new WorkerSampling({
      report: 'events',
      frame: async () => fakeFrame(),
      analyse: async (frame) => {
        frame.close();
        calls += 1;
        if (calls === 2) throw new Error('copyTo failed');
        return { result: { events: QUIET, face: null } } as unknown as Sample;
      },
      post: (heard) => reports.push(heard),
    });
    sampler.start();
    await vi.advanceTimersByTimeAsync(2_500);
    sampler.stop();
    expect(calls).toBe(3);
    expect(reports.map((report) => [report.kind, report.analysed])).toEqual([
      ['sample', 1],
      ['error', 1],
    ]);
  });

  it('skips a sample when no frame came (a stalled camera)', async () => {
    const reports: SamplingReport[] = [];
    const sampler = new WorkerSampling({ report: 'every', frame: async () => null, analyse: vi.fn(), post: (heard) => reports.push(heard) });
    sampler.start();
    await vi.advanceTimersByTimeAsync(3_000);
    sampler.stop();
    expect(reports).toEqual([]);
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { VisionClient } from './client';
import { CAMERA_FAILURE_MESSAGE, Sampler, cameraConstraints, isIosDevice, openCamera, type SampleRecord, type SamplerOptions } from './capture';
import type { Sample } from './sample';
import type { SamplingOptions, SamplingReport } from './worker-sampling';

describe('isIosDevice', () => {
  const device = (userAgent: string, maxTouchPoints = 0) => isIosDevice({ userAgent, maxTouchPoints });

  it('knows iPhones and iPads', () => {
    expect(device('Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15', 5)).toBe(true);
    expect(device('Mozilla/5.0 (iPad; CPU OS 16_0 like Mac OS X) AppleWebKit/605.1.15', 5)).toBe(true);
  });

  it('knows an iPad that presents itself as a Mac by its touch screen', () => {
    expect(device('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15', 5)).toBe(true);
    expect(device('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15', 0)).toBe(false);
  });

  it('treats everything else as another device', () => {
    expect(device('Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/126.0 Mobile', 5)).toBe(false);
    expect(device('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/126.0')).toBe(false);
  });
});

describe('cameraConstraints', () => {
  it('asks iPhone and iPad for a width up to 640', () => {
    const video = cameraConstraints(true).video as MediaTrackConstraints;
    expect(video.width).toEqual({ ideal: 640, max: 640 });
    expect(video.frameRate).toBeUndefined();
  });

  it('asks other devices for a width up to 160 at up to 10 fps', () => {
    const video = cameraConstraints(false).video as MediaTrackConstraints;
    expect(video.width).toEqual({ ideal: 160, max: 160 });
    expect(video.frameRate).toEqual({ ideal: 10, max: 10 });
  });

  it('faces the guest unless told to face the desk', () => {
    expect((cameraConstraints(true).video as MediaTrackConstraints).facingMode).toBe('user');
    expect((cameraConstraints(false, 'environment').video as MediaTrackConstraints).facingMode).toBe('environment');
  });

  it('never asks for audio', () => {
    expect(cameraConstraints(false).audio).toBe(false);
  });
});

describe('openCamera', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('fails with the product’s message and keeps the reason', async () => {
    vi.stubGlobal('navigator', {
      mediaDevices: { getUserMedia: () => Promise.reject(new DOMException('no', 'NotAllowedError')) },
    });
    await expect(openCamera(false)).rejects.toMatchObject({ message: CAMERA_FAILURE_MESSAGE, reason: 'NotAllowedError' });
  });

  it('fails the same way where there is no camera API at all', async () => {
    vi.stubGlobal('navigator', {});
    await expect(openCamera(false)).rejects.toMatchObject({ message: CAMERA_FAILURE_MESSAGE, reason: 'Unsupported' });
  });
});

describe('Sampler', () => {
  const sample = { result: { motionScore: 0 }, timing: {}, width: 160, height: 120, restarted: false } as unknown as Sample;

  /** A client whose worker sampling is driven by the test through `report`. */
  function fakeClient(options: { attach?: boolean } = {}) {
    let listener: ((report: SamplingReport) => void) | null = null;
    const client = {
      attachTrack: vi.fn(async () => options.attach ?? true),
      startSampling: vi.fn(async (_options: SamplingOptions, onReport: (report: SamplingReport) => void) => {
        listener = onReport;
      }),
      stopSampling: vi.fn(async () => {
        listener = null;
      }),
      analyse: vi.fn(),
    };
    const report = (heard: SamplingReport) => listener?.(heard);
    return { client: client as unknown as VisionClient, mock: client, report };
  }

  /** A sampler on the fake client's track, recording what it is told. */
  function watched(client: VisionClient, options: Partial<SamplerOptions> = {}) {
    const records: SampleRecord[] = [];
    const methods: string[] = [];
    const errors: unknown[] = [];
    const sampler = new Sampler({
      client,
      video: {} as HTMLVideoElement,
      track: {} as MediaStreamTrack,
      onSample: (record) => records.push(record),
      onMethod: (method) => methods.push(method),
      onError: (error) => errors.push(error),
      ...options,
    });
    return { sampler, records, methods, errors };
  }

  const sampleReport = (timeMs: number, analysed: number): SamplingReport => ({
    kind: 'sample',
    sample,
    timeMs,
    dueAt: performance.timeOrigin + performance.now(),
    analysed,
  });

  beforeEach(() => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    // The track processor needs nothing but a worker from the main thread.
    vi.stubGlobal('Worker', class {});
  });

  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('lets the worker sample the track on its own clock and passes on what it reports', async () => {
    const { client, mock, report } = fakeClient();
    const { sampler, records, methods } = watched(client, { report: 'events', jitterMs: 100 });
    sampler.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(methods).toEqual(['track-processor']);
    expect(mock.startSampling).toHaveBeenCalledWith({ report: 'events', intervalMs: undefined, jitterMs: 100 }, expect.any(Function));
    // Nothing runs on this side between reports: no timer of its own.
    expect(vi.getTimerCount()).toBe(0);
    report(sampleReport(1_700_000_000_000, 1));
    report(sampleReport(1_700_000_007_000, 8));
    expect(records.map((record) => [record.method, record.timeMs])).toEqual([
      ['track-processor', 1_700_000_000_000],
      ['track-processor', 1_700_000_007_000],
    ]);
    sampler.stop();
    expect(mock.stopSampling).toHaveBeenCalledOnce();
    report(sampleReport(1_700_000_008_000, 9));
    expect(records).toHaveLength(2);
  });

  it('reports a failure of the worker once it has sampled, and falls back when it never has', async () => {
    const { client, mock, report } = fakeClient();
    const { sampler, errors } = watched(client);
    sampler.start();
    await vi.advanceTimersByTimeAsync(0);
    report(sampleReport(1_700_000_000_000, 1));
    report({ kind: 'error', message: 'copyTo failed', analysed: 1 });
    expect(errors).toEqual([new Error('copyTo failed')]);
    expect(sampler.method).toBe('track-processor');

    report({ kind: 'error', message: 'No session', analysed: 0 });
    expect(mock.stopSampling).toHaveBeenCalledOnce();
    // Nothing else is available in Node: no VideoFrame, createImageBitmap or ImageCapture.
    expect(sampler.method).toBeNull();
    sampler.stop();
  });

  it('falls back to the next method when the track processor is not available', async () => {
    const { client, mock } = fakeClient({ attach: false });
    const { sampler, methods, errors } = watched(client);
    sampler.start();
    await vi.advanceTimersByTimeAsync(0);
    sampler.stop();
    expect(mock.startSampling).not.toHaveBeenCalled();
    // Nothing else is available in Node: the main-thread timer finds no method.
    expect(methods).toEqual([]);
    expect(sampler.method).toBeNull();
    expect(errors).toEqual([new Error('No capture method works in this browser')]);
  });
});

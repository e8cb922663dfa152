import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { VisionClient } from './client';
import { CAMERA_FAILURE_MESSAGE, Sampler, cameraConstraints, isIosDevice, openCamera, type SampleRecord } from './capture';
import type { Sample } from './worker';

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

  function fakeClient(options: { attach?: boolean } = {}) {
    const times: number[] = [];
    const client = {
      attachTrack: vi.fn(async () => options.attach ?? true),
      analyseLatest: vi.fn(async (timeMs: number) => {
        times.push(timeMs);
        return sample;
      }),
      analyse: vi.fn(),
    };
    return { client: client as unknown as VisionClient, mock: client, times };
  }

  beforeEach(() => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    // The track processor needs nothing but a worker from the main thread.
    vi.stubGlobal('Worker', class {});
  });

  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('samples once a second with Date.now() as the time, one at a time', async () => {
    const { client, times } = fakeClient();
    const records: SampleRecord[] = [];
    const sampler = new Sampler({
      client,
      video: {} as HTMLVideoElement,
      track: {} as MediaStreamTrack,
      method: 'track-processor',
      onSample: (record) => records.push(record),
    });
    sampler.start();
    await vi.advanceTimersByTimeAsync(0);
    await vi.advanceTimersByTimeAsync(5_000);
    sampler.stop();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(times).toEqual([0, 1, 2, 3, 4, 5].map((second) => 1_700_000_000_000 + second * 1000));
    expect(records.map((record) => record.method)).toEqual(Array(6).fill('track-processor'));
  });

  it('skips the samples it missed rather than catching up in a burst', async () => {
    const { client, mock, times } = fakeClient();
    let slow = true;
    mock.analyseLatest.mockImplementation(async (timeMs: number) => {
      times.push(timeMs);
      if (slow) {
        slow = false;
        await new Promise((resolve) => setTimeout(resolve, 2_500));
      }
      return sample;
    });
    const sampler = new Sampler({ client, video: {} as HTMLVideoElement, track: {} as MediaStreamTrack, onSample: () => {} });
    sampler.start();
    await vi.advanceTimersByTimeAsync(4_100);
    sampler.stop();
    // 0 took 2.5 s; 1 s and 2 s were missed; then 3 s and 4 s.
    expect(times.map((time) => time - 1_700_000_000_000)).toEqual([0, 3_000, 4_000]);
  });

  it('falls back to the next method when the track processor is not available', async () => {
    const { client } = fakeClient({ attach: false });
    const methods: string[] = [];
    const sampler = new Sampler({
      client,
      video: {} as HTMLVideoElement,
      track: {} as MediaStreamTrack,
      onSample: () => {},
      onMethod: (method) => methods.push(method),
      onError: () => {},
    });
    sampler.start();
    await vi.advanceTimersByTimeAsync(0);
    sampler.stop();
    // Nothing else is available in Node: no VideoFrame, createImageBitmap or ImageCapture.
    expect(methods).toEqual([]);
    expect(sampler.method).toBeNull();
  });
});

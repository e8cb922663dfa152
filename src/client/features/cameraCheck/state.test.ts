import { describe, expect, it } from 'vitest';
import type { FrameResult } from '../../vision/analyser';
import type { SampleRecord } from '../../vision/capture';
import { readQuery } from './query';
import { LOG_LIMIT, RECENT_MOTION_MS, friendlyChecks, initialState, noMotionSeconds, reducer, type CheckState } from './state';
import { texts } from './texts';

function record(events: Partial<FrameResult['events']> = {}, timeMs = 1_000, noddingCount = 0): SampleRecord {
  const result = {
    events: { noMotion: false, motion: false, darkness: false, nodding: false, away: false, back: false, ...events },
    noddingCount,
  } as FrameResult;
  return {
    method: 'video-frame',
    timeMs,
    requestedAt: 0,
    mainMs: 0,
    resultAt: 0,
    sample: { result, width: 160, height: 120, restarted: false, timing: {} as SampleRecord['sample']['timing'] },
  } as SampleRecord;
}

function sample(state: CheckState, events: Partial<FrameResult['events']>, sleeper = false, timeMs = 1_000): CheckState {
  return reducer(state, { type: 'sample', record: record(events, timeMs, 5), sleeper, ios: false });
}

describe('the camera check state', () => {
  it('logs the start with the first sample, then each event, newest first', () => {
    let state = sample(initialState, {});
    expect(state.phase).toBe('running');
    expect(state.log.map((entry) => entry.text)).toEqual(['started']);
    state = sample(state, { noMotion: true, darkness: true }, false, 2_000);
    expect(state.samples).toBe(2);
    expect(state.log.map((entry) => [entry.kind, entry.text])).toEqual([
      ['darkness', 'darkness'],
      ['no-motion', 'no_motion'],
      ['info', 'started'],
    ]);
    expect(new Set(state.log.map((entry) => entry.id)).size).toBe(3);
  });

  it('logs an empty seat with the away count that applies, and the face seen again', () => {
    const away = sample(initialState, { away: true }, false, 2_000);
    expect(away.log[0]).toMatchObject({ kind: 'away', text: 'away', values: { seconds: 180 } });
    expect(sample(initialState, { away: true }, true).log[0].values).toEqual({ seconds: 90 });
    expect(sample(away, { back: true }, false, 3_000).log[0]).toMatchObject({ kind: 'back', text: 'back' });
    for (const language of ['en', 'ja'] as const) {
      expect(texts[language].log.away).toContain('{{seconds}}');
      expect(texts[language].log.back).not.toBe('');
    }
  });

  it("names the no-motion count that applies: the crate's, shorter for sleepers", () => {
    expect(sample(initialState, { noMotion: true }, false).log[0].values).toEqual({ seconds: noMotionSeconds(false) });
    expect(sample(initialState, { noMotion: true }, true).log[0].values).toEqual({ seconds: noMotionSeconds(true) });
    expect(noMotionSeconds(true)).toBeLessThan(noMotionSeconds(false));
    const restarted = reducer(initialState, { type: 'restarted', sleeper: true, timeMs: 5 });
    expect(restarted.log[0]).toMatchObject({ text: 'restarted', values: { seconds: noMotionSeconds(true) } });
  });

  it('counts approved views and says when they are cleared', () => {
    let state = reducer(initialState, { type: 'whitelist', count: 1, timeMs: 1 });
    expect(state.whitelistCount).toBe(1);
    expect(state.log[0]).toMatchObject({ text: 'view_added', values: { count: 1 } });
    state = reducer(state, { type: 'whitelist', count: 0, timeMs: 2 });
    expect(state.whitelistCount).toBe(0);
    expect(state.log[0].text).toBe('views_cleared');
  });

  it(`keeps the newest ${LOG_LIMIT} entries`, () => {
    let state = initialState;
    for (let i = 0; i < LOG_LIMIT + 10; i++) state = reducer(state, { type: 'whitelist', count: i + 1, timeMs: i });
    expect(state.log).toHaveLength(LOG_LIMIT);
    expect(state.log[0].values).toEqual({ count: LOG_LIMIT + 10 });
  });

  it('has a text for every log entry it makes', () => {
    let state = sample(initialState, { noMotion: true, motion: true, darkness: true, nodding: true });
    state = reducer(state, { type: 'whitelist', count: 1, timeMs: 1 });
    state = reducer(state, { type: 'whitelist', count: 0, timeMs: 1 });
    state = reducer(state, { type: 'restarted', sleeper: false, timeMs: 1 });
    for (const entry of state.log) expect(Object.keys(texts.en.log)).toContain(entry.text);
  });

  it('fails with the camera failure or the reason the analysis could not start', () => {
    expect(reducer(initialState, { type: 'failed', failure: { kind: 'camera', reason: 'NotAllowedError' } })).toMatchObject({
      phase: 'failed',
      failure: { kind: 'camera', reason: 'NotAllowedError' },
    });
  });

  it('starts anew on a retry, keeping the log', () => {
    let state = reducer(initialState, { type: 'whitelist', count: 1, timeMs: 1 });
    state = reducer(state, { type: 'failed', failure: { kind: 'camera', reason: 'NotAllowedError' } });
    const retried = reducer(state, { type: 'retried' });
    expect(retried).toMatchObject({ phase: 'starting', failure: null, whitelistCount: 0 });
    expect(retried.log).toEqual(state.log);
  });
});

describe('the camera check query', () => {
  it('forces an engine or a capture method, and falls back to auto', () => {
    expect(readQuery('?engine=js&capture=image-bitmap&sleeper=1')).toEqual({ engine: 'js', capture: 'image-bitmap', sleeper: true });
    expect(readQuery('?capture=none')).toMatchObject({ capture: 'none' });
    expect(readQuery('?engine=gpu&capture=magic&sleeper=yes')).toEqual({ engine: 'auto', capture: 'auto', sleeper: false });
  });
});

describe('the friendly check', () => {
  const frame = (extra: Partial<FrameResult>) => ({ allBlack: false, dark: false, ...extra }) as FrameResult;
  const moved = (x: number, y: number, timeMs = 1_000) => ({ timeMs, centroid: { x, y } });

  it('waits for a first frame and a first movement', () => {
    const checks = friendlyChecks(null, null, 1_000);
    expect([checks.frame.key, checks.light.key, checks.motion.key]).toEqual(['find_you', 'light_waiting', 'wave']);
    expect(checks.ready).toBe(false);
  });

  it('is ready when the light is good and the guest moved, recently, in the middle of the picture', () => {
    const checks = friendlyChecks(frame({}), moved(0.5, 0.4), 2_000);
    expect([checks.frame.key, checks.light.key, checks.motion.key]).toEqual(['in_frame', 'light_good', 'moving']);
    expect(checks.ready).toBe(true);
    expect(friendlyChecks(frame({}), moved(0.5, 0.4), 1_000 + RECENT_MOTION_MS + 1).motion.key).toBe('wave');
  });

  it('says what to fix: too dark, a covered lens, a guest at the edge', () => {
    expect(friendlyChecks(frame({ dark: true }), moved(0.5, 0.5), 1_000).light).toEqual({ verdict: 'fix', key: 'too_dark' });
    const covered = friendlyChecks(frame({ allBlack: true, dark: true }), null, 1_000);
    expect([covered.frame.key, covered.light.key]).toEqual(['covered', 'covered']);
    expect(friendlyChecks(frame({}), moved(0.05, 0.5), 1_000).frame).toEqual({ verdict: 'fix', key: 'at_edge' });
  });
});

import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { IMPLEMENTATIONS, checkTarget, parseArgs, parseResolution, speedup, writeJson, type ResultRow } from './args';
import { median } from './steps';

describe('bench arguments', () => {
  it('defaults to every implementation at 160x120 and 640x480 with the camera frames', () => {
    expect(parseArgs([])).toEqual({
      json: null,
      rounds: 6,
      warmup: 3,
      camera: true,
      implementations: [...IMPLEMENTATIONS],
      resolutions: [
        { width: 160, height: 120 },
        { width: 640, height: 480 },
      ],
      help: false,
    });
  });

  it('takes --json FILE and --json=FILE', () => {
    expect(parseArgs(['--json', 'out/bench.json']).json).toBe('out/bench.json');
    expect(parseArgs(['--json=out.json']).json).toBe('out.json');
    expect(() => parseArgs(['--json'])).toThrow(/--json needs a value/);
    expect(() => parseArgs(['--json', '--quick'])).toThrow(/--json needs a value/);
    expect(() => parseArgs(['--json='])).toThrow(/file name/);
  });

  it('takes rounds, warm-up, quick, no-camera, only and resolutions', () => {
    const options = parseArgs(['--rounds', '9', '--warmup=2', '--no-camera', '--only', 'opencv, wasm-simd', '--resolutions', '320x240']);
    expect(options).toMatchObject({ rounds: 9, warmup: 2, camera: false, resolutions: [{ width: 320, height: 240 }] });
    // Kept in the canonical order.
    expect(options.implementations).toEqual(['wasm-simd', 'opencv']);
    expect(parseArgs(['--quick'])).toMatchObject({ rounds: 2, warmup: 1 });
  });

  it('rejects what it does not know', () => {
    expect(() => parseArgs(['--fast'])).toThrow(/Unknown argument "--fast"/);
    expect(() => parseArgs(['--rounds', '0'])).toThrow(/positive integer/);
    expect(() => parseArgs(['--rounds', 'many'])).toThrow(/positive integer/);
    expect(() => parseArgs(['--only', 'wasm,js'])).toThrow(/--only takes/);
    expect(() => parseArgs(['--resolutions', '640*480'])).toThrow(/Not a resolution/);
    expect(() => parseResolution('0x10')).toThrow(/out of range/);
    expect(parseArgs(['--help']).help).toBe(true);
  });
});

const rows: ResultRow[] = [
  { implementation: 'wasm-simd', resolution: '160x120', step: 'total', medianMicros: 40 },
  { implementation: 'opencv', resolution: '160x120', step: 'total', medianMicros: 520 },
  { implementation: 'js', resolution: '160x120', step: 'total', medianMicros: 300 },
  { implementation: 'wasm-simd', resolution: '640x480', step: 'total', medianMicros: 500 },
  { implementation: 'wasm-simd', resolution: '640x480', step: 'patrol', medianMicros: 100 },
  { implementation: 'opencv', resolution: '640x480', step: 'total', medianMicros: 4500 },
];

describe('bench results', () => {
  it('computes peer / wasm-simd on the totals', () => {
    expect(speedup(rows, 'opencv', '160x120')).toBe(13);
    expect(speedup(rows, 'js', '160x120')).toBe(7.5);
    expect(speedup(rows, 'opencv', '640x480')).toBe(9);
    expect(speedup(rows, 'js', '640x480')).toBeUndefined();
  });

  it('holds the target only when OpenCV.js is 10x slower at every resolution', () => {
    const verdict = checkTarget(rows, ['160x120', '640x480']);
    expect(verdict.holds).toBe(false);
    expect(verdict.lines).toEqual(['160x120: opencv/wasm-simd 13.0x (target 10x) ok', '640x480: opencv/wasm-simd 9.0x (target 10x) MISSED']);
    expect(checkTarget(rows, ['160x120']).holds).toBe(true);
    expect(checkTarget(rows, ['320x240'])).toEqual({ holds: false, lines: ['320x240: not measured (needs wasm-simd and opencv)'] });
    expect(checkTarget(rows, []).holds).toBe(false);
  });

  it('takes medians', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });

  describe('JSON', () => {
    let dir = '';
    afterEach(async () => {
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    it('writes [{implementation, resolution, step, medianMicros}], creating the directory', async () => {
      dir = await mkdtemp(join(tmpdir(), 'warden-bench-'));
      const path = await writeJson(join(dir, 'nested', 'bench.json'), [
        { implementation: 'wasm-simd', resolution: '640x480', step: 'total', medianMicros: 512.3456 },
        { implementation: 'opencv', resolution: '640x480', step: 'luma', medianMicros: 300 },
      ]);
      expect(path).toBe(join(dir, 'nested', 'bench.json'));
      expect(JSON.parse(await readFile(path, 'utf8'))).toEqual([
        { implementation: 'wasm-simd', resolution: '640x480', step: 'total', medianMicros: 512.35 },
        { implementation: 'opencv', resolution: '640x480', step: 'luma', medianMicros: 300 },
      ]);
    });
  });
});

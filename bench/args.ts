/**
 * The benchmark's command line, its JSON output and the target check: the
 * parts of `bench/run.ts` that are logic rather than measurement.
 */

import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

export const IMPLEMENTATIONS = ['wasm-simd', 'wasm-scalar', 'js', 'opencv'] as const;
export type Implementation = (typeof IMPLEMENTATIONS)[number];

export interface Resolution {
  width: number;
  height: number;
}

export const DEFAULT_RESOLUTIONS: readonly Resolution[] = [
  { width: 160, height: 120 },
  { width: 640, height: 480 },
];

/** wasm-simd must be at least this many times faster than OpenCV.js on the total. */
export const TARGET_SPEEDUP = 10;

export interface BenchOptions {
  /** Where to write the JSON rows, if anywhere. */
  json: string | null;
  /** Measured passes over the frame sequence for the totals (the step timings take half as many). */
  rounds: number;
  /** Unmeasured passes first, for the JIT and the wasm tier-up. */
  warmup: number;
  /** Whether to use (and if needed capture) the fake-camera frames. */
  camera: boolean;
  implementations: Implementation[];
  resolutions: Resolution[];
  help: boolean;
}

export const USAGE = `npm run bench -- [options]

  --json FILE            also write [{implementation, resolution, step, medianMicros}] to FILE
  --rounds N             measured passes over the frames for the totals (default 6; steps use half)
  --warmup N             unmeasured passes first (default 3)
  --quick                --rounds 2 --warmup 1
  --no-camera            synthetic frames only (no Chromium fake-camera capture)
  --only LIST            implementations, comma-separated: ${IMPLEMENTATIONS.join(',')}
  --resolutions LIST     e.g. 160x120,640x480 (default)
  --help                 this text`;

export function resolutionName({ width, height }: Resolution): string {
  return `${width}x${height}`;
}

export function parseResolution(text: string): Resolution {
  const match = /^(\d+)x(\d+)$/.exec(text.trim());
  if (!match) throw new Error(`Not a resolution: "${text}" (expected WIDTHxHEIGHT, e.g. 640x480)`);
  const width = Number(match[1]);
  const height = Number(match[2]);
  if (width < 1 || height < 1 || width > 4096 || height > 4096) throw new Error(`Resolution out of range: ${text}`);
  return { width, height };
}

function positiveInteger(flag: string, text: string | undefined): number {
  const value = Number(text);
  if (text === undefined || !Number.isInteger(value) || value < 1) throw new Error(`${flag} needs a positive integer, not "${text ?? ''}"`);
  return value;
}

function isImplementation(name: string): name is Implementation {
  return (IMPLEMENTATIONS as readonly string[]).includes(name);
}

/** Parses the arguments after `npm run bench --`. Throws on anything it does not know. */
export function parseArgs(argv: readonly string[]): BenchOptions {
  const options: BenchOptions = {
    json: null,
    rounds: 6,
    warmup: 3,
    camera: true,
    implementations: [...IMPLEMENTATIONS],
    resolutions: [...DEFAULT_RESOLUTIONS],
    help: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const argument = argv[i];
    const equals = argument.indexOf('=');
    const flag = argument.startsWith('--') && equals > 0 ? argument.slice(0, equals) : argument;
    const inline = argument.startsWith('--') && equals > 0 ? argument.slice(equals + 1) : undefined;
    const value = (): string => {
      if (inline !== undefined) return inline;
      const next = argv[i + 1];
      if (next === undefined || next.startsWith('--')) throw new Error(`${flag} needs a value`);
      i++;
      return next;
    };
    switch (flag) {
      case '--json': {
        const file = value();
        if (file === '') throw new Error('--json needs a file name');
        options.json = file;
        break;
      }
      case '--rounds':
        options.rounds = positiveInteger(flag, value());
        break;
      case '--warmup':
        options.warmup = positiveInteger(flag, value());
        break;
      case '--quick':
        options.rounds = 2;
        options.warmup = 1;
        break;
      case '--no-camera':
        options.camera = false;
        break;
      case '--only': {
        const names = value()
          .split(',')
          .map((name) => name.trim())
          .filter((name) => name !== '');
        const unknown = names.filter((name) => !isImplementation(name));
        if (unknown.length > 0 || names.length === 0) {
          throw new Error(`--only takes ${IMPLEMENTATIONS.join(', ')}; got "${unknown.join(', ') || names.join(',')}"`);
        }
        options.implementations = IMPLEMENTATIONS.filter((name) => names.includes(name));
        break;
      }
      case '--resolutions':
        options.resolutions = value().split(',').map(parseResolution);
        break;
      case '--help':
      case '-h':
        options.help = true;
        break;
      default:
        throw new Error(`Unknown argument "${argument}"\n\n${USAGE}`);
    }
  }
  return options;
}

/** One JSON row: the median time of one step of one implementation at one resolution. */
export interface ResultRow {
  implementation: Implementation;
  resolution: string;
  /** `total` for the whole per-frame pipeline (frame copy, analysis, patrol thumbnail). */
  step: string;
  medianMicros: number;
}

/** Writes the rows as a JSON array, creating the directory if needed; returns the absolute path. */
export async function writeJson(file: string, rows: readonly ResultRow[]): Promise<string> {
  const path = resolve(file);
  await mkdir(dirname(path), { recursive: true });
  const clean = rows.map(({ implementation, resolution, step, medianMicros }) => ({
    implementation,
    resolution,
    step,
    medianMicros: Math.round(medianMicros * 100) / 100,
  }));
  await writeFile(path, `${JSON.stringify(clean, null, 2)}\n`);
  return path;
}

function total(rows: readonly ResultRow[], implementation: Implementation, resolution: string): number | undefined {
  return rows.find((row) => row.implementation === implementation && row.resolution === resolution && row.step === 'total')?.medianMicros;
}

/** `peer / wasm-simd` on the total at one resolution, or undefined when either is missing. */
export function speedup(rows: readonly ResultRow[], peer: Implementation, resolution: string): number | undefined {
  const simd = total(rows, 'wasm-simd', resolution);
  const other = total(rows, peer, resolution);
  if (simd === undefined || other === undefined || simd <= 0) return undefined;
  return other / simd;
}

export interface TargetVerdict {
  holds: boolean;
  /** One line per resolution, e.g. `640x480: opencv/wasm-simd 14.2x (target 10x) ok`. */
  lines: string[];
}

/** Whether wasm-simd is at least 10x faster than OpenCV.js on the total at every resolution. */
export function checkTarget(rows: readonly ResultRow[], resolutions: readonly string[]): TargetVerdict {
  const lines: string[] = [];
  let holds = resolutions.length > 0;
  for (const resolution of resolutions) {
    const ratio = speedup(rows, 'opencv', resolution);
    if (ratio === undefined) {
      holds = false;
      lines.push(`${resolution}: not measured (needs wasm-simd and opencv)`);
    } else {
      const ok = ratio >= TARGET_SPEEDUP;
      holds &&= ok;
      lines.push(`${resolution}: opencv/wasm-simd ${ratio.toFixed(1)}x (target ${TARGET_SPEEDUP}x) ${ok ? 'ok' : 'MISSED'}`);
    }
  }
  return { holds, lines };
}

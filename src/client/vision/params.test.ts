import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as layout from './layout.generated';
import * as params from './params.generated';

/** `pub const NAME: type = value;` of a crate source, read here independently of the generator. */
function crateConstants(file: string): Map<string, number> {
  const rust = readFileSync(new URL(`../../../crates/vision/src/${file}`, import.meta.url), 'utf8');
  const found = new Map<string, number>();
  for (const [, name, value] of rust.matchAll(/^pub const (\w+): \w+ = ([\d_.]+);$/gm)) {
    found.set(name, Number(value.replaceAll('_', '')));
  }
  return found;
}

describe('vision parameters', () => {
  it("are the crate's, every one of them and nothing else", () => {
    const crate = crateConstants('params.rs');
    expect(crate.size).toBeGreaterThan(10);
    expect(Object.fromEntries(Object.entries(params))).toEqual(Object.fromEntries(crate));
  });

  it('include the no-motion rule of docs/vision.md', () => {
    expect([params.NO_MOTION_THRESHOLD, params.NO_MOTION_THRESHOLD_IOS]).toEqual([1.5, 3.5]);
    expect([params.NO_MOTION_COUNT_S, params.NO_MOTION_COUNT_SLEEPER_S]).toEqual([180, 90]);
  });
});

describe('the result layout', () => {
  it("is the crate's, every word and bit of it", () => {
    const crate = crateConstants('layout.rs');
    expect(crate.size).toBeGreaterThan(20);
    expect(Object.fromEntries(Object.entries(layout))).toEqual(Object.fromEntries(crate));
  });

  it('gives each word of the record one field, the area colours their seven', () => {
    const words = Object.entries(layout).filter(([name]) => name.startsWith('WORD_'));
    const taken = words.flatMap(([name, word]) => (name === 'WORD_AREA_MEANS' ? [0, 1, 2, 3, 4, 5, 6].map((i) => word + i) : [word]));
    expect(new Set(taken).size).toBe(taken.length);
    expect(Math.max(...taken)).toBe(layout.RESULT_WORDS - 1);
  });
});

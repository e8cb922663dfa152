import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as params from './params.generated';

/** `pub const NAME: type = value;` of the crate's params.rs, read here independently of the generator. */
function crateParams(): Map<string, number> {
  const rust = readFileSync(new URL('../../../crates/vision/src/params.rs', import.meta.url), 'utf8');
  const found = new Map<string, number>();
  for (const [, name, value] of rust.matchAll(/^pub const (\w+): \w+ = ([\d_.]+);$/gm)) {
    found.set(name, Number(value.replaceAll('_', '')));
  }
  return found;
}

describe('vision parameters', () => {
  it("are the crate's, every one of them and nothing else", () => {
    const crate = crateParams();
    expect(crate.size).toBeGreaterThan(10);
    expect(Object.fromEntries(Object.entries(params))).toEqual(Object.fromEntries(crate));
  });

  it('include the no-motion rule of docs/vision.md', () => {
    expect([params.NO_MOTION_THRESHOLD, params.NO_MOTION_THRESHOLD_IOS]).toEqual([1.5, 3.5]);
    expect([params.NO_MOTION_COUNT_S, params.NO_MOTION_COUNT_SLEEPER_S]).toEqual([180, 90]);
  });
});

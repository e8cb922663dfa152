/**
 * The vision parameters have one home, the crate's params.rs, which
 * params.generated.ts copies (params.test.ts checks the copy). This fails
 * when one of their values is typed again in the code of src/: a second copy
 * would drift from the crate unnoticed. Comments may name the values.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../', import.meta.url));
const HOME = 'client/vision/params.generated.ts';
/** The code that analyses the camera or shows its analysis: there even common numbers are the crate's. */
const VISION_CODE = ['client/vision/', 'client/features/cameraCheck/', 'client/features/jail/'];

interface LiteralRule {
  what: string;
  pattern: RegExp;
  /** Where the literal may not appear: all of src, or the vision code only (a value common elsewhere). */
  scope: 'src' | 'vision';
}

/** A number not part of a longer one (nor of a name, a version or a decimal). */
function number(...spellings: string[]): RegExp {
  const alternatives = spellings.map((spelling) => spelling.replace('.', '\\.')).join('|');
  return new RegExp(`(?<![\\w.])(?:${alternatives})(?![\\w.])`);
}

const RULES: LiteralRule[] = [
  { what: 'the no-motion threshold 1.5', pattern: number('1.5'), scope: 'src' },
  { what: 'the iOS no-motion threshold 3.5', pattern: number('3.5'), scope: 'src' },
  { what: 'the no-motion count 180 s', pattern: number('180', '180_000', '180000'), scope: 'src' },
  { what: "the sleepers' no-motion count 90 s", pattern: number('90_000', '90000'), scope: 'src' },
  { what: "the sleepers' no-motion count 90 s", pattern: number('90'), scope: 'vision' },
  { what: 'the darkness count 30 s', pattern: number('30_000', '30000'), scope: 'vision' },
  { what: 'the nodding window 15 s', pattern: number('15_000', '15000'), scope: 'vision' },
  { what: 'the nodding step 0.02', pattern: number('0.02'), scope: 'vision' },
  { what: 'the largest frame side 4096', pattern: number('4096', '4_096'), scope: 'vision' },
];

/** Every source file of src/ but tests, test helpers and the home, relative to src/. */
function sourceFiles(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'test' ? [] : sourceFiles(path);
    const name = relative(SRC, path);
    if (!/\.tsx?$/.test(name) || /\.test\.tsx?$/.test(name) || /\.d\.ts$/.test(name) || name === HOME) return [];
    return [name];
  });
}

/** The code without its comments (a `//` after a colon is a URL's, not a comment). */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');
}

/** `file:line: text` of each line where `pattern` matches. */
function hits(files: readonly string[], pattern: RegExp): string[] {
  return files.flatMap((file) =>
    code(readFileSync(join(SRC, file), 'utf8'))
      .split('\n')
      .flatMap((line, index) => (pattern.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : [])),
  );
}

describe('the vision parameters live only in the crate', () => {
  const files = sourceFiles();
  const visionFiles = files.filter((file) => VISION_CODE.some((prefix) => file.startsWith(prefix)));

  it('finds the code it checks', () => {
    expect(visionFiles).toContain('client/vision/js-analyser.ts');
    expect(visionFiles).toContain('client/features/cameraCheck/index.tsx');
    expect(files).toContain('shared/constants.ts');
  });

  for (const rule of RULES) {
    it(`${rule.what} (${rule.pattern.source}) is not typed in ${rule.scope === 'src' ? 'src/' : 'the vision code'}`, () => {
      expect(hits(rule.scope === 'src' ? files : visionFiles, rule.pattern)).toEqual([]);
    });
  }

  it('catches a typed copy', () => {
    expect(number('1.5').test('const NO_MOTION_THRESHOLD = 1.5;')).toBe(true);
    expect(number('90').test('const SLEEPER_S = 90;')).toBe(true);
    expect(number('90').test('version 1.90.2, 900, x90')).toBe(false);
    expect(code('const a = 2; // 180 s\n/* 1.5 */ const b = "http://x/180";')).toBe('const a = 2; \n const b = "http://x/180";');
  });
});

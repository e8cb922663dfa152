import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Each rule's literal is written once, in its home (docs/rules.md); every
 * other piece of the product's code names the constant. One row per rule:
 * the spellings its literal can take, its home, where the ban holds (all of
 * src/, or only the code that analyses the camera, where even a common
 * number such as 90 is the crate's), and a line the spelling catches, so
 * that a row cannot silently guard nothing. Tests, test helpers and
 * comments may spell the values out.
 *
 * The vision parameters' home is the crate's params.rs; its TypeScript copy,
 * params.generated.ts, is generated from it (params.test.ts checks that the
 * two agree), so it is the one file of src/ that may hold them.
 */
interface RuleHome {
  rule: string;
  literal: RegExp;
  home: string;
  within: 'src' | 'vision code';
  caught: string;
}

/** A number not part of a longer one (nor of a name, a version or a decimal), and not negative (an angle such as rotate(-90)). */
function number(...spellings: string[]): RegExp {
  const alternatives = spellings.map((spelling) => spelling.replace('.', '\\.')).join('|');
  return new RegExp(`(?<![\\w.-])(?:${alternatives})(?![\\w.])`);
}

const VISION_PARAMS = 'src/client/vision/params.generated.ts';

const RULE_HOMES: readonly RuleHome[] = [
  {
    rule: 'a week in ms (suspensions, weekly repeats)',
    literal: /\b604_?800_?000\b|\b7\s*\*\s*(?:24\b|DAY|86_?400_?000\b)/,
    home: 'src/shared/durations.ts',
    within: 'src',
    caught: 'const WEEK = 7 * DAY_MS;',
  },
  {
    rule: 'the six-hour cutoff for changing a booking',
    literal: /\b21_?600_?000\b|\b6\s*\*\s*(?:HOUR|60\s*\*\s*60\b|3_?600_?000\b)/,
    home: 'src/shared/reservations.ts',
    within: 'src',
    caught: 'if (start - now < 21_600_000) refuse();',
  },
  {
    rule: 'the plan codes (trial 1, university 2, standard 3, free 4, light 5)',
    literal:
      /\b(?:trial|university|standard|free|light)['"]?\s*:\s*(?:\{\s*code\s*:\s*)?[1-5]\b|\bsubscription_?plan\w*\s*(?:[!=]==?|[:,=]|\bin\b)\s*\(?\s*[1-5]\b/i,
    home: 'src/shared/plans.ts',
    within: 'src',
    caught: 'if (guest.subscriptionPlan === 5) countHours();',
  },
  { rule: 'the no-motion threshold 1.5', literal: number('1.5'), home: VISION_PARAMS, within: 'src', caught: 'const NO_MOTION_THRESHOLD = 1.5;' },
  { rule: 'the iOS no-motion threshold 3.5', literal: number('3.5'), home: VISION_PARAMS, within: 'src', caught: 'const threshold = ios ? 3.5 : base;' },
  {
    rule: 'the no-motion count 180 s',
    literal: number('180', '180_000', '180000'),
    home: VISION_PARAMS,
    within: 'src',
    caught: 'const NO_MOTION_MS = 180_000;',
  },
  {
    rule: "the sleepers' no-motion count 90 s, in ms",
    literal: number('90_000', '90000'),
    home: VISION_PARAMS,
    within: 'src',
    caught: 'const SLEEPER_MS = 90_000;',
  },
  { rule: "the sleepers' no-motion count 90 s", literal: number('90'), home: VISION_PARAMS, within: 'vision code', caught: 'const SLEEPER_S = 90;' },
  { rule: 'the darkness count 30 s', literal: number('30_000', '30000'), home: VISION_PARAMS, within: 'vision code', caught: 'const DARK_MS = 30_000;' },
  { rule: 'the largest frame side 4096', literal: number('4096', '4_096'), home: VISION_PARAMS, within: 'vision code', caught: 'const MAX_SIDE = 4_096;' },
];

/** The code that analyses the camera or shows its analysis. */
const VISION_CODE = ['src/client/vision/', 'src/client/features/cameraCheck/', 'src/client/features/jail/'];
const SOURCE = /\.(?:ts|tsx|js|mjs)$/;
const NOT_PRODUCT = /\.(?:test|spec)\.|\.d\.ts$|(?:^|\/)test\//;

const root = new URL('../..', import.meta.url).pathname;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return SOURCE.test(entry.name) ? [relative(root, path)] : [];
  });
}

/** The code without its comments (a `//` after a colon is a URL's, not a comment). */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');
}

const productFiles = sources(join(root, 'src')).filter((path) => !NOT_PRODUCT.test(path));
const visionFiles = productFiles.filter((path) => VISION_CODE.some((folder) => path.startsWith(folder)));

/** `file:line: text` of each line of `files` (but `home`) where `literal` stands in the code. */
function strays(files: readonly string[], { literal, home }: RuleHome): string[] {
  return files
    .filter((path) => path !== home)
    .flatMap((path) =>
      code(readFileSync(join(root, path), 'utf8'))
        .split('\n')
        .flatMap((line, index) => (literal.test(line) ? [`${path}:${index + 1}: ${line.trim()}`] : [])),
    );
}

describe('one home per rule', () => {
  it('reads the code it guards', () => {
    expect(productFiles).toContain('src/shared/constants.ts');
    expect(visionFiles).toContain('src/client/vision/js-analyser.ts');
    expect(visionFiles).toContain('src/client/features/cameraCheck/CameraCheckScreen.tsx');
  });

  it.each(RULE_HOMES)('$rule is written only in $home', (row) => {
    expect(existsSync(join(root, row.home))).toBe(true);
    expect(row.literal.test(row.caught)).toBe(true);
    expect(strays(row.within === 'src' ? productFiles : visionFiles, row)).toEqual([]);
  });

  it('spells numbers whole and leaves comments alone', () => {
    expect(number('90').test('version 1.90.2, 900, x90, rotate(-90 50 50)')).toBe(false);
    expect(code('const a = 2; // 180 s\n/* 1.5 */ const b = "http://x/180";')).toBe('const a = 2; \n const b = "http://x/180";');
  });
});

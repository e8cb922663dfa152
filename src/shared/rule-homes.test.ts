import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Each rule's literal is written once, in its home module (docs/rules.md);
 * everything else names the constant. One row per rule: the forms its
 * literal can take and the module that owns it. Tests and docs may spell
 * the values out; the product's source under src/ may not. A home may lie
 * outside src/ (the vision crate's parameters).
 */
const RULE_HOMES: readonly { rule: string; literal: RegExp; home: string }[] = [
  // The week of the suspensions and of a weekly repeat: 604,800,000 ms.
  { rule: 'a week in ms', literal: /\b604_?800_?000\b|\b7\s*\*\s*(?:24\b|DAY|86_?400_?000\b)/, home: 'src/shared/durations.ts' },
  // The six-hour cutoff for editing, cancelling and skipping a booking: 21,600,000 ms.
  { rule: 'the change cutoff', literal: /\b21_?600_?000\b|\b6\s*\*\s*(?:HOUR|60\s*\*\s*60\b|3_?600_?000\b)/, home: 'src/shared/reservations.ts' },
  // The plan codes the database stores (trial 1, university 2, standard 3, free 4, light 5).
  {
    rule: 'the plan codes',
    literal:
      /\b(?:trial|university|standard|free|light)['"]?\s*:\s*(?:\{\s*code\s*:\s*)?[1-5]\b|\bsubscription_?plan\w*\s*(?:[!=]==?|[:,=]|\bin\b)\s*\(?\s*[1-5]\b/i,
    home: 'src/shared/plans.ts',
  },
];

const SOURCE = /\.(?:ts|tsx|js|mjs)$/;
const NOT_PRODUCT = /\.(?:test|spec)\.|(?:^|\/)test\//;

function productSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return productSources(path);
    return SOURCE.test(entry.name) ? [path] : [];
  });
}

const root = new URL('../..', import.meta.url).pathname;
const files = productSources(join(root, 'src'))
  .map((path) => relative(root, path))
  .filter((path) => !NOT_PRODUCT.test(path));

describe('one home per rule', () => {
  it.each(RULE_HOMES)('$rule is written only in $home', ({ literal, home }) => {
    const lines = files.flatMap((path) =>
      readFileSync(join(root, path), 'utf8')
        .split('\n')
        .flatMap((line, index) => (literal.test(line) ? [`${path}:${index + 1}: ${line.trim()}`] : [])),
    );
    expect(lines.filter((line) => !line.startsWith(`${home}:`))).toEqual([]);
    // The row still guards something: the home (in src/ or not) writes the literal.
    expect(literal.test(readFileSync(join(root, home), 'utf8'))).toBe(true);
  });
});

/**
 * The accessibility scan of the browser tests: axe-core run in the page
 * itself against WCAG 2.0 and 2.1, A and AA (tests/helpers.ts, checkA11y;
 * tests/sweep.spec.ts).
 *
 * axe is put into the page when it is first scanned, and from then on into
 * each document of its browser context as the document loads (an init
 * script, which Chromium compiles once: 0.2 CPU-seconds less a document than
 * putting it in afterwards); a scan then only runs it, and only the
 * violations come back. The @axe-core/playwright builder runs the same engine
 * with the same rules, but it put axe's 500 kB script into the page twice on
 * every scan and brought every result group back: a scan cost 0.6 to 1.2
 * CPU-seconds, against 0.3 to 0.5 for the first scan of a document here and
 * 0.1 to 0.45 for each later one (measured on /signup, /privacy.html and / in
 * the headless shell).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { BrowserContext, Page } from '@playwright/test';
import type { AxeResults, RunOptions } from 'axe-core';

/** The tags every screen must pass: WCAG 2.0 and 2.1, A and AA. */
const WCAG_AA_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface Violation {
  id: string;
  impact: string | null;
  help: string;
  /** Each element's CSS selector (a list: the frames' selectors, then the element's). */
  targets: string[];
}

/** The browser contexts whose documents get axe as they load. */
const contextsWithAxe = new WeakSet<BrowserContext>();

/**
 * Puts axe into each frame of the page that has none yet, so that the scan
 * reaches into the frames axe allows (its own origin's), and into the
 * context's later documents. Evaluated as a script, so the page's CSP, which
 * allows no eval, does not apply.
 */
async function ensureAxe(page: Page): Promise<void> {
  const context = page.context();
  if (!contextsWithAxe.has(context)) {
    contextsWithAxe.add(context);
    await context.addInitScript({ content: AXE_SOURCE });
  }
  for (const frame of page.frames()) {
    if (!(await frame.evaluate(() => 'axe' in window))) await frame.evaluate(AXE_SOURCE);
  }
}

/** The WCAG 2.1 AA violations on the page as it is now: of every rule of those tags, or of `rules` only. */
export async function axeViolations(page: Page, rules: readonly string[] | 'all' = 'all'): Promise<Violation[]> {
  await ensureAxe(page);
  const options: RunOptions = {
    runOnly: rules === 'all' ? { type: 'tag', values: WCAG_AA_TAGS } : { type: 'rule', values: [...rules] },
    resultTypes: ['violations'],
  };
  return page.evaluate(async (options) => {
    const { axe } = window as unknown as { axe: { run(context: Document, options: RunOptions): Promise<AxeResults> } };
    const { violations } = await axe.run(document, options);
    return violations.map(({ id, impact, help, nodes }) => ({
      id,
      impact: impact ?? null,
      help,
      targets: nodes.map(({ target }) => target.join(' ')),
    }));
  }, options);
}

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { motionFromGuestSchema } from '../shared/relay.ts';
import { type Figure, type FigureUnit, PRIVACY_FIGURES } from './privacy-figures.ts';
import type { MotionKind } from '../shared/jail-vocabulary.ts';

/**
 * The figures that privacy.html (and terms.html, where it repeats them)
 * states about what leaves the device and how long data is kept are the
 * code's: each is marked `<data data-figure="name" value="n">n</data>`
 * followed by its unit, and must be the registry's (privacy-figures.ts, which
 * reads the constants the code runs on); privacy.html states every one of
 * them in both languages (docs/privacy.md).
 */

const LANGUAGES = ['en', 'ja'] as const;
type Language = (typeof LANGUAGES)[number];

/** The words that may follow a figure of each unit, in each language. */
const UNIT_AFTER: Record<Language, Record<FigureUnit, RegExp>> = {
  en: { second: /^ seconds?\b/, minute: /^ minutes?\b/, hour: /^ hours?\b/, day: /^ days?\b/, pixel: /^ pixels?\b/, image: /^ images?\b/ },
  ja: { second: /^秒/, minute: /^分/, hour: /^時間/, day: /^日/, pixel: /^ピクセル/, image: /^枚/ },
};

interface Marked {
  name: string | undefined;
  value: string | undefined;
  text: string;
  /** The text right after the element, where its unit is. */
  after: string;
}

/** The page's markup, without its comments. */
function read(page: string): string {
  return readFileSync(new URL(`../../${page}`, import.meta.url), 'utf8').replace(/<!--[\s\S]*?-->/g, '');
}

/** The article of `language` (`<article id="en">`, `<article id="ja" lang="ja">`). */
function article(html: string, language: Language): string {
  const found = new RegExp(`<article id="${language}"[^>]*>([\\s\\S]*?)</article>`).exec(html);
  if (found?.[1] === undefined) throw new Error(`no <article id="${language}">`);
  return found[1];
}

/** Every `<data>` element of `html`, with its attributes, its text and what follows it. */
function marked(html: string): Marked[] {
  return [...html.matchAll(/<data\b([^>]*)>([^<]*)<\/data>([^<]{0,12})/g)].map(([, attributes = '', text = '', after = '']) => ({
    name: /\bdata-figure="([^"]*)"/.exec(attributes)?.[1],
    value: /\bvalue="([^"]*)"/.exec(attributes)?.[1],
    text,
    after,
  }));
}

function figureOf(name: string | undefined): Figure | undefined {
  return name !== undefined && Object.hasOwn(PRIVACY_FIGURES, name) ? PRIVACY_FIGURES[name as keyof typeof PRIVACY_FIGURES] : undefined;
}

/** What is wrong with the marked figures of one article: each problem in a line naming the figure. */
function problems(html: string, language: Language): string[] {
  const found = marked(html);
  const lines: string[] = [];
  if (found.length !== (html.match(/<data\b/g) ?? []).length) lines.push('a <data> element that is not `<data …>figure</data>`');
  for (const { name, value, text, after } of found) {
    const figure = figureOf(name);
    if (figure === undefined) {
      lines.push(`data-figure="${name ?? ''}" is not in PRIVACY_FIGURES`);
      continue;
    }
    const expected = String(figure.value);
    if (value !== expected) lines.push(`${name}: value="${value ?? ''}", the code's is ${expected}`);
    if (text.trim() !== expected) lines.push(`${name}: reads "${text}", the code's is ${expected}`);
    if (!UNIT_AFTER[language][figure.unit].test(after)) lines.push(`${name}: "${text}${after}" is not followed by its unit (${figure.unit})`);
  }
  return lines;
}

describe('privacy.html', () => {
  const page = read('privacy.html');

  for (const language of LANGUAGES) {
    it(`states every figure in ${language} as the code has it`, () => {
      const part = article(page, language);
      expect(problems(part, language)).toEqual([]);
      const stated = new Set(marked(part).map(({ name }) => name));
      expect(Object.keys(PRIVACY_FIGURES).filter((name) => !stated.has(name))).toEqual([]);
    });
  }

  /** How the page names each motion event the device may send: a new kind fails to compile here until the page names it. */
  const EVENT_WORDS: Record<MotionKind, Record<Language, string>> = {
    no_motion: { en: 'stopped moving', ja: '動きが止まった' },
    motion: { en: 'moved again', ja: '戻った' },
    nodding: { en: 'nodded', ja: '居眠り' },
    darkness: { en: 'went dark', ja: '暗さ' },
    away: { en: 'your seat looked empty', ja: '席が空いている（不在）' },
    back: { en: 'that you were back', ja: '席に戻った' },
  };

  for (const language of LANGUAGES) {
    it(`names every motion event the device sends, in ${language}, and that nothing but its kind and time goes with it`, () => {
      const part = article(page, language);
      for (const words of Object.values(EVENT_WORDS)) expect(part).toContain(words[language]);
      // "No picture and no measurement" (no face position, no score): a motion event carries its type and time only.
      expect(Object.keys(motionFromGuestSchema.shape.motion.shape).sort()).toEqual(['time', 'type']);
    });
  }

  it('marks no figure outside its two articles', () => {
    const outside = page.replace(/<article\b[\s\S]*?<\/article>/g, '');
    expect(outside).not.toMatch(/<data\b/);
  });
});

describe('terms.html', () => {
  const page = read('terms.html');

  for (const language of LANGUAGES) {
    it(`repeats the privacy figures in ${language} as the code has them`, () => {
      const part = article(page, language);
      expect(marked(part).length).toBeGreaterThan(0);
      expect(problems(part, language)).toEqual([]);
    });
  }
});

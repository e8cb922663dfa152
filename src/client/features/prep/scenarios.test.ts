import { describe, expect, it } from 'vitest';
import { readingTimeMs, speechAllowanceMs } from './pace.ts';
import { judgeAnswer, PREP_START, prepReducer, SCENARIOS, stepAt, type PrepEvent, type PrepPosition } from './scenarios.ts';
import { texts } from './texts.ts';
import { SUBTITLE_TEXT_COUNT } from './scenarios.ts';

const DONE: PrepEvent = { type: 'done' };

function run(events: PrepEvent[], from: PrepPosition = PREP_START): PrepPosition {
  return events.reduce(prepReducer, from);
}

describe('the script', () => {
  it('says each of the 18 numbered texts once, in order', () => {
    const said = SCENARIOS.flat().flatMap((step) => (step.kind === 'line' ? [step.text] : []));
    expect(said).toEqual(Array.from({ length: SUBTITLE_TEXT_COUNT }, (_, index) => index + 1));
  });

  it('has every numbered text in both languages', () => {
    for (let number = 1; number <= SUBTITLE_TEXT_COUNT; number += 1) {
      expect(texts.en).toHaveProperty(`prep_text_${number}`);
      expect(texts.ja).toHaveProperty(`prep_text_${number}`);
    }
  });

  it('uses texts 1-3, then 4-7, then 8-17, then goes live after the closing line 18', () => {
    const linesOf = (scenario: readonly (typeof SCENARIOS)[number][number][]) => scenario.flatMap((step) => (step.kind === 'line' ? [step.text] : []));
    expect(linesOf(SCENARIOS[0]!)).toEqual([1, 2, 3]);
    expect(linesOf(SCENARIOS[1]!)).toEqual([4, 5, 6, 7]);
    expect(linesOf(SCENARIOS[2]!)).toEqual([8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18]);
    expect(SCENARIOS[2]!.slice(-2)).toEqual([{ kind: 'line', text: 18 }, { kind: 'live' }]);
  });

  it('asks for commands 1, 2 and 3 in scenario 3', () => {
    expect(SCENARIOS[2]!.flatMap((step) => (step.kind === 'prompt' ? [step.command] : []))).toEqual([1, 2, 3]);
  });
});

describe('prepReducer', () => {
  it('goes through scenario 1 to its pause, which only listening again or going on leaves', () => {
    const paused = run([DONE, DONE, DONE]);
    expect(stepAt(paused)).toEqual({ kind: 'pause', onward: 'next' });
    expect(prepReducer(paused, DONE)).toBe(paused);
    expect(run([{ type: 'listen_again' }], paused)).toEqual(PREP_START);
    expect(run([{ type: 'onward' }], paused)).toEqual({ scenario: 1, step: 0 });
  });

  it('ignores listening again and going on outside a pause', () => {
    expect(prepReducer(PREP_START, { type: 'listen_again' })).toBe(PREP_START);
    expect(prepReducer(PREP_START, { type: 'onward' })).toBe(PREP_START);
  });

  it('pauses scenario 2 with "Setup completed"', () => {
    const paused = run([DONE, DONE, DONE, DONE], { scenario: 1, step: 0 });
    expect(stepAt(paused)).toEqual({ kind: 'pause', onward: 'setup_completed' });
    expect(run([{ type: 'onward' }], paused)).toEqual({ scenario: 2, step: 0 });
  });

  it('ends scenario 3 on going live, where it stays', () => {
    const end = run(
      SCENARIOS[2]!.slice(0, -1).map(() => DONE),
      { scenario: 2, step: 0 },
    );
    expect(stepAt(end)).toEqual({ kind: 'live' });
    expect(prepReducer(end, DONE)).toBe(end);
  });
});

describe('judgeAnswer', () => {
  it('is right for the expected command, by its words or its number', () => {
    expect(judgeAnswer('take a break', 'en', 2)).toBe('right');
    expect(judgeAnswer('Two', 'en', 2)).toBe('right');
    expect(judgeAnswer('休憩します', 'ja', 2)).toBe('right');
  });

  it('is wrong for another command or for words that are none', () => {
    expect(judgeAnswer('finish', 'en', 2)).toBe('wrong');
    expect(judgeAnswer('hello there', 'en', 2)).toBe('wrong');
    expect(judgeAnswer('早めに終了します', 'ja', 1)).toBe('wrong');
  });

  it('is nothing when nothing was heard', () => {
    expect(judgeAnswer(null, 'en', 1)).toBe('nothing');
    expect(judgeAnswer('  ', 'en', 1)).toBe('nothing');
  });
});

describe('timing', () => {
  it('gives a line more time to be said than to be read, and longer lines more of both', () => {
    const short = 'Hello.';
    const long = texts.en.prep_text_9;
    expect(speechAllowanceMs(long)).toBeGreaterThan(speechAllowanceMs(short));
    expect(readingTimeMs(long)).toBeGreaterThan(readingTimeMs(short));
    expect(speechAllowanceMs(long)).toBeGreaterThan(readingTimeMs(long));
  });
});

import { describe, expect, it } from 'vitest';
import table from './commands.json';
import { LANGUAGES } from './constants.ts';
import { commandAnswer, fillTemplate, finishLine, statusAnswer } from './device-lines.ts';
import { FINISH_KINDS } from './jail-vocabulary.ts';
import { BREAK_MS, LEAVE_SEAT_ALLOWANCE_MS } from './penalties.ts';

function placeholders(text: string): string[] {
  return [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1] ?? '').sort();
}

describe('fillTemplate', () => {
  it('fills placeholders and throws on one it has no value for', () => {
    expect(fillTemplate('Back to {work} by {endClock}.', { work: 'maths', endClock: '15:00' })).toBe('Back to maths by 15:00.');
    expect(() => fillTemplate('Back to {wrok}.', { work: 'maths' })).toThrow('{wrok}');
  });
});

describe('the answers to commands', () => {
  it('use the same placeholders in both languages, and every one is filled', () => {
    for (const entry of table.en) {
      const twin = table.ja.find((candidate) => candidate.id === entry.id);
      expect(placeholders(twin?.response ?? ''), `command ${entry.id}`).toEqual(placeholders(entry.response));
      for (const language of LANGUAGES) expect(commandAnswer(entry.id, language)).not.toMatch(/[{}]/);
    }
  });

  it('name the leave allowance and the break length from the rules, not from a copy', () => {
    expect(commandAnswer(1, 'en')).toBe(`All right. Please be back within ${LEAVE_SEAT_ALLOWANCE_MS / 60_000} minutes.`);
    expect(commandAnswer(2, 'ja')).toBe(`${BREAK_MS / 60_000}分の休憩です。ゆっくり休んで、時間どおりに戻ってきてください。`);
  });

  it('answer a change of status as the command that makes it, so the log holds what the device said', () => {
    for (const language of LANGUAGES) {
      expect(statusAnswer('injail', 'leaving', language)).toBe(commandAnswer(1, language));
      expect(statusAnswer('injail', 'breaking', language)).toBe(commandAnswer(2, language));
      expect(statusAnswer('leaving', 'injail', language)).toBe(commandAnswer(5, language));
      expect(statusAnswer('breaking', 'injail', language)).toBe(commandAnswer(6, language));
      expect(statusAnswer('injail', 'injail', language)).toBeNull();
    }
    expect(statusAnswer('breaking', 'injail', 'en')).toBe('Break over. Back to work.');
  });

  it('refuse a command that does not exist', () => {
    expect(() => commandAnswer(7, 'en')).toThrow('no command 7');
  });
});

describe('the finish', () => {
  it('has a line for every finish a guest was there for, in both languages', () => {
    for (const finish of FINISH_KINDS.filter((kind) => kind !== 'ignored')) {
      for (const language of LANGUAGES) {
        const line = finishLine(finish, 'chapter two', language);
        expect(line, `${finish} ${language}`).toMatch(/^[^{}]+$/);
      }
    }
    expect(finishLine('ended', 'chapter two', 'en')).toBe('Time is up. Well done on chapter two. This jail is over.');
    expect(finishLine('forced', 'chapter two', 'en')).toBe('There were too many alerts, so this jail ends now. Next time, stay with it.');
  });

  it('never names an empty work', () => {
    expect(finishLine('ended', ' ', 'en')).toBe('Time is up. Well done. This jail is over.');
    expect(finishLine('ended', '', 'ja')).toBe('時間になりました。お疲れさまでした。ジェイルを終了します。');
  });

  it('says nothing for a jail nobody came into', () => {
    for (const language of LANGUAGES) expect(finishLine('ignored', 'chapter two', language)).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { COMMANDS, recogniseCommand } from './commands.ts';

const ALL = [1, 2, 3, 4, 5, 6];

describe('the commands', () => {
  it('exist in both languages, ids 1 to 6, each with keywords, speech, subtitle and response', () => {
    for (const language of ['en', 'ja'] as const) {
      expect(COMMANDS[language].map((command) => command.id)).toEqual([1, 2, 3, 4, 5, 6]);
      for (const command of COMMANDS[language]) {
        expect(command.keywords.length).toBeGreaterThan(0);
        expect(command.speech).not.toBe('');
        expect(command.subtitle.startsWith(String(command.id))).toBe(true);
        expect(command.response).not.toBe('');
      }
    }
  });
});

describe('recognising a spoken command', () => {
  it('hears each command in English and Japanese, by number and by name, in full width too', () => {
    expect(recogniseCommand('Leave the seat', 'en', ALL)).toBe(1);
    expect(recogniseCommand('I need a break', 'en', ALL)).toBe(2);
    expect(recogniseCommand('three', 'en', ALL)).toBe(3);
    expect(recogniseCommand('Hey Warden', 'en', ALL)).toBe(4);
    expect(recogniseCommand("I'm back", 'en', ALL)).toBe(5);
    expect(recogniseCommand('end the break', 'en', ALL)).toBe(6);
    expect(recogniseCommand('離席します', 'ja', ALL)).toBe(1);
    expect(recogniseCommand('休憩', 'ja', ALL)).toBe(2);
    expect(recogniseCommand('３', 'ja', ALL)).toBe(3);
    expect(recogniseCommand('ただいま戻りました', 'ja', ALL)).toBe(5);
    expect(recogniseCommand('休憩終わり', 'ja', ALL)).toBe(6);
  });

  it('hears only the commands on offer', () => {
    expect(recogniseCommand('take a break', 'en', [5])).toBeNull();
    expect(recogniseCommand('break over', 'en', [6])).toBe(6);
    expect(recogniseCommand('休憩終わり', 'ja', [1, 2, 3, 4])).toBe(2);
  });

  it('does not hear a command inside other words', () => {
    expect(recogniseCommand("I'm done", 'en', ALL)).toBeNull();
    expect(recogniseCommand('someone is here', 'en', ALL)).toBeNull();
    expect(recogniseCommand('にわとり', 'ja', ALL)).toBeNull();
    expect(recogniseCommand('', 'en', ALL)).toBeNull();
  });
});

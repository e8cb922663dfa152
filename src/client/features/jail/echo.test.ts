import { describe, expect, it } from 'vitest';
import { isEcho } from './echo.ts';

describe('isEcho: the Warden heard through the microphone, not the guest', () => {
  const leaving = 'All right. Please be back within 5 minutes.';

  it('is the line being said, as the recognizer writes it or misheard', () => {
    expect(isEcho('all right please be back within 5 minutes', [leaving])).toBe(true);
    expect(isEcho('All right, we back within five minutes', [leaving])).toBe(true);
    expect(isEcho('be back within', [leaving])).toBe(true);
    // A command's keyword inside the line is not the guest's command.
    expect(isEcho('back', [leaving])).toBe(true);
  });

  it('is not the guest speaking over the Warden: a command, or words of their own', () => {
    expect(isEcho("I'm back", [leaving])).toBe(false);
    expect(isEcho('take a break', [leaving])).toBe(false);
    expect(isEcho('I am stuck on the introduction', ['I am listening.'])).toBe(false);
  });

  it('compares Japanese by pairs of characters, as it is written without spaces', () => {
    const line = 'わかりました。5分以内に戻ってきてください。';
    expect(isEcho('わかりました 5分以内に戻ってきてください', [line])).toBe(true);
    expect(isEcho('5分以内に戻って', [line])).toBe(true);
    expect(isEcho('ただいま', [line])).toBe(false);
    expect(isEcho('休憩', [line])).toBe(false);
  });

  it('checks every line being said, and nothing when none is', () => {
    expect(isEcho('welcome back let us carry on', ['I am listening.', 'Welcome back. Let us carry on.'])).toBe(true);
    expect(isEcho('welcome back', [])).toBe(false);
    expect(isEcho('', [leaving])).toBe(false);
  });
});

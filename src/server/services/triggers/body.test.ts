import { describe, expect, it } from 'vitest';
import { isValidTriggerBodyTemplate, renderTriggerBody, type TriggerValues } from '../../../shared/api/collaboration.ts';
import { breakingMs } from './achievement.ts';

const values: TriggerValues = { work: 'Say "hi" \\ then\nleave', date: '2026-03-01', time: '07:30', duration: 90, achievement: 75 };

describe('the trigger body', () => {
  it('fills placeholders as JSON values, or escaped inside a string', () => {
    const rendered = renderTriggerBody('{"w": {{work}}, "note": "did {{work}} on {{date}}", "n": [{{duration}}, {{ achievement }}], "raw": "\\"{{time}}\\""}', values);
    expect(JSON.parse(rendered)).toEqual({ w: values.work, note: `did ${values.work} on 2026-03-01`, n: [90, 75], raw: '"07:30"' });
  });

  it('sends the five values when the template is empty', () => {
    expect(JSON.parse(renderTriggerBody('  ', values))).toEqual(values);
    expect(JSON.parse(renderTriggerBody(null, values))).toEqual(values);
  });

  it('accepts only templates that stay JSON with known placeholders', () => {
    expect(isValidTriggerBodyTemplate('{"a": {{work}}}')).toBe(true);
    expect(isValidTriggerBodyTemplate('{"a": "{{work}}"}')).toBe(true);
    expect(isValidTriggerBodyTemplate('{"a": {{who}}}')).toBe(false);
    expect(isValidTriggerBodyTemplate('{"a": {{work}}')).toBe(false);
    expect(isValidTriggerBodyTemplate('{"a": {{work}}{{work}}}')).toBe(false);
  });
});

describe('the time on a break', () => {
  const said = (time: number, text: string) => ({ type: 'dialog' as const, time, dialog: { type: 1 as const, text } });
  const breaking = 'Enjoy your 20 minute break. Rest well and come back on time.';
  const back = 'Welcome back. Let us carry on.';
  const leaving = 'All right. Please be back within 5 minutes.';

  it('adds up the breaks, not the leaves, and a break still running at the end', () => {
    const logs = [said(100, breaking), said(400, back), said(500, leaving), said(600, back), said(700, '休憩です'), said(800, '20分の休憩です。ゆっくり休んで、時間どおりに戻ってきてください。')];
    expect(breakingMs(logs, 1_000)).toBe(300 + 200);
  });

  it('reads a status change logged as an instruction, and a break that turns into a leave ends it', () => {
    const logs = [{ type: 'instruction' as const, time: 0, instruction: { text: 'breaking' } }, said(50, leaving), said(80, back)];
    expect(breakingMs(logs, 1_000)).toBe(50);
  });
});

import { describe, expect, it } from 'vitest';
import { isValidTriggerBodyTemplate, renderTriggerBody, type TriggerValues } from '../../../shared/api/collaboration.ts';
import { achievementMinutes } from './achievement.ts';

const values: TriggerValues = { work: 'Say "hi" \\ then\nleave', date: '2026-03-01', time: '07:30', duration: 90, achievement: 75 };

describe('the trigger body', () => {
  it('fills placeholders as JSON values, or escaped inside a string', () => {
    const rendered = renderTriggerBody(
      '{"w": {{work}}, "note": "did {{work}} on {{date}}", "n": [{{duration}}, {{ achievement }}], "raw": "\\"{{time}}\\""}',
      values,
    );
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

describe('the minutes achieved', () => {
  const MINUTE = 60_000;
  const jail = {
    reservationId: 1,
    guestId: 1,
    wardenId: null,
    startTime: 0,
    endTime: 60 * MINUTE,
    state: 'finished' as const,
    startedAt: 0,
    enteredAt: 2 * MINUTE,
    jailStatus: 'injail' as const,
    statusSince: 0,
    breakMs: 0,
    awayMs: 0,
    overrunAlerted: false,
    commands: [1, 2, 3, 4],
    lastAliveAt: null,
    patrolCount: 0,
    finishedAt: null,
    finish: null,
    logsSettleAt: null,
    patrolsPurgedAt: null,
  };

  it('counts from entering to the planned end, less the breaks that ended', () => {
    expect(achievementMinutes({ ...jail, breakMs: 20 * MINUTE }, 60 * MINUTE + 900)).toBe(38);
  });

  it('counts a break still under way at the end up to the end', () => {
    expect(achievementMinutes({ ...jail, breakMs: 5 * MINUTE, jailStatus: 'breaking', statusSince: 50 * MINUTE }, 61 * MINUTE)).toBe(43);
  });

  it('leaves out the time away from the seat, ended or under way at the end', () => {
    expect(achievementMinutes({ ...jail, breakMs: 20 * MINUTE, awayMs: 8 * MINUTE }, 60 * MINUTE)).toBe(30);
    expect(achievementMinutes({ ...jail, awayMs: 3 * MINUTE, jailStatus: 'leaving', statusSince: 55 * MINUTE }, 61 * MINUTE)).toBe(50);
  });

  it('gives nothing for an ignored jail, and never less than nothing', () => {
    expect(achievementMinutes({ ...jail, enteredAt: null }, 60 * MINUTE)).toBe(0);
    expect(achievementMinutes({ ...jail, breakMs: 90 * MINUTE }, 60 * MINUTE)).toBe(0);
  });
});

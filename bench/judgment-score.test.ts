import { describe, expect, it } from 'vitest';
import type { Activity } from './footage/script.ts';
import { awaySpells, dozesCaught, falseAlerts, matchesFace, noticedInTime, type Alert } from './judgment-score.ts';

/** Activities from a compact string: w working, a away, d dozing, one letter a second. */
function seconds(text: string): Activity[] {
  return [...text].map((letter) => (letter === 'a' ? 'away' : letter === 'd' ? 'dozing' : 'working'));
}

describe('false alerts', () => {
  it('counts every alert at a second of work, of any kind', () => {
    const alerts: Alert[] = [
      { second: 2, kind: 'nodding' },
      { second: 3, kind: 'noMotion' },
      { second: 4, kind: 'darkness' },
      { second: 5, kind: 'away' },
    ];
    expect(falseAlerts(seconds('wwwwww'), alerts)).toEqual(alerts);
  });

  it('excuses what the label reports: a nod while dozing, away and no motion while away', () => {
    const alerts: Alert[] = [
      { second: 1, kind: 'nodding' },
      { second: 4, kind: 'away' },
      { second: 5, kind: 'noMotion' },
    ];
    expect(falseAlerts(seconds('wdwwaaw'), alerts)).toEqual([]);
  });

  it('excuses a nod up to 15 s after a doze and an away up to 5 s after the seat was empty, no later', () => {
    const activities = seconds(`d${'w'.repeat(20)}a${'w'.repeat(10)}`);
    const alerts: Alert[] = [
      { second: 15, kind: 'nodding' },
      { second: 16, kind: 'nodding' },
      { second: 26, kind: 'away' },
      { second: 27, kind: 'away' },
    ];
    expect(falseAlerts(activities, alerts)).toEqual([
      { second: 16, kind: 'nodding' },
      { second: 27, kind: 'away' },
    ]);
  });

  it('never excuses darkness on a person working, even right after a doze or an absence', () => {
    expect(falseAlerts(seconds('daw'), [{ second: 2, kind: 'darkness' }])).toEqual([{ second: 2, kind: 'darkness' }]);
  });
});

describe('away latency', () => {
  const count = 4;

  it('measures each spell of the count or more from its first second, the event second included', () => {
    const activities = seconds('wwaaaaaawwaaaaw');
    const alerts: Alert[] = [
      { second: 5, kind: 'away' },
      { second: 13, kind: 'away' },
    ];
    const spells = awaySpells(activities, alerts, count);
    expect(spells).toEqual([
      { start: 2, seconds: 6, latencyS: 4 },
      { start: 10, seconds: 4, latencyS: 4 },
    ]);
    expect(spells.every((spell) => noticedInTime(spell, count, 0))).toBe(true);
  });

  it('skips shorter spells, and counts a spell without an event, or with a late one, as missed', () => {
    const activities = seconds('waawaaaaaaaaaw');
    const spells = awaySpells(activities, [{ second: 12, kind: 'away' }], count);
    expect(spells).toEqual([{ start: 4, seconds: 9, latencyS: 9 }]);
    expect(noticedInTime(spells[0], count, 5)).toBe(true);
    expect(noticedInTime(spells[0], count, 4)).toBe(false);
    expect(noticedInTime(awaySpells(activities, [{ second: 13, kind: 'away' }], count)[0], count, 5)).toBe(false);
  });

  it('ends a spell at the end of the clip', () => {
    expect(awaySpells(seconds('waaaa'), [{ second: 4, kind: 'away' }], count)).toEqual([{ start: 1, seconds: 4, latencyS: 4 }]);
  });

  it('ignores other kinds of alert', () => {
    expect(awaySpells(seconds('aaaa'), [{ second: 3, kind: 'noMotion' }], count)).toEqual([{ start: 0, seconds: 4, latencyS: null }]);
  });
});

describe('dozes caught', () => {
  const dozes = [
    { start: 10, end: 40 },
    { start: 100, end: 130 },
    { start: 200, end: 230 },
  ];

  it('takes the first nodding event in the episode or up to 5 s after it', () => {
    const alerts: Alert[] = [
      { second: 9, kind: 'nodding' },
      { second: 25, kind: 'noMotion' },
      { second: 30, kind: 'nodding' },
      { second: 134, kind: 'nodding' },
      { second: 235, kind: 'nodding' },
    ];
    expect(dozesCaught(dozes, alerts).map(({ caughtAt }) => caughtAt)).toEqual([30, 134, null]);
  });
});

describe('a found face', () => {
  const label = { x: 80, y: 50, side: 40 };

  it('matches the label when its centre is within half a side and its size within a factor of 2', () => {
    expect(matchesFace(label, { x: 80 / 160, y: 50 / 120, size: 40 / 160 }, 160, 120)).toBe(true);
    expect(matchesFace(label, { x: 100 / 160, y: 70 / 120, size: 21 / 160 }, 160, 120)).toBe(true);
  });

  it('does not match elsewhere or at another scale', () => {
    expect(matchesFace(label, { x: 101 / 160, y: 50 / 120, size: 40 / 160 }, 160, 120)).toBe(false);
    expect(matchesFace(label, { x: 80 / 160, y: 71 / 120, size: 40 / 160 }, 160, 120)).toBe(false);
    expect(matchesFace(label, { x: 80 / 160, y: 50 / 120, size: 81 / 160 }, 160, 120)).toBe(false);
    expect(matchesFace(label, { x: 80 / 160, y: 50 / 120, size: 19 / 160 }, 160, 120)).toBe(false);
  });
});

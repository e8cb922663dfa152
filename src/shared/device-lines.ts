import type { Language } from './constants.ts';
import table from './commands.json';
import { MINUTE_MS } from './durations.ts';
import type { FinishKind, JailStatus } from './jail-vocabulary.ts';
import { BREAK_MS, LEAVE_SEAT_ALLOWANCE_MS } from './penalties.ts';

/**
 * The Warden's lines that the guest's device says itself, at once and even
 * offline: the answer to a command (its `response` in `commands.json`) and
 * the finish. The server writes the same words in the jail's log, where the
 * consoles and the report read them, and does not send them to be said a
 * second time (docs/jail.md, What the Warden says).
 */

export type TemplateValues = Readonly<Record<string, string | number>>;

/** Fills every `{name}` of `template`; a placeholder without a value is a bug in the lines, so it throws. */
export function fillTemplate(template: string, values: TemplateValues): string {
  return template.replace(/\{(\w+)\}/g, (_placeholder, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`No value for {${name}} in "${template}"`);
    return String(value);
  });
}

/** The `{minutes}` a command's answer names: the allowance of a leave (1) and the length of a break (2). */
const ANSWER_VALUES: Readonly<Partial<Record<number, TemplateValues>>> = {
  1: { minutes: LEAVE_SEAT_ALLOWANCE_MS / MINUTE_MS },
  2: { minutes: BREAK_MS / MINUTE_MS },
};

/** What the Warden says when command `id` is given, filled. */
export function commandAnswer(id: number, language: Language): string {
  const command = table[language].find((entry) => entry.id === id);
  if (command === undefined) throw new Error(`commands.json has no command ${id}`);
  return fillTemplate(command.response, ANSWER_VALUES[id] ?? {});
}

/**
 * The answer to a change of the guest's status: the answer of the command
 * that makes it (1 leave the seat, 2 a break, 5 back to the seat, 6 the end
 * of the break). Staying in the jail is no change worth a word.
 */
export function statusAnswer(from: JailStatus, to: JailStatus, language: Language): string | null {
  if (to === 'leaving') return commandAnswer(1, language);
  if (to === 'breaking') return commandAnswer(2, language);
  if (from === 'injail') return null;
  return commandAnswer(from === 'breaking' ? 6 : 5, language);
}

/** How a jail ends, said once; `ended` names the work, or has a twin for a jail booked without one. */
const FINISH_LINES = {
  ended: {
    en: 'Time is up. Well done on {work}. This jail is over.',
    ja: '時間になりました。「{work}」、お疲れさまでした。ジェイルを終了します。',
  },
  ended_no_work: {
    en: 'Time is up. Well done. This jail is over.',
    ja: '時間になりました。お疲れさまでした。ジェイルを終了します。',
  },
  early: {
    en: 'Noted. This jail ends early. I hope to see you back soon.',
    ja: '承知しました。今回のジェイルはここで終了します。また次回、頑張りましょう。',
  },
  forced: {
    en: 'There were too many alerts, so this jail ends now. Next time, stay with it.',
    ja: '警告が多すぎたため、このジェイルはここで終了します。次回は最後まで頑張りましょう。',
  },
  warden: {
    en: 'A human warden has ended this jail.',
    ja: '担当の看守がこのジェイルを終了しました。',
  },
} as const satisfies Record<Exclude<FinishKind, 'ignored'> | 'ended_no_work', Record<Language, string>>;

/** What the Warden says when a jail finishes; nobody came into an ignored jail, so nothing is said. */
export function finishLine(finish: FinishKind, work: string, language: Language): string | null {
  if (finish === 'ignored') return null;
  const key = finish === 'ended' && work.trim() === '' ? 'ended_no_work' : finish;
  return fillTemplate(FINISH_LINES[key][language], { work });
}

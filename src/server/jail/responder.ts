import type { Language } from '../../shared/constants.ts';
import { ALERT_WINDOW_MS, ALERTS_BEFORE_FORCED_END, BREAK_MS, LEAVE_SEAT_ALLOWANCE_MS } from '../../shared/penalties.ts';
import { fillTemplate, finishLine, statusAnswer, type TemplateValues } from '../../shared/device-lines.ts';
import { MINUTE_MS } from '../../shared/durations.ts';
import { formatClock } from '../../shared/time-zone.ts';
import { COMMAND_NAMES, GUEST_INTENTS, INTENT_PATTERNS, WARDEN_LINES, type GuestIntent, type WardenLineKey } from './script.ts';
import type { AlertKind, FinishKind, JailStatus } from '../../shared/jail-vocabulary.ts';

/**
 * The virtual Warden: turns what happens in a jail into the lines it speaks.
 * Pure functions over the data in `script.ts`; the engine sends the lines.
 */

/** Something that happened in a jail that the virtual Warden answers. */
export type WardenMoment =
  | { kind: 'start'; work: string; endTime: number }
  | { kind: 'resume'; work: string; endTime: number }
  /** `alertsInWindow`: the alerts of the last 20 minutes, this one included. */
  | { kind: 'alert'; alert: AlertKind; alertsInWindow: number }
  | { kind: 'status'; from: JailStatus; to: JailStatus }
  /** The camera sees the guest again after an away (docs/jail.md, Away and back). */
  | { kind: 'back' }
  | { kind: 'guest_said'; text: string; work: string; endTime: number; commands: number[] }
  | { kind: 'finish'; finish: FinishKind; work: string };

/** A function that gives a line of the script in `language`, filled. */
function speaker(language: Language): (key: WardenLineKey, values?: TemplateValues) => string {
  return (key, values = {}) => fillTemplate(WARDEN_LINES[lineFor(key, values)][language], values);
}

function isLineKey(key: string): key is WardenLineKey {
  return Object.hasOwn(WARDEN_LINES, key);
}

/** `key`, or its `_no_work` twin when the work is empty: "Today your work is ." is never said. */
function lineFor(key: WardenLineKey, values: TemplateValues): WardenLineKey {
  const withoutWork = `${key}_no_work`;
  return values.work !== undefined && String(values.work).trim() === '' && isLineKey(withoutWork) ? withoutWork : key;
}

/** The lines the Warden speaks for `moment`, in order, in `language`; `now` and `timeZone` (IANA name or fixed offset) for times. */
export function respond(moment: WardenMoment, language: Language, now: number, timeZone: string): string[] {
  const line = speaker(language);
  switch (moment.kind) {
    case 'start': {
      const endClock = formatClock(moment.endTime, timeZone);
      return [line('start_greeting', { work: moment.work }), line('start_until', { endClock })];
    }
    case 'resume':
      return [line('resume', { work: moment.work, endClock: formatClock(moment.endTime, timeZone) })];
    case 'alert': {
      const { key, allowanceMs } = ALERT_LINES[moment.alert];
      const lines = [line(key, allowanceMs === undefined ? {} : { minutes: wholeMinutes(allowanceMs) })];
      // The alert after this one ends the jail: say so while it can still be avoided.
      if (moment.alertsInWindow === ALERTS_BEFORE_FORCED_END) {
        lines.push(line('alert_last_warning', { alerts: moment.alertsInWindow, windowMinutes: wholeMinutes(ALERT_WINDOW_MS) }));
      }
      return lines;
    }
    case 'status': {
      const answer = statusAnswer(moment.from, moment.to, language);
      return answer === null ? [] : [answer];
    }
    case 'back':
      return [line('back_greeting')];
    case 'guest_said':
      return answerGuest(moment, language, now, timeZone);
    case 'finish': {
      const said = finishLine(moment.finish, moment.work, language);
      return said === null ? [] : [said];
    }
  }
}

/** The line of each alert, and for an overrun the allowance it names. */
const ALERT_LINES: Record<AlertKind, { key: WardenLineKey; allowanceMs?: number }> = {
  no_motion: { key: 'alert_no_motion' },
  nodding: { key: 'alert_nodding' },
  darkness: { key: 'alert_darkness' },
  away: { key: 'alert_away' },
  leave_overrun: { key: 'alert_leave_overrun', allowanceMs: LEAVE_SEAT_ALLOWANCE_MS },
  break_overrun: { key: 'alert_break_overrun', allowanceMs: BREAK_MS },
};

/** What the guest's words ask for, in either language, or null when nothing is recognised. */
export function recogniseIntent(text: string): GuestIntent | null {
  const normalised = text.normalize('NFKC').toLowerCase();
  return (
    GUEST_INTENTS.find((intent) => Object.values(INTENT_PATTERNS[intent]).some((patterns) => patterns.some((pattern) => pattern.test(normalised)))) ?? null
  );
}

function answerGuest(moment: Extract<WardenMoment, { kind: 'guest_said' }>, language: Language, now: number, timeZone: string): string[] {
  const line = speaker(language);
  const work = moment.work;
  switch (recogniseIntent(moment.text)) {
    case 'time_left': {
      const endClock = formatClock(moment.endTime, timeZone);
      const minutes = wholeMinutes(Math.max(0, moment.endTime - now));
      if (minutes === 0) return [line('said_time_left_under_a_minute', { endClock })];
      if (minutes === 1) return [line('said_time_left_one_minute', { endClock })];
      return [line('said_time_left', { minutes, endClock })];
    }
    case 'commands': {
      const items = moment.commands.flatMap((number) => {
        const names = COMMAND_NAMES[number];
        return names === undefined ? [] : [line('said_command_item', { number, name: names[language] })];
      });
      return items.length === 0 ? [line('said_no_commands')] : [line('said_commands'), ...items];
    }
    case 'tired':
      return [line('said_tired', { work }), line('said_tired_way_out')];
    case 'thanks':
      return [line('said_thanks', { work })];
    case 'greeting':
      return [line('said_greeting', { work })];
    case null:
      return [line('said_other', { work })];
  }
}

function wholeMinutes(ms: number): number {
  return Math.floor(ms / MINUTE_MS);
}

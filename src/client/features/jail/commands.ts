import type { Language } from '../../../shared/constants.ts';
import type { Command } from './commandSlice.ts';
import type { CommandId } from './session-rules.ts';

/**
 * The six commands of a live session (docs/jail.md, Commands: id, keywords, speech,
 * subtitle, response), in both languages, as data. `keywords` are what the
 * guest may say (matched without case or width); `speech` is how the Warden
 * names the command when it asks for it; `subtitle` labels its button;
 * `response` is what the Warden says when it is given.
 */
export const COMMANDS: Record<Language, readonly (Command & { id: CommandId })[]> = {
  en: [
    {
      id: 1,
      keywords: ['leave', 'leave the seat', 'going away', 'toilet', 'bathroom', 'one', '1'],
      speech: 'Leave the seat',
      subtitle: '1 Leave the seat',
      response: 'All right. Be back within five minutes.',
    },
    {
      id: 2,
      keywords: ['break', 'take a break', 'rest', 'two', '2'],
      speech: 'Take a break',
      subtitle: '2 Take a break',
      response: 'Enjoy your break. Twenty minutes.',
    },
    {
      id: 3,
      keywords: ['finish', 'finish early', 'stop', 'quit', 'three', '3'],
      speech: 'Finish early',
      subtitle: '3 Finish early',
      response: 'Tell me why you are finishing early.',
    },
    { id: 4, keywords: ['warden', 'talk', 'hey', 'four', '4'], speech: 'Talk to the Warden', subtitle: '4 Talk to the Warden', response: 'I am listening.' },
    {
      id: 5,
      keywords: ['back', "i'm back", 'return', 'five', '5'],
      speech: 'Back to the seat',
      subtitle: '5 Back to the seat',
      response: 'Welcome back. Let us continue.',
    },
    {
      id: 6,
      keywords: ['end the break', 'end break', 'break over', 'six', '6'],
      speech: 'End the break',
      subtitle: '6 End the break',
      response: 'Break over. Back to work.',
    },
  ],
  ja: [
    {
      id: 1,
      keywords: ['離席', '席を外す', 'トイレ', 'いち', '一', '1'],
      speech: '離席します',
      subtitle: '1 離席',
      response: 'わかりました。5分以内に戻ってください。',
    },
    {
      id: 2,
      keywords: ['休憩', 'きゅうけい', 'に', '二', '2'],
      speech: '休憩します',
      subtitle: '2 休憩',
      response: 'ゆっくり休んでください。休憩は20分です。',
    },
    {
      id: 3,
      keywords: ['終了', '早めに終わる', 'やめる', 'さん', '三', '3'],
      speech: '早めに終了します',
      subtitle: '3 早めに終了',
      response: '早めに終了する理由を教えてください。',
    },
    {
      id: 4,
      keywords: ['看守', 'ワーデン', '話す', 'よん', '四', '4'],
      speech: '看守と話します',
      subtitle: '4 看守と話す',
      response: 'どうぞ、聞いています。',
    },
    {
      id: 5,
      keywords: ['戻りました', '戻る', 'ただいま', 'ご', '五', '5'],
      speech: '席に戻りました',
      subtitle: '5 席に戻る',
      response: 'おかえりなさい。続けましょう。',
    },
    {
      id: 6,
      keywords: ['休憩終わり', '休憩終了', 'ろく', '六', '6'],
      speech: '休憩を終わります',
      subtitle: '6 休憩を終える',
      response: '休憩終了です。作業に戻りましょう。',
    },
  ],
};

function normalise(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\s.,!?。、！？「」"']+/g, ' ')
    .trim();
}

/**
 * Whether `keyword` is in `said`: a Latin keyword as whole words ("one" is
 * not in "done"); a Japanese one anywhere, unless it is a single character
 * (に, ご), which could be inside any word and counts only alone.
 */
function contains(said: string, keyword: string): boolean {
  if (/^[a-z0-9' ]+$/.test(keyword)) return ` ${said} `.includes(` ${keyword} `);
  return [...keyword].length > 1 && said.includes(keyword);
}

/**
 * The command the guest said, among those on offer: the one whose keyword
 * is the whole utterance, else the one with the longest keyword inside it
 * (so "end the break" is 6, not 2). Null when none matches.
 */
export function recogniseCommand(heard: string, language: Language, available: readonly number[]): CommandId | null {
  const said = normalise(heard);
  if (said === '') return null;
  let best: { id: CommandId; length: number } | null = null;
  for (const command of COMMANDS[language]) {
    if (!available.includes(command.id)) continue;
    for (const keyword of command.keywords.map(normalise)) {
      if (said === keyword) return command.id;
      if (contains(said, keyword) && (best === null || keyword.length > best.length)) best = { id: command.id, length: keyword.length };
    }
  }
  return best?.id ?? null;
}

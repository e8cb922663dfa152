import type { Language } from '../../../shared/constants.ts';
import table from '../../../shared/commands.json';
import { commandAnswer } from '../../../shared/device-lines.ts';
import type { CommandId } from './session-rules.ts';

/** A command of the live session (docs/jail.md, Commands). */
export interface Command {
  id: CommandId;
  /** What the guest may say (matched without case or width). */
  keywords: readonly string[];
  /** How the Warden names the command when it asks for it. */
  speech: string;
  /** The label of its button. */
  subtitle: string;
  /** What the Warden says when it is given, filled (shared/device-lines.ts). */
  response: string;
}

const COMMAND_IDS: readonly CommandId[] = [1, 2, 3, 4, 5, 6];

/** An entry of `commands.json` with its id checked: the texts are data, kept apart from the code that reads them. */
function commandOf(entry: (typeof table.en)[number], language: Language): Command {
  const id = COMMAND_IDS.find((known) => known === entry.id);
  if (id === undefined) throw new Error(`commands.json names an unknown command ${entry.id}`);
  return { ...entry, id, response: commandAnswer(id, language) };
}

/** The six commands of a live session (docs/jail.md, Commands), in both languages. */
export const COMMANDS: Record<Language, readonly Command[]> = {
  en: table.en.map((entry) => commandOf(entry, 'en')),
  ja: table.ja.map((entry) => commandOf(entry, 'ja')),
};

/** Speech as the matching compares it: no case, no width, punctuation as spaces. */
export function normalise(text: string): string {
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

import type { Language } from '../../../shared/constants.ts';
import { COMMANDS, recogniseCommand } from '../jail/commands.ts';
import type { CommandId } from '../jail/session-rules.ts';

/** Number of numbered subtitle and speech texts of the preparation. */
export const SUBTITLE_TEXT_COUNT = 18;

/**
 * The preparation's script (docs/prep.md) as data, and the pure
 * machine that walks it. Three scenarios, each a list of steps: a numbered
 * line the Warden says and shows (texts `prep_text_1` to `prep_text_18`), a
 * prompt that waits for the guest to give a command (by touch or voice), a
 * pause with 'Listen again' and a way on, and the last step, going live.
 */

export type PrepStep =
  | { kind: 'line'; text: number }
  | { kind: 'prompt'; command: CommandId }
  | { kind: 'pause'; onward: 'next' | 'setup_completed' }
  | { kind: 'live' };

const lines = (...numbers: number[]): PrepStep[] => numbers.map((text) => ({ kind: 'line', text }));

/** Scenario 1: what the Warden does. Scenario 2: the device, camera and light. Scenario 3: the commands, then live. */
export const SCENARIOS: readonly (readonly PrepStep[])[] = [
  [...lines(1, 2, 3), { kind: 'pause', onward: 'next' }],
  [...lines(4, 5, 6, 7), { kind: 'pause', onward: 'setup_completed' }],
  [
    ...lines(8, 9, 10),
    { kind: 'prompt', command: 1 },
    ...lines(11, 12),
    { kind: 'prompt', command: 2 },
    ...lines(13, 14),
    { kind: 'prompt', command: 3 },
    ...lines(15, 16, 17, SUBTITLE_TEXT_COUNT),
    { kind: 'live' },
  ],
];

/** Where the guest is in the script: a scenario (0-2) and a step in it. */
export interface PrepPosition {
  scenario: number;
  step: number;
}

export type PrepEvent =
  /** The current line was said, or the prompt was answered. */
  | { type: 'done' }
  /** 'Listen again' at a pause: the scenario from its start. */
  | { type: 'listen_again' }
  /** 'Next' or 'Setup completed' at a pause: the next scenario. */
  | { type: 'onward' };

export const PREP_START: PrepPosition = { scenario: 0, step: 0 };

export function stepAt(position: PrepPosition): PrepStep {
  const step = SCENARIOS[position.scenario]?.[position.step];
  if (step === undefined) throw new Error(`No step ${position.step} in scenario ${position.scenario}`);
  return step;
}

/** The next position: lines and prompts move on when done; only pauses answer 'listen again' and 'onward'. */
export function prepReducer(position: PrepPosition, event: PrepEvent): PrepPosition {
  const step = stepAt(position);
  switch (event.type) {
    case 'done':
      return step.kind === 'line' || step.kind === 'prompt' ? { ...position, step: position.step + 1 } : position;
    case 'listen_again':
      return step.kind === 'pause' ? { ...position, step: 0 } : position;
    case 'onward':
      return step.kind === 'pause' ? { scenario: position.scenario + 1, step: 0 } : position;
  }
}

/**
 * What the guest's words answer to a prompt for `expected`: right when they
 * name it, wrong when they are something else (another command, or words
 * that are none), nothing when nothing was heard.
 */
export function judgeAnswer(heard: string | null, language: Language, expected: CommandId): 'right' | 'wrong' | 'nothing' {
  if (heard === null || heard.trim() === '') return 'nothing';
  const everyCommand = COMMANDS[language].map((command) => command.id);
  return recogniseCommand(heard, language, everyCommand) === expected ? 'right' : 'wrong';
}
